# Granule - top-level, non-recursive Makefile.
#
# Each directory contributes a rules.mk fragment that appends to:
#   KERNEL_C, KERNEL_ASM   kernel sources (one per line, with a purpose comment)
#   HOST_TESTS             host unit-test binaries (see $(call host_test,...))
# Outputs: build/granule.elf (kernel), build/granule.iso (GRUB multiboot2 ISO),
# build/granule-debug.elf (the same kernel with DWARF debug info, for gdb) and
# build/granule.asm (objdump -S: the kernel's disassembly interleaved with its source).
#
# Targets: all iso run gdb asm test bench trace lab grade fuzz fuzz-host soak clean deps help
# (make help).
# A plain `make` is `make all` (the fragments define object rules first).
.DEFAULT_GOAL := all

BUILD    := build
# make test builds on every CPU; make soak runs as many presets at once.
NPROC    := $(shell nproc)
CC       := gcc
NASM     := nasm
LD       := ld
HOSTCC   := gcc
PYTHON   := /usr/bin/python3

# A fixed version string: the image bytes (and so every -icount trajectory)
# must not change with the git state.
VERSION  := $(shell cat VERSION)
Q        ?= @

# Debug info (KDEBUG= turns it off).  -g never changes the generated code, and
# the kernel that boots is build/granule-debug.elf with its debug sections
# stripped: its loadable segments are byte for byte those of a build without -g
# (tests/system/test_gdb.py checks), so -icount trajectories are unchanged.
KDEBUG     ?= -g
KDEBUG_ASM ?= $(if $(KDEBUG),-g -F dwarf)

# Kernel: i686, freestanding, higher half (see linker.ld and docs/ARCHITECTURE.md).
# No frame pointer (Linux's CONFIG_FRAME_POINTER=n): one more register for
# the 64-bit scheduler arithmetic; gdb unwinds from .debug_frame, and the
# tracer's kprobes displace whatever first instruction GCC emits
# (arch/x86/kprobes_insn.h).
KCFLAGS  := -m32 -march=i686 -std=gnu11 -ffreestanding -fno-pic -fno-pie \
            -fno-stack-protector -fno-asynchronous-unwind-tables -fomit-frame-pointer \
            -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
            -Ikernel/include -Iarch/x86/include -I$(BUILD) -MMD -MP \
            -DGRANULE_VERSION='"$(VERSION)"' $(KDEBUG)
KASFLAGS := -f elf32 -Iboot/ -Iarch/x86/ -I$(BUILD)/ $(KDEBUG_ASM)
KLDFLAGS := -m elf_i386 -T linker.ld -nostdlib -z noexecstack

# The kernel's objects depend on the flags they were built with, as Kbuild's
# .cmd files make them: $(BUILD)/.kflags holds KCFLAGS and KASFLAGS and is
# rewritten only when they change, so a changed flag (KDEBUG=, the frame
# pointer ...) rebuilds every object, not just the sources touched since.
KFLAGS_STAMP := $(BUILD)/.kflags
KFLAGS_NOW   := $(KCFLAGS) | $(KASFLAGS)
ifneq ($(file <$(KFLAGS_STAMP)),$(KFLAGS_NOW))
$(shell mkdir -p $(BUILD))
$(file >$(KFLAGS_STAMP),$(KFLAGS_NOW))
endif

# 64-bit division helpers (__udivdi3 ...) come from 32-bit libgcc
# (Debian lib32gcc-12-dev, installed by tools/deps).
LIBGCC    = $(shell $(CC) -m32 -print-libgcc-file-name)

# Host unit tests: native build with sanitizers; arch/ headers come from the shim.
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter \
               -fsanitize=address,undefined -fno-sanitize-recover=undefined \
               -fno-omit-frame-pointer -Itests/host/shim -Ikernel/include -DHOST_TEST \
               -DGRANULE_VERSION='"$(VERSION)"'
HOST_LIBS   := -lcmocka

KERNEL_C   :=
KERNEL_ASM :=
HOST_TESTS :=

# $(call host_test,NAME,SOURCES): build/host/NAME from SOURCES, linked with cmocka.
define host_test
HOST_TESTS += $(BUILD)/host/$(1)
$(BUILD)/host/$(1): $(2) $(wildcard tests/host/shim/*/*.h kernel/include/kernel/*.h) | $(BUILD)/host
	@echo "  HOSTCC  $$@"
	$(Q)$$(HOSTCC) $$(HOST_CFLAGS) -o $$@ $(2) $$(HOST_LIBS)
endef

include $(sort $(wildcard boot/rules.mk arch/*/rules.mk kernel/rules.mk kernel/*/rules.mk \
                          user/rules.mk tests/*/rules.mk tests/host/*/rules.mk))

KERNEL_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(KERNEL_C)) \
               $(patsubst %.asm,$(BUILD)/%.o,$(KERNEL_ASM))

# Generated inputs of the kernel: syscall numbers and the user-program archive.
$(KERNEL_OBJS): | $(SYSCALL_NR_H)
$(BUILD)/arch/x86/initrd.o: $(INITRD)

# The generators are thin commands in tools/ whose code is in the package
# (tools/granule/image/): an edit there remakes what they wrote, as an edit of
# the command does (the fragments name the commands).
$(SCHED_PRESETS_H) $(USER_PRESETS_H): tools/granule/image/genpresets.py
$(USER_GEN): tools/granule/image/gensyscalls.py
$(INITRD) $(BUILD)/host/exec_ustar: tools/granule/image/mkinitrd.py

.PHONY: all iso run gdb asm test bench clean deps usb trace
all: $(BUILD)/granule.elf $(BUILD)/granule.asm
asm: $(BUILD)/granule.asm

$(BUILD)/%.o: %.c $(KFLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(BUILD)/%.o: %.asm $(KFLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)$(NASM) $(KASFLAGS) -MD $(@:.o=.d) $< -o $@

$(BUILD)/granule-debug.elf: $(KERNEL_OBJS) linker.ld
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KERNEL_OBJS) $(LIBGCC)

# The booted image: the same link without the .debug_* sections.
$(BUILD)/granule.elf: $(BUILD)/granule-debug.elf
	@echo "  STRIP   $@"
	$(Q)objcopy --strip-debug $< $@

# Source-interleaved disassembly, as xv6's kernel.asm.
$(BUILD)/granule.asm: $(BUILD)/granule-debug.elf
	@echo "  OBJDUMP $@"
	$(Q)objdump -S --no-show-raw-insn $< > $@

$(BUILD)/host:
	@mkdir -p $@

iso: $(BUILD)/granule.iso
$(BUILD)/granule.iso: $(BUILD)/granule.elf tools/mkiso $(wildcard tools/presets)
	@echo "  ISO     $@"
	$(Q)tools/mkiso $@

# --- make usb: hybrid BIOS/UEFI USB-stick image, see tools/mkusb ---
# As make run, it installs what it needs first (the toolchain, GRUB, QEMU, OVMF).
usb:
	tools/deps usb
	$(MAKE) all BUSYBOX=$(if $(filter 0,$(BUSYBOX)),0,auto)
	tools/mkusb $(BUILD)/granule-usb.img

# make deps: everything (make test's needs).  make run installs only what the
# headline experiment needs and builds without busybox if it cannot be fetched
# (BUSYBOX=auto: with it when build/busybox/busybox is there).
deps:
	tools/deps all

# make run [CMDLINE='...'] [ICOUNT=0] [BOOT=iso|kernel]
# The headline experiment: SIGEV_THREAD wakeup latency under a make -j10-like
# load with the default preset (commit-0bf377bbb0be), ~20 s of wall time once built (2 cores).
DEFAULT_CMDLINE := run=experiment mode=thread load=kbuild:10 duration=10
run:
	tools/deps run
	$(MAKE) all iso BUSYBOX=$(if $(filter 0,$(BUSYBOX)),0,auto)
	tools/run-qemu --boot $(or $(BOOT),iso) $(if $(filter 0,$(ICOUNT)),--no-icount) \
		--interactive -- '$(or $(CMDLINE),$(DEFAULT_CMDLINE))'

# make shell [CMDLINE='...']: boot into busybox's interactive login shell
# (run=shell, what a boot line without run= starts too) with the serial line
# on this terminal (Ctrl-A X quits QEMU); CMDLINE adds boot words, e.g.
# CMDLINE='sched_preset=linux-2.6.35'.  An interactive shell runs in real
# time (plain TCG: under -icount shift=0,sleep=off a busy guest's virtual
# second costs many wall seconds, so 'sleep 1' beside a hog took half a
# minute); ICOUNT=1 keeps the deterministic clock.  Measurements always run
# under -icount (make run, the tests, the bench).
.PHONY: shell
shell:
	tools/deps shell
	$(MAKE) all
	@echo "make shell: $(if $(filter 1,$(ICOUNT)),deterministic -icount clock (slow when the guest is busy),real time (no -icount: timings vary; ICOUNT=1 for the deterministic clock)); Ctrl-A X quits"
	tools/run-qemu --boot kernel $(if $(filter 1,$(ICOUNT)),,--no-icount) --interactive -- 'run=shell $(CMDLINE)'

# make gdb [CMDLINE='...']: boot QEMU paused with its gdb stub on a unix
# socket and attach gdb to build/granule-debug.elf with tools/granule.gdb's
# helpers (gr-current, gr-rq, gr-min-vruntime); serial output goes to
# build/serial.log.  Quitting gdb stops QEMU.  GDB_CMDS=file: gdb runs the
# file's commands first.  gdb_clock=1 holds the guest clock across stops.
gdb:
	tools/deps run
	$(MAKE) all BUSYBOX=$(if $(filter 0,$(BUSYBOX)),0,auto)
	tools/run-qemu --gdb $(if $(GDB_CMDS),--gdb-cmds '$(GDB_CMDS)') --boot kernel -- '$(or $(CMDLINE),$(DEFAULT_CMDLINE))'

test: deps
	$(MAKE) -j$(NPROC) all iso sim $(HOST_TESTS) $(LAB_SUITE_BINS) $(FUZZ_TARGETS)
	tools/run-tests $(HOST_TESTS) $(FUZZ_TARGETS)

# make trace CMDLINE='...': boot it with the tracer on (trace_event=sched:*,timer:*
# unless CMDLINE names events) and write build/trace/: trace.txt, trace.dat,
# latency.txt, sched_latency.txt (docs/TRACING.md); it ends with the verdict
# on the worst sample (tools/granule/trace/worst.py's sentences).
trace:
	tools/deps run
	$(MAKE) all BUSYBOX=$(if $(filter 0,$(BUSYBOX)),0,auto)
	tools/trace run -o $(BUILD)/trace -- '$(or $(CMDLINE),$(DEFAULT_CMDLINE))'

bench: deps all
	tools/bench $(if $(QUICK),--quick,--docs) $(if $(RESUME),--resume)
	tools/bench_cost.py $(if $(QUICK),--seeds 1 --no-sweep,--docs)
	tools/sim_bench.py $(if $(QUICK),--runs 3 --grid 10)
	tools/bench_rt.py $(if $(QUICK),--quick,--docs) $(if $(RESUME),--resume)
	tools/bench_rtapp.py $(if $(QUICK),--quick,--docs) $(if $(RESUME),--resume)
	tools/bench_smp.py $(if $(QUICK),--quick,--docs) $(if $(RESUME),--resume)

# Graded labs (docs/LABS.md): make lab lists them; make lab NAME=x [DIR=path]
# cuts a tree with lab x's code replaced by a stub; make grade [LAB=x] grades
# this tree (in a cut tree, its own lab).
.PHONY: lab grade
lab:
	@tools/lab $(if $(NAME),cut $(NAME) $(DIR),list)
grade:
	@tools/lab grade $(if $(JSON),--json $(JSON)) $(LAB)

# Robustness (docs/ROBUSTNESS.md): the in-image fuzzer for a long run, and
# the experiment under every preset back to back; tests/fuzz/rules.mk has
# make fuzz-host (the parsers under libFuzzer).
FUZZ_SECONDS ?= 600
FUZZ_SEED    ?= 1
SOAK_SECONDS ?= 3600
SOAK_JOBS    ?= $(NPROC)
.PHONY: fuzz soak
fuzz: deps all iso
	tools/fuzz-image --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED)
soak: deps all iso
	tools/soak --seconds $(SOAK_SECONDS) -j $(SOAK_JOBS) --docs

# make help: the targets and their knobs, one line each.
.PHONY: help
help:
	@printf '%s\n' \
	  "Granule - the two commands (README.md; docs/START.md to begin):" \
	  "  make run      build, boot QEMU, run the headline experiment  [CMDLINE='...' ICOUNT=0 BOOT=kernel]" \
	  "  make test     the whole suite: host tests, then QEMU system tests (~15 min on 2 cores)" \
	  "To learn (docs/START.md gives the order):" \
	  "  make lab      the graded labs; make lab NAME=x cuts lab x into ../granule-lab-x (docs/LABS.md)" \
	  "  make grade    grade the lab of this tree (LAB=x: the reference; LAB=all; JSON=file: results)" \
	  "  tools/sim     the real scheduler on the host, a run in seconds (docs/EXPLORE.md; tools/sim --help)" \
	  "  make trace    the run traced: build/trace/ for trace-cmd and Perfetto (docs/TRACING.md)  [CMDLINE='...']" \
	  "Also:" \
	  "  make shell    busybox's login shell in real time (ICOUNT=1: deterministic)  [CMDLINE='...']" \
	  "  make gdb      the boot paused under gdb with tools/granule.gdb  [CMDLINE='...'] [GDB_CMDS=file]" \
	  "  make bench    every preset x 5 load seeds, Linux beside (~2 h)  [QUICK=1 LINUX=0 RESUME=1]" \
	  "  make usb      a BIOS/UEFI USB-stick image, booted in QEMU both ways (docs/HARDWARE.md)" \
	  "  make fuzz | fuzz-host | soak   robustness runs (docs/ROBUSTNESS.md)" \
	  "  make deps     install and fetch everything (README, 'What the first run downloads')" \
	  "  make all | iso | clean"

clean:
	rm -rf $(BUILD)

-include $(KERNEL_OBJS:.o=.d)
