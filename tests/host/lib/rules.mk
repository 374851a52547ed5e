# Host unit tests of the portable kernel library (kernel/lib, printk, cmdline).
# Fakes: fake_machine.c (machine_power_off/halt), capture.c (a recording console).
LIB_T := tests/host/lib
$(eval $(call host_test,lib_string,$(LIB_T)/test_string.c kernel/lib/string.c))
$(eval $(call host_test,lib_vsprintf,$(LIB_T)/test_vsprintf.c kernel/lib/vsprintf.c))
$(eval $(call host_test,lib_math64,$(LIB_T)/test_math64.c))
$(eval $(call host_test,lib_ratelimit,$(LIB_T)/test_ratelimit.c kernel/lib/ratelimit.c kernel/printk.c \
	kernel/lib/vsprintf.c $(LIB_T)/fake_machine.c $(LIB_T)/capture.c))
$(eval $(call host_test,lib_printk,$(LIB_T)/test_printk.c kernel/printk.c kernel/lib/ratelimit.c \
	kernel/lib/vsprintf.c $(LIB_T)/fake_machine.c $(LIB_T)/capture.c))
$(eval $(call host_test,lib_cmdline,$(LIB_T)/test_cmdline.c $(LIB_T)/test_knobs2.c \
	kernel/cmdline.c kernel/cmdline_suggest.c kernel/printk.c kernel/lib/ratelimit.c kernel/lib/vsprintf.c kernel/lib/string.c \
	$(LIB_T)/fake_machine.c $(LIB_T)/capture.c))

# Headers the recipes above do not list.
$(addprefix $(BUILD)/host/,lib_string lib_vsprintf lib_math64 lib_printk lib_cmdline lib_ratelimit): \
	$(LIB_T)/host_lib.h kernel/include/kernel/string.h kernel/include/kernel/math64.h \
	kernel/include/kernel/printk.h kernel/include/kernel/cmdline.h kernel/include/kernel/ratelimit.h
