# kernel/sched - the Linux 2.6.35 uniprocessor scheduler (CFS + idle class).
KERNEL_C += kernel/sched/core.c		# rq, schedule(), wakeups, fork, tick, nice, yield
KERNEL_C += kernel/sched/fair.c		# the fair class (CFS): vruntime tree, slices, preemption
KERNEL_C += kernel/sched/idle.c		# the idle class: runs rq->idle, never returns NULL
KERNEL_C += kernel/sched/deadline.c	# DEADLINE feature (our reconstruction): unrun-fork deadlines
KERNEL_C += kernel/sched/tunables.c	# sysctl knobs, sched_features=, sched_preset=
KERNEL_C += kernel/sched/debug.c	# /proc/sched_debug-style dump, invariant checker

# sched_presets[] (tunables.c) is generated from tools/presets, the one list
# of presets (tools/mkiso and tools/bench read the same file).
SCHED_PRESETS_H := $(BUILD)/gen/sched_presets.h
$(SCHED_PRESETS_H): tools/presets tools/genpresets kernel/sched/features.h
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)tools/genpresets tools/presets > $@.tmp && mv $@.tmp $@
$(BUILD)/kernel/sched/tunables.o: $(SCHED_PRESETS_H)
