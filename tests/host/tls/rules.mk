# tests/host/tls - host unit tests of the user_desc <-> descriptor
# conversion (arch/x86/tls_desc.c, compiled unchanged; <arch/tls.h> comes
# from arch/x86/include, searched after tests/host/shim).
$(eval $(call host_test,tls_desc,tests/host/tls/test_tls_desc.c arch/x86/tls_desc.c))

$(BUILD)/host/tls_desc: HOST_CFLAGS += -Iarch/x86/include
$(BUILD)/host/tls_desc: arch/x86/include/arch/tls.h
