# tests/host/sched - host unit tests of kernel/sched/ (cmocka, ASan/UBSan).
# The kernel files are compiled unchanged against tests/host/shim/arch/
# and the fakes in fake_arch.c (clock, switch recorder, hrtick, console).

SCHED_HOST_SRC := \
	kernel/sched/core.c \
	kernel/sched/wakeup.c \
	kernel/sched/sched_tick.c \
	kernel/sched/prio.c \
	kernel/sched/migrate.c \
	kernel/sched/topology.c \
	kernel/sched/balance.c \
	kernel/sched/rebalance.c \
	kernel/softirq.c \
	kernel/sched/schedstat.c \
	kernel/sched/sd_sysctl.c \
	kernel/sched/fair_smp.c \
	kernel/sched/place.c \
	kernel/sched/fair.c \
	kernel/sched/idle.c \
	kernel/sched/loadavg.c \
	kernel/sched/cputime.c \
	kernel/sched/rt.c \
	kernel/sched/rt_smp.c \
	kernel/sched/cpupri.c \
	kernel/sched/rtmutex.c \
	kernel/sched/deadline.c \
	kernel/sched/tunables.c \
	kernel/sched/debug.c \
	kernel/sched/eevdf.c \
	kernel/sched/eevdf_class.c \
	kernel/sched/eevdf_wakeup.c \
	kernel/sched/eevdf_tunables.c \
	kernel/sched/eevdf_debug.c \
	kernel/sched/pelt.c \
	kernel/sched/eevdf_pelt.c \
	kernel/sched/eevdf_smp.c \
	kernel/sched/eevdf_lb_stats.c \
	kernel/sched/eevdf_balance.c \
	kernel/sched/eevdf_find_dst.c \
	kernel/lib/rbtree.c \
	kernel/lib/rbtree_augmented.c \
	kernel/cmdline.c kernel/cmdline_suggest.c \
	kernel/printk.c \
	kernel/lib/ratelimit.c \
	kernel/lib/vsprintf.c \
	kernel/lib/string.c \
	tests/host/sched/fake_arch.c

# headers the host_test rule does not know about
SCHED_HOST_HDRS := $(wildcard kernel/sched/*.h kernel/include/kernel/*.h \
			      tests/host/sched/*.h)

# The suites built on SCHED_HOST_SRC share their objects: each source is
# compiled once into build/host/sched.o/ (one set of flags for all of them,
# HOST_CFLAGS and -I build/ for the generated presets) and each suite links
# the objects it names.  Compiled into each of twenty binaries, the same
# sources were four fifths of make test's build.  SCHED_OBJ_CFLAGS is fixed
# here (:=), so no binary's own additions reach a shared object.
SCHED_OBJ := $(BUILD)/host/sched.o
SCHED_OBJ_CFLAGS := $(HOST_CFLAGS) -I$(BUILD)
$(SCHED_OBJ)/%.o: %.c $(SCHED_HOST_HDRS) $(SCHED_PRESETS_H) $(wildcard tests/host/shim/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(SCHED_OBJ_CFLAGS) -c $< -o $@

# $(call sched_host_test,NAME,SOURCES): build/host/NAME linked from SOURCES' objects.
define sched_host_test
HOST_TESTS += $(BUILD)/host/$(1)
$(BUILD)/host/$(1): $(patsubst %.c,$(SCHED_OBJ)/%.o,$(2)) | $(BUILD)/host
	@echo "  HOSTLD  $$@"
	$(Q)$$(HOSTCC) $$(HOST_CFLAGS) -o $$@ $$(filter %.o,$$^) $$(HOST_LIBS)
endef

# formulas, placement, preemption, buddies, tick, yield, fork, exit, dumps
$(eval $(call sched_host_test,sched_fair,$(SCHED_HOST_SRC) tests/host/sched/test_fair.c))
# wakeup granularity, buddies, child_runs_first, check_preempt_tick, yield, hrtick
$(eval $(call sched_host_test,sched_preempt,$(SCHED_HOST_SRC) tests/host/sched/test_preempt.c))
# knobs, features, presets, tunable scaling, sched_print_tunables
$(eval $(call sched_host_test,sched_knobs,$(SCHED_HOST_SRC) tests/host/sched/test_knobs.c))
# the discrete-event simulator: fairness, nice shares, random workloads
$(eval $(call sched_host_test,sched_sim,$(SCHED_HOST_SRC) tests/host/sched/sim.c tests/host/sched/sim_smp.c tests/host/sched/test_sim.c))
# the seed variants: dyn-gran, sleeper slice, START_NICE, DEADLINE, cpt-fix
$(eval $(call sched_host_test,sched_variants,$(SCHED_HOST_SRC) tests/host/sched/sim.c tests/host/sched/sim_smp.c tests/host/sched/test_variants.c))
# kernel/proc/fork.c: sched_fork before the copy (2.6.35 order), bad_fork_* unwinding
$(eval $(call sched_host_test,sched_fork,$(SCHED_HOST_SRC) kernel/proc/fork.c tests/host/sched/test_fork.c))
# fork.c casts the u32 user addresses of the i386 ABI to pointers
$(SCHED_OBJ)/kernel/proc/fork.o: SCHED_OBJ_CFLAGS += -Wno-int-to-pointer-cast
# the worked example of docs/SCHEDULER.md (--print / --write regenerate its tables)
$(eval $(call sched_host_test,sched_worked,$(SCHED_HOST_SRC) tests/host/sched/docblock.c tests/host/sched/test_worked.c))
# the rt class: bitmap, FIFO order, RR rotation, rt over fair, throttling
$(eval $(call sched_host_test,sched_rt,$(SCHED_HOST_SRC) tests/host/sched/test_rt.c))
# priority inheritance: boost, deboost, the chain walk, -EDEADLK, rt_mutex_setprio
$(eval $(call sched_host_test,sched_rtmutex,$(SCHED_HOST_SRC) tests/host/sched/test_rtmutex.c))
# the load average against hand-computed fixed point, the tick's CPU-time split, task_times
$(eval $(call sched_host_test,sched_acct,$(SCHED_HOST_SRC) tests/host/sched/test_acct.c))
# SMP on fake CPUs: per-CPU rqs, migration's vruntime, domains, the balancer's
# arithmetic, wake_affine and find_idlest_* against hand-computed cases
$(eval $(call sched_host_test,sched_smp,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c tests/host/sched/test_smp.c))
$(eval $(call sched_host_test,sched_balance,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c tests/host/sched/test_balance.c))
# docs/SCHEDULER.md's worked example of find_busiest_group (--print makes its block)
$(eval $(call sched_host_test,sched_balance_worked,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c \
	tests/host/sched/docblock.c tests/host/sched/test_balance_worked.c))
# placement at wakeup, fork and exec: select_task_rq, avg_idle, migration_cpu_stop
$(eval $(call sched_host_test,sched_place,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c tests/host/sched/test_place.c))
# sched domains from a topology: spans, groups, powers, degenerate levels
$(eval $(call sched_host_test,sched_topology,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c tests/host/sched/test_topology.c))
# load_balance, rebalance_domains, idle_balance: backoff, failures, next_balance
$(eval $(call sched_host_test,sched_rebalance,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c tests/host/sched/test_rebalance.c))
# the simulator at several CPUs: the balancer's pulls, exact accounting, a mixed load
$(eval $(call sched_host_test,sched_sim_smp,$(SCHED_HOST_SRC) tests/host/sched/sim.c tests/host/sched/sim_smp.c \
	tests/host/sched/smp_fake.c tests/host/sched/test_sim_smp.c))
# PELT (Linux 6.12's pelt.c) against hand-computed series, and its table in
# docs/SCHEDULER.md (the series alone: pelt.c without the class's calls).
$(eval $(call host_test,sched_pelt,kernel/sched/pelt.c tests/host/sched/docblock.c \
	tests/host/sched/test_pelt.c))
$(BUILD)/host/sched_pelt: HOST_LIBS += -lm
$(BUILD)/host/sched_pelt: $(SCHED_HOST_HDRS)
# the CPU priority map (2.6.35 sched_cpupri.c): levels, vectors, cpupri_find
$(eval $(call sched_host_test,sched_cpupri,$(SCHED_HOST_SRC) tests/host/sched/test_cpupri.c))
# the rt class on four fake CPUs: push, pull, select_task_rq_rt, the state
$(eval $(call sched_host_test,sched_rt_smp,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c \
	tests/host/sched/test_rt_smp.c))
# the red-black tree against a sorted reference
$(eval $(call host_test,sched_rbtree,kernel/lib/rbtree.c tests/host/sched/test_rbtree.c))

$(BUILD)/host/sched_rbtree: $(SCHED_HOST_HDRS)

# EEVDF (Linux 6.12): V, lag, eligibility, picks, placement, DELAY_DEQUEUE,
# RUN_TO_PARITY/PREEMPT_SHORT, knobs, and the simulator under linux-6.12
$(eval $(call sched_host_test,sched_eevdf,$(SCHED_HOST_SRC) tests/host/sched/sim.c tests/host/sched/sim_smp.c tests/host/sched/test_eevdf.c))
$(eval $(call sched_host_test,sched_eevdf_class,$(SCHED_HOST_SRC) tests/host/sched/sim.c tests/host/sched/sim_smp.c \
	tests/host/sched/test_eevdf_class.c))
# parameter changes: nice scales the stored lag, a slice change requeues
$(eval $(call sched_host_test,sched_eevdf_setattr,$(SCHED_HOST_SRC) tests/host/sched/sim.c tests/host/sched/sim_smp.c \
	tests/host/sched/test_eevdf_setattr.c))
# EEVDF on four fake CPUs: wake_affine (WA_IDLE, WA_WEIGHT on PELT loads),
# wake_wide, SIS_UTIL's depth, select_idle_sibling's candidates (6.12)
$(eval $(call sched_host_test,sched_eevdf_smp,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c \
	tests/host/sched/test_eevdf_smp.c))
# EEVDF's balancer (6.12): group_classify, update_sd_pick_busiest,
# calculate_imbalance's kinds, detach_tasks with a cache-hot task
$(eval $(call sched_host_test,sched_eevdf_balance,$(SCHED_HOST_SRC) tests/host/sched/smp_fake.c \
	tests/host/sched/test_eevdf_balance.c))
# the augmented red-black tree (subtree minima) against brute force
$(eval $(call host_test,sched_rbtree_aug,kernel/lib/rbtree.c kernel/lib/rbtree_augmented.c \
	tests/host/sched/test_rbtree_augmented.c))
$(BUILD)/host/sched_rbtree_aug: $(SCHED_HOST_HDRS)

# build/sim: tools/sim's engine, the same sources as the host tests but built
# for speed (-O2, no sanitizers); cmocka only for fake_arch.c's helpers.
# Linked under a private name and renamed: tools/sim rebuilds it on demand, and
# two tests running at once must never exec a half-written binary.
SIM_CFLAGS := $(filter-out -O1 -fsanitize=% -fno-sanitize-recover=%,$(HOST_CFLAGS)) -O2 -I$(BUILD)
SIM_SRC := tests/host/sched/sim.c tests/host/sched/sim_smp.c tests/host/sched/smp_fake.c $(wildcard tools/granule/sim/engine/*.c) user/bench/kjob.c
$(BUILD)/sim: $(SCHED_HOST_SRC) $(SIM_SRC) $(wildcard tools/granule/sim/engine/*.h) user/bench/kjob.h \
		$(SCHED_HOST_HDRS) $(SCHED_PRESETS_H) | $(BUILD)/host
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(SIM_CFLAGS) -o $@.$$$$ $(SCHED_HOST_SRC) $(SIM_SRC) $(HOST_LIBS) && mv -f $@.$$$$ $@
.PHONY: sim
sim: $(BUILD)/sim
