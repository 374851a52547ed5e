# tests/host/acpi - host unit tests of the ACPI AML \_S5 parser
# (arch/x86/acpi_s5.c, compiled unchanged; <arch/acpi.h> comes from
# arch/x86/include, searched after tests/host/shim).
$(eval $(call host_test,acpi_s5,tests/host/acpi/test_acpi_s5.c arch/x86/acpi_s5.c))

$(BUILD)/host/acpi_s5: HOST_CFLAGS += -Iarch/x86/include
$(BUILD)/host/acpi_s5: arch/x86/include/arch/acpi.h
