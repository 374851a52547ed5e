# tests/fuzz - libFuzzer targets for the parsers of untrusted input and the
# /proc and /sys writers, built like the host tests (the unchanged kernel
# sources, -DHOST_TEST, tests/host/shim) but with clang's
# -fsanitize=fuzzer,address,undefined.
# Debian's clang-14 and libclang-rt-14-dev (tools/deps) provide them.
#
#   make fuzz-host [FUZZ_HOST_SECONDS=60]   fuzz each target (default 60 s)
#   make test                               replays every corpus and regression
#                                           input once (tools/run-tests)
# Seed corpora: tests/fuzz/corpus/TARGET/ (tests/fuzz/mkcorpus writes them);
# inputs that once crashed a target: tests/fuzz/regress/TARGET/.
# docs/ROBUSTNESS.md tells the whole story.

FUZZ_CC     := clang
FUZZ_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
               -fno-omit-frame-pointer -Itests/host/shim -Ikernel/include -I$(BUILD) -DHOST_TEST \
               -DGRANULE_VERSION='"$(VERSION)"'
FUZZ_TARGETS :=
FUZZ_HOST_SECONDS ?= 60

# $(call fuzz_target,NAME,SOURCES[,LIBS]): build/fuzz/NAME.  SOURCES may
# name variables of fragments included later ($$(VAR)): the recipe expands
# them when it runs.
define fuzz_target
FUZZ_TARGETS += $(BUILD)/fuzz/$(1)
$(BUILD)/fuzz/$(1): $(2) $(wildcard tests/host/shim/*/*.h kernel/include/kernel/*.h)
	@mkdir -p $$(dir $$@)
	@echo "  FUZZCC  $$@"
	$(Q)$$(FUZZ_CC) $$(FUZZ_CFLAGS) -o $$@ $(2) $(3)
endef

FZ := tests/fuzz
# The boot line, with the scheduler's knobs registered (as tests/host/sched).
# (tests/host/sched/rules.mk, which defines SCHED_HOST_SRC, is read after
# this file: the prerequisites name the directories' sources instead.)
$(eval $(call fuzz_target,fuzz_cmdline,$(FZ)/fuzz_cmdline.c $$(SCHED_HOST_SRC),-lcmocka))
# The ELF loader core, the initrd's ustar reader.
$(eval $(call fuzz_target,fuzz_elf,$(FZ)/fuzz_elf.c kernel/proc/elf.c kernel/lib/string.c))
$(eval $(call fuzz_target,fuzz_ustar,$(FZ)/fuzz_ustar.c kernel/lib/ustar.c kernel/lib/string.c))
# The ACPI AML \_S5 parser and the user_desc conversion (arch/x86 headers).
$(eval $(call fuzz_target,fuzz_acpi_s5,$(FZ)/fuzz_acpi_s5.c arch/x86/acpi_s5.c))
$(eval $(call fuzz_target,fuzz_tls_desc,$(FZ)/fuzz_tls_desc.c arch/x86/tls_desc.c))

# The run-time writers: /proc/sys/kernel/sched_* and sched_features, and
# /sys/kernel/debug/tracing; through kernel/fs/pseudo.c's open and write,
# with file.c's file_alloc/fput and the scheduler as fuzz_cmdline has it.
FUZZ_PSEUDO_SRC := $(FZ)/pseudo_host.c kernel/fs/pseudo.c kernel/fs/sysctl_sd.c kernel/fs/file.c \
	$$(SCHED_HOST_SRC)
$(eval $(call fuzz_target,fuzz_sysctl,$(FZ)/fuzz_sysctl.c $(FUZZ_PSEUDO_SRC),-lcmocka))
$(eval $(call fuzz_target,fuzz_tracefs,$(FZ)/fuzz_tracefs.c $(FUZZ_PSEUDO_SRC) \
	kernel/trace/tracefs.c kernel/trace/trace.c kernel/trace/knobs.c kernel/trace/events.c \
	kernel/trace/ring_buffer.c,-lcmocka))

$(BUILD)/fuzz/fuzz_acpi_s5 $(BUILD)/fuzz/fuzz_tls_desc: FUZZ_CFLAGS += -Iarch/x86/include
FUZZ_SCHED := $(addprefix $(BUILD)/fuzz/,fuzz_cmdline fuzz_sysctl fuzz_tracefs)
# The kernel's sched_yield() would interpose libc's, which libFuzzer's
# threads call at exit: rename it in these binaries.
$(FUZZ_SCHED): FUZZ_CFLAGS += -Dsched_yield=kernel_sched_yield
$(FUZZ_SCHED): $(wildcard kernel/sched/*.[ch] kernel/*.c kernel/lib/*.c tests/host/sched/*.[ch])
# tunables.c includes the presets generated from tools/presets (kernel/sched/rules.mk).
$(FUZZ_SCHED): $(SCHED_PRESETS_H)
$(BUILD)/fuzz/fuzz_sysctl $(BUILD)/fuzz/fuzz_tracefs: $(FZ)/pseudo_host.h \
	$(wildcard kernel/trace/*.h)
# file.c's system calls cast the u32 user addresses of the i386 ABI to
# pointers; the targets call only its file_alloc and fput.
$(BUILD)/fuzz/fuzz_sysctl $(BUILD)/fuzz/fuzz_tracefs: \
	FUZZ_CFLAGS += -Wno-int-to-pointer-cast -Wno-pointer-to-int-cast
# The ring buffer's records are 4-byte aligned, as the i386 ABI aligns a
# u64 inside a struct (trace_entry.ts); x86-64's is 8.  Not a fault on
# either CPU, so UBSan's alignment check is off for this one target.
$(BUILD)/fuzz/fuzz_tracefs: FUZZ_CFLAGS += -fno-sanitize=alignment

.PHONY: fuzz-host
fuzz-host: deps $(FUZZ_TARGETS)
	tools/fuzz-host --seconds $(FUZZ_HOST_SECONDS) $(FUZZ_TARGETS)
