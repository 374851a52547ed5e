# user - Granule's user space: crt0, the C library, the programs, the initrd.
#
# Products (variables the kernel build uses):
#   INITRD        build/initrd.tar: every USER_PROGS ELF, packed by tools/mkinitrd
#                 (member names = program names: "init", "hello" ...)
#   SYSCALL_NR_H  build/gen/syscall_nr.h: __NR_* numbers, NR_syscalls and the
#                 SYSCALL_LIST(X) X-macro; include it as <gen/syscall_nr.h>
#                 with -I$(BUILD), and list it as a prerequisite of the
#                 objects that include it (it is generated).
#   USER_ELFS     build/user/<prog>.elf
# `make user` builds all of them.
#
# Programs are static ELF32 i386 executables linked at 0x08048000 with
# user/user.ld and the Linux i386 int 0x80 ABI, so they also run on a Linux
# host.  The library compiles the kernel's own kernel/lib/string.c and
# kernel/lib/vsprintf.c with the user flags instead of duplicating them.
# Threads: user/lib/thread.c (clone + CLONE_SETTLS; per-thread errno, user/lib/tls.c).

USER_PROGS := init hello ulibtest spin microbench
USER_PROGS += timertest
USER_PROGS += usertests
# The 2010 experiment (issue 6): the measurement, the loads, the driver.
USER_PROGS += wakeup-latency kbuild-load video-load experiment chainjob
# Extra initrd names for one program (NAME=PROG): kbuild-load -P chain's
# make -> sh -> gcc -> cc1 -> as stages are all user/chainjob.c.
USER_ALIASES += sh=chainjob gcc=chainjob cc1=chainjob as=chainjob

INITRD       := $(BUILD)/initrd.tar
# Data files in the initrd besides the programs (NAME=FILE for mkinitrd):
# "notelf" is a shell script, for usertests' execve -> ENOEXEC test.
INITRD_DATA      := user/notelf.txt
INITRD_DATA_ARGS := notelf=user/notelf.txt
SYSCALL_NR_H := $(BUILD)/gen/syscall_nr.h
USER_GEN     := $(SYSCALL_NR_H) $(BUILD)/gen/user_syscalls.h $(BUILD)/gen/user_syscalls.asm
USER_ELFS    := $(patsubst %,$(BUILD)/user/%.elf,$(USER_PROGS))

USER_CFLAGS := -m32 -march=i686 -std=gnu11 -ffreestanding -nostdlib -nostdinc \
               -isystem $(shell $(CC) -m32 -print-file-name=include) \
               -fno-pic -fno-pie -static -fno-stack-protector \
               -fno-asynchronous-unwind-tables -ffunction-sections -fdata-sections \
               -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
               -Iuser/include -Ikernel/include -I$(BUILD) -MMD -MP
USER_LDFLAGS := -m elf_i386 -T user/user.ld -nostdlib -static -z noexecstack \
                -z max-page-size=4096 --gc-sections --build-id=none

USER_LIB_OBJS := \
	$(BUILD)/user/lib/errno.o \
	$(BUILD)/user/lib/tls.o \
	$(BUILD)/user/lib/unistd.o \
	$(BUILD)/user/lib/time.o \
	$(BUILD)/user/lib/signal.o \
	$(BUILD)/user/lib/stdio.o \
	$(BUILD)/user/lib/string.o \
	$(BUILD)/user/lib/stdlib.o \
	$(BUILD)/user/lib/getopt.o \
	$(BUILD)/user/lib/malloc.o \
	$(BUILD)/user/lib/thread.o \
	$(BUILD)/user/lib/timer.o \
	$(BUILD)/user/lib/bench.o \
	$(BUILD)/user/lib/latency.o \
	$(BUILD)/user/lib/kstring.o \
	$(BUILD)/user/lib/kvsprintf.o \
	$(BUILD)/user/lib/syscalls.o
USER_LIB  := $(BUILD)/user/libc.a
USER_CRT0 := $(BUILD)/user/crt0.o
USER_OBJS := $(filter-out $(BUILD)/user/lib/syscalls.o,$(USER_LIB_OBJS)) \
             $(patsubst %,$(BUILD)/user/%.o,$(USER_PROGS))

.PHONY: user
user: $(INITRD) $(USER_ELFS)

# Program objects are intermediate files of a pattern chain: keep them.
.SECONDARY: $(patsubst %,$(BUILD)/user/%.o,$(USER_PROGS))

# System-call numbers and stubs, generated from the one list.
$(USER_GEN) &: user/syscalls.list tools/gensyscalls
	@echo "  GEN     $(BUILD)/gen/{syscall_nr.h,user_syscalls.*}"
	$(Q)$(PYTHON) tools/gensyscalls user/syscalls.list $(BUILD)/gen

# C: user/lib/*.c, user/*.c, and the two shared kernel/lib files.
$(BUILD)/user/%.o: user/%.c | $(USER_GEN)
	@mkdir -p $(dir $@)
	@echo "  UCC     $<"
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(BUILD)/user/lib/k%.o: kernel/lib/%.c | $(USER_GEN)
	@mkdir -p $(dir $@)
	@echo "  UCC     $<"
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(BUILD)/user/lib/syscalls.o: $(BUILD)/gen/user_syscalls.asm
	@mkdir -p $(dir $@)
	@echo "  UNASM   $<"
	$(Q)$(NASM) -f elf32 $< -o $@

$(USER_CRT0): user/crt0.asm
	@mkdir -p $(dir $@)
	@echo "  UNASM   $<"
	$(Q)$(NASM) -f elf32 $< -o $@

$(USER_LIB): $(USER_LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@
	$(Q)ar rcsD $@ $(USER_LIB_OBJS)

$(BUILD)/user/%.elf: $(BUILD)/user/%.o $(USER_CRT0) $(USER_LIB) user/user.ld
	@echo "  ULD     $@"
	$(Q)$(LD) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $< $(USER_LIB) $(LIBGCC)

$(INITRD): $(USER_ELFS) $(INITRD_DATA) tools/mkinitrd
	@echo "  INITRD  $@ ($(USER_PROGS))"
	$(Q)$(PYTHON) tools/mkinitrd -o $@ $(USER_ELFS) $(INITRD_DATA_ARGS) \
		$(foreach a,$(USER_ALIASES),$(firstword $(subst =, ,$(a)))=$(BUILD)/user/$(lastword $(subst =, ,$(a))).elf)

-include $(USER_OBJS:.o=.d)

# --- usertests: user/usertests.c (the runner) + user/ut_*.c (the tests) -----
UT_OBJS := $(BUILD)/user/ut_mem.o $(BUILD)/user/ut_proc.o $(BUILD)/user/ut_thread.o \
           $(BUILD)/user/ut_sig.o \
           $(BUILD)/user/ut_tls.o
.SECONDARY: $(UT_OBJS)
$(BUILD)/user/usertests.elf: $(BUILD)/user/usertests.o $(UT_OBJS) $(USER_CRT0) $(USER_LIB) user/user.ld
	@echo "  ULD     $@"
	$(Q)$(LD) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $(BUILD)/user/usertests.o $(UT_OBJS) $(USER_LIB) $(LIBGCC)
-include $(UT_OBJS:.o=.d)
# --- end usertests -----------------------------------------------------------
