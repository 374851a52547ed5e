# tests/host/exec - host unit tests of the ELF loader core, the ustar reader,
# tools/mkinitrd, and the user programs themselves (run on the Linux host).
# They use the real user build (build/user/*.elf, build/initrd.tar), so
# those are prerequisites; paths are baked in as absolute paths.

$(eval $(call host_test,exec_elf,tests/host/exec/test_elf.c kernel/proc/elf.c kernel/lib/string.c))
$(eval $(call host_test,exec_ustar,tests/host/exec/test_ustar.c kernel/lib/ustar.c kernel/lib/string.c))
$(eval $(call host_test,exec_user_run,tests/host/exec/test_user_run.c))

$(BUILD)/host/exec_elf: kernel/include/kernel/elf.h $(USER_ELFS)
$(BUILD)/host/exec_ustar: kernel/include/kernel/ustar.h $(INITRD) tools/mkinitrd
$(BUILD)/host/exec_user_run: $(USER_ELFS)

$(BUILD)/host/exec_elf $(BUILD)/host/exec_user_run: \
	HOST_CFLAGS += -DUSER_ELF_DIR='"$(abspath $(BUILD)/user)"'
$(BUILD)/host/exec_ustar: \
	HOST_CFLAGS += -DREPO_DIR='"$(CURDIR)"' -DINITRD_PATH='"$(abspath $(INITRD))"'
