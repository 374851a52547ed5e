# user - Granule's user space: crt0, the system-call stubs, the initrd, and
# the few programs at user/'s top level.  The other directories have a
# rules.mk of their own, included below: user/lib (the C library),
# user/bench (the 2010 experiment and the microbenchmarks) and user/tests
# (the in-image test programs).
#
# Products (variables the kernel build uses):
#   INITRD        build/initrd.tar: every USER_PROGS ELF as bin/NAME, and
#                 (unless BUSYBOX=0) Debian's busybox-static as bin/busybox
#                 with a link bin/APPLET -> busybox per applet whose name
#                 no Granule program has, and the USER_ALIASES members
#                 (MEMBER=PROG, a full path); packed by tools/mkinitrd
#   SYSCALL_NR_H  build/gen/syscall_nr.h: __NR_* numbers, NR_syscalls and the
#                 SYSCALL_LIST(X) X-macro; include it as <gen/syscall_nr.h>
#                 with -I$(BUILD), and list it as a prerequisite of the
#                 objects that include it (it is generated).
#   USER_ELFS     build/user/<prog>.elf (flat, whatever directory the source is in)
# `make user` builds all of them.
#
# Programs are static ELF32 i386 executables linked at 0x08048000 with
# user/user.ld and the Linux i386 int 0x80 ABI, so they also run on a Linux
# host.

SYSCALL_NR_H := $(BUILD)/gen/syscall_nr.h
USER_GEN     := $(SYSCALL_NR_H) $(BUILD)/gen/user_syscalls.h $(BUILD)/gen/user_syscalls.asm

USER_CFLAGS := -m32 -march=i686 -std=gnu11 -ffreestanding -nostdlib -nostdinc \
               -isystem $(shell $(CC) -m32 -print-file-name=include) \
               -fno-pic -fno-pie -static -fno-stack-protector \
               -fno-asynchronous-unwind-tables -ffunction-sections -fdata-sections \
               -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
               -Iuser/include -Ikernel/include -I$(BUILD) -MMD -MP
USER_LDFLAGS := -m elf_i386 -T user/user.ld -nostdlib -static -z noexecstack \
                -z max-page-size=4096 --gc-sections --build-id=none
USER_CRT0 := $(BUILD)/user/crt0.o

# Filled in by this file and the fragments below.
USER_PROGS   :=
USER_ALIASES :=
USER_OBJS    :=
# Data files in the initrd besides the programs (NAME=FILE for mkinitrd).
INITRD_DATA      :=
INITRD_DATA_ARGS :=

# $(call user_prog,NAME,OBJECTS): build/user/NAME.elf from OBJECTS, crt0 and
# the libraries in USER_LIBS_$(NAME) (default: none) before libc.
define user_prog
USER_PROGS += $(1)
USER_OBJS  += $(2)
.SECONDARY: $(2)
$(BUILD)/user/$(1).elf: $(2) $$(USER_LIBS_$(1)) $$(USER_CRT0) $$(USER_LIB) user/user.ld
	@echo "  ULD     $$@"
	$(Q)$$(LD) $$(USER_LDFLAGS) -o $$@ $$(USER_CRT0) $(2) $$(USER_LIBS_$(1)) $$(USER_LIB) $$(LIBGCC)
endef

include user/lib/rules.mk

# The programs at this level: pid 1, the first program, the CPU-share check.
$(eval $(call user_prog,init,$(BUILD)/user/init.o))
$(eval $(call user_prog,hello,$(BUILD)/user/hello.o))
$(eval $(call user_prog,spin,$(BUILD)/user/spin.o))
# slice: run a command with a custom EEVDF slice (sched_setattr), like chrt.
$(eval $(call user_prog,slice,$(BUILD)/user/slice.o))
# chrt: util-linux's chrt (policy and rt priority, sched_setscheduler)
$(eval $(call user_prog,chrt,$(BUILD)/user/chrt.o))
# nice: coreutils' nice(1) (Debian's busybox has no nice applet).
$(eval $(call user_prog,nice,$(BUILD)/user/nice.o))
# preset: switch the scheduler to a preset of tools/presets at run time; its
# table is generated from that file, as the kernel's sched_presets[].
$(eval $(call user_prog,preset,$(BUILD)/user/preset.o))
USER_PRESETS_H := $(BUILD)/gen/user_presets.h
$(USER_PRESETS_H): tools/presets tools/genpresets kernel/sched/features.h
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)tools/genpresets --user tools/presets > $@.tmp && mv $@.tmp $@
$(BUILD)/user/preset.o: $(USER_PRESETS_H)

# /etc/passwd and /etc/group: root, for whoami, id -n, ls -l (every process is root).
INITRD_DATA      += user/etc/passwd user/etc/group
INITRD_DATA_ARGS += etc/passwd=user/etc/passwd etc/group=user/etc/group

include user/bench/rules.mk user/tests/rules.mk

INITRD    := $(BUILD)/initrd.tar
# tools/mkinitrd sorts the members by name, so the archive does not depend
# on the order of the fragments.
USER_ELFS := $(patsubst %,$(BUILD)/user/%.elf,$(USER_PROGS))

.PHONY: user
user: $(INITRD) $(USER_ELFS)

# System-call numbers and stubs, generated from the one list.
$(USER_GEN) &: user/syscalls.list tools/gensyscalls
	@echo "  GEN     $(BUILD)/gen/{syscall_nr.h,user_syscalls.*}"
	$(Q)$(PYTHON) tools/gensyscalls user/syscalls.list $(BUILD)/gen

# C anywhere under user/, and the two kernel/lib files the libc shares.
$(BUILD)/user/%.o: user/%.c | $(USER_GEN)
	@mkdir -p $(dir $@)
	@echo "  UCC     $<"
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(USER_CRT0): user/crt0.asm
	@mkdir -p $(dir $@)
	@echo "  UNASM   $<"
	$(Q)$(NASM) -f elf32 $< -o $@

# Debian's busybox-static for i386 (tools/fetch-busybox; GPL-2).  BUSYBOX=0
# builds without it.  The binary, its version and its applet list land in
# build/busybox/; busybox.args lists its initrd members for mkinitrd.
BUSYBOX ?= 1
BUSYBOX_DIR := $(BUILD)/busybox
# BUSYBOX=auto (make run): with busybox if tools/deps could fetch it, else without.
ifeq ($(BUSYBOX),auto)
override BUSYBOX := $(if $(wildcard $(BUSYBOX_DIR)/busybox),1,0)
endif
# The choice itself is a prerequisite: changing BUSYBOX rebuilds the initrd.
BUSYBOX_STAMP := $(BUSYBOX_DIR)/enabled-$(BUSYBOX)
$(BUSYBOX_STAMP):
	@mkdir -p $(dir $@)
	$(Q)rm -f $(BUSYBOX_DIR)/enabled-* && touch $@
ifeq ($(BUSYBOX),0)
INITRD_BUSYBOX :=
else
INITRD_BUSYBOX := $(BUSYBOX_DIR)/busybox.args
$(BUSYBOX_DIR)/busybox $(BUSYBOX_DIR)/applets &: tools/fetch-busybox
	@echo "  FETCH   $(BUSYBOX_DIR)/busybox"
	$(Q)tools/fetch-busybox $(BUSYBOX_DIR)
$(INITRD_BUSYBOX): $(BUSYBOX_DIR)/busybox $(BUSYBOX_DIR)/applets
	$(Q){ echo "bin/busybox=$(BUSYBOX_DIR)/busybox"; \
	      sed 's|.*|bin/&->busybox|' $(BUSYBOX_DIR)/applets; } > $@
endif

$(INITRD): $(USER_ELFS) $(INITRD_DATA) $(INITRD_BUSYBOX) $(BUSYBOX_STAMP) tools/mkinitrd
	@echo "  INITRD  $@"
	$(Q)$(PYTHON) tools/mkinitrd -o $@ $(foreach p,$(USER_PROGS),bin/$(p)=$(BUILD)/user/$(p).elf) \
		$(foreach a,$(INITRD_DATA_ARGS),'$(a)') $(addprefix @,$(INITRD_BUSYBOX)) \
		$(foreach a,$(USER_ALIASES),$(firstword $(subst =, ,$(a)))=$(BUILD)/user/$(lastword $(subst =, ,$(a))).elf)

-include $(USER_OBJS:.o=.d)
