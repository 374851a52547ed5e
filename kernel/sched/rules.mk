# kernel/sched - the scheduler: CFS (Linux 2.6.35), EEVDF (Linux 6.12), idle class.
KERNEL_C += kernel/sched/core.c		# rq, enqueue/dequeue, schedule(), nice, yield, sched_init
KERNEL_C += kernel/sched/wakeup.c	# try_to_wake_up, sched_fork, wake_up_new_task
KERNEL_C += kernel/sched/sched_tick.c	# scheduler_tick, cpu_load[], the hrtick glue
KERNEL_C += kernel/sched/prio.c		# sched_setscheduler_prio, rt_mutex_setprio: policy and PI changes
KERNEL_C += kernel/sched/migrate.c	# per-CPU rqs: task_rq_lock, double_rq_lock, set_task_cpu, move_tasks
KERNEL_C += kernel/sched/topology.c	# sched domains and groups from a topology (SMT/MC/CPU, 2.6.35 SD_*_INIT)
KERNEL_C += kernel/sched/balance.c	# load_balance's arithmetic: find_busiest_group, calculate_imbalance
KERNEL_C += kernel/sched/rebalance.c	# load_balance, idle_balance, rebalance_domains: when to balance
KERNEL_C += kernel/sched/schedstat.c	# /proc/schedstat version 15: a cpu line per CPU, a domain line per domain
KERNEL_C += kernel/sched/sd_sysctl.c	# /proc/sys/kernel/sched_domain/cpuN/domainM/: 2.6.35's per-domain parameters
KERNEL_C += kernel/sched/place.c	# select_task_rq in wakeup, fork and exec; migration_cpu_stop
KERNEL_C += kernel/sched/fair_smp.c	# select_task_rq_fair: wake_affine, find_idlest_group/cpu
KERNEL_C += kernel/sched/fair.c		# the fair class (CFS): vruntime tree, slices, preemption
KERNEL_C += kernel/sched/idle.c		# the idle class: runs rq->idle, never returns NULL
KERNEL_C += kernel/sched/loadavg.c	# the load average (2.6.35 calc_load): per-CPU fold, avenrun
KERNEL_C += kernel/sched/cputime.c	# tick sampling of user/system/idle time, task_times(), task_sched_runtime
KERNEL_C += kernel/sched/rtmutex.c	# priority inheritance (2.6.35 rtmutex.c): boosts, the chain walk
KERNEL_C += kernel/sched/rt.c		# the rt class (2.6.35 sched_rt.c): SCHED_FIFO, SCHED_RR, throttling
KERNEL_C += kernel/sched/rt_smp.c	# the rt class on several CPUs: push, pull, select_task_rq_rt
KERNEL_C += kernel/sched/cpupri.c	# the CPU priority map (2.6.35 sched_cpupri.c): cpupri_find/set
KERNEL_C += kernel/sched/deadline.c	# DEADLINE feature (our reconstruction): unrun-fork deadlines
KERNEL_C += kernel/sched/tunables.c	# sysctl knobs, sched_features=, sched_preset=
KERNEL_C += kernel/sched/debug.c	# /proc/sched_debug-style dump, invariant checker
KERNEL_C += kernel/sched/eevdf.c	# EEVDF (Linux 6.12): V, lag, eligibility, deadlines, pick, placement
KERNEL_C += kernel/sched/eevdf_class.c	# EEVDF: enqueue/dequeue, DELAY_DEQUEUE, pick, tick, class hooks
KERNEL_C += kernel/sched/eevdf_wakeup.c	# EEVDF: wakeup preemption, PREEMPT_SHORT, yield, prio changes
KERNEL_C += kernel/sched/syscalls.c	# nice, policy/PI changes, yield; sched_setscheduler & co (2.6.35), affinity
KERNEL_C += kernel/sched/setattr.c	# sched_setattr/sched_getattr (Linux 6.12): policy, nice, custom slice
KERNEL_C += kernel/sched/eevdf_tunables.c # EEVDF: sched_preset=linux-6.12, base slice, 6.12 features
KERNEL_C += kernel/sched/eevdf_debug.c	# EEVDF: 6.12 sched_debug fields, invariant checker
KERNEL_C += kernel/sched/pelt.c		# PELT (Linux 6.12): the geometric series of load, runnable, util
KERNEL_C += kernel/sched/eevdf_pelt.c	# EEVDF: update_load_avg and its sites, attach/detach, blocked load
KERNEL_C += kernel/sched/eevdf_lb_stats.c # EEVDF: 6.12's balancer: group types, imbalance, busiest group/queue
KERNEL_C += kernel/sched/eevdf_balance.c	# EEVDF: 6.12's sched_balance_rq, detach_tasks, newidle, active balance
KERNEL_C += kernel/sched/eevdf_find_dst.c	# EEVDF: 6.12's fork/exec placement, sched_balance_find_dst_group
KERNEL_C += kernel/sched/eevdf_smp.c	# EEVDF: select_task_rq_fair (6.12), wake_affine, select_idle_sibling

# sched_presets[] (tunables.c) is generated from tools/presets, the one list
# of presets (tools/mkiso and tools/bench read the same file).
SCHED_PRESETS_H := $(BUILD)/gen/sched_presets.h
$(SCHED_PRESETS_H): tools/presets tools/genpresets kernel/sched/features.h
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)tools/genpresets tools/presets > $@.tmp && mv $@.tmp $@
$(BUILD)/kernel/sched/tunables.o: $(SCHED_PRESETS_H)
