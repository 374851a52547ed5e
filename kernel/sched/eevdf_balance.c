/*
 * kernel/sched/eevdf_balance.c - Linux 6.12's balancer, its second half:
 * which tasks move and when (kernel/sched/fair.c: task_hot(),
 * can_migrate_task(), detach_tasks(), sched_balance_rq(),
 * need_active_balance(), active_load_balance_cpu_stop(),
 * sched_balance_domains(), sched_balance_newidle()).
 *
 *	sched_balance_domains(rq, idle)	the scheduler softirq's periodic
 *		balance (rebalance.c dispatches here under EEVDF)
 *	sched_balance_newidle(cpu, rq)	from schedule() about to idle
 *		(through idle_balance())
 *	sched_balance_rq(...)		one domain: the busiest group and
 *		queue (eevdf_lb_stats.c), detach_tasks(), and after
 *		repeated failures the active balance in the busiest CPU's
 *		stopper (migration/N)
 *
 * Moves: 6.12 detaches tasks under the busiest rq's lock alone (each
 * marked TASK_ON_RQ_MIGRATING) and attaches them after taking the
 * destination's; Granule holds both locks (double_rq_lock()) and moves
 * each task whole with move_queued_task(), which carries a DELAY_DEQUEUE
 * sleeper as it is.  The order and the choice of tasks are 6.12's:
 * oldest queued first (the tail of cfs.tasks), a skipped one sent to the
 * head.
 */
#include "eevdf_lb.h"
#include "stats.h"
#include "eevdf_pelt.h"

/* Backoff cap when pinned tasks make balancing fail (6.12). */
#define MAX_PINNED_INTERVAL	512

/* 6.12's task_util_est(): max(util_avg, util_est). */
static unsigned long task_util_est(struct task *p)
{
	return max((unsigned long)p->se.avg.util_avg,
		   (unsigned long)(p->se.avg.util_est & ~UTIL_AVG_UNCHANGED));
}

/* x >> s with s capped at 31 (6.12 shr_bound()). */
static unsigned long shr_bound(unsigned long x, unsigned int s)
{
	return x >> min(s, 31U);
}

/*
 * P ran on its CPU within sysctl_sched_migration_cost ns (0.5 ms) of the
 * source queue's clock, or is its next buddy while the destination has
 * work: its cache is likely warm there.  -1 makes every task hot, 0 none.
 */
int task_hot(struct task *p, struct lb_env *env)
{
	s64 delta;

	if (p->sched_class != &fair_sched_class || p->policy == SCHED_IDLE)
		return 0;
	if (env->sd->flags & SD_SHARE_CPUPOWER)	/* SMT siblings share cache */
		return 0;
	if (sched_feat(CACHE_HOT_BUDDY) && env->dst_rq->nr_running &&
	    &p->se == cfs_rq_of(&p->se)->next)
		return 1;
	if (sysctl_sched_migration_cost == (unsigned int)-1)
		return 1;
	if (sysctl_sched_migration_cost == 0)
		return 0;
	delta = (s64)(env->src_rq->clock - p->se.exec_start);
	return delta < (s64)sysctl_sched_migration_cost;
}

/* Pinned away from dst_cpu: remember another CPU of our group it may use. */
static int pinned_elsewhere(struct task *p, struct lb_env *env)
{
	unsigned int cpu;

	env->flags |= LBF_SOME_PINNED;
	if (env->idle == CPU_NEWLY_IDLE || (env->flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)))
		return 0;
	for_each_cpu(cpu, env->dst_grpmask) {
		if (cpumask_test_cpu(cpu, env->cpus) && cpumask_test_cpu(cpu, &p->cpus_allowed)) {
			env->flags |= LBF_DST_PINNED;
			env->new_dst_cpu = (int)cpu;
			break;
		}
	}
	return 0;
}

/*
 * May P leave env->src_rq for env->dst_cpu?  Not a bound kernel thread,
 * not outside its affinity, not while it runs, and not while cache-hot
 * unless the active balance asks or this domain failed more than
 * cache_nice_tries times in a row.  env->sched_task_hot notes a hot one
 * let go (6.12 keeps it in p->sched_task_hot).
 */
int can_migrate_task(struct task *p, struct lb_env *env)
{
	int tsk_cache_hot;

	env->sched_task_hot = 0;
	if (p->flags & PF_THREAD_BOUND)		/* kthread_is_per_cpu() */
		return 0;
	if (!cpumask_test_cpu((unsigned int)env->dst_cpu, &p->cpus_allowed))
		return pinned_elsewhere(p, env);
	env->flags &= ~LBF_ALL_PINNED;	/* one task could run on dst_cpu */
	if (task_running(env->src_rq, p))
		return 0;
	if (env->flags & LBF_ACTIVE_LB)
		return 1;
	tsk_cache_hot = task_hot(p, env);	/* no NUMA locality to ask first */
	if (!tsk_cache_hot || env->sd->nr_balance_failed > env->sd->cache_nice_tries) {
		env->sched_task_hot = tsk_cache_hot;
		return 1;
	}
	return 0;
}

/* Move P from src_rq to dst_rq, both locked (6.12 detach_task() + attach_task()). */
static void move_task(struct task *p, struct lb_env *env)
{
	if (env->sched_task_hot && schedstat_enabled())
		env->sd->lb_hot_gained[env->idle]++;
	env->sched_task_hot = 0;
	move_queued_task(env->src_rq, p, env->dst_rq);
}

/* Does P go toward env->imbalance?  Takes its share off if so. */
static int imbalance_takes(struct task *p, struct lb_env *env)
{
	unsigned long load, util;

	switch (env->migration_type) {
	case migrate_load:
		load = max((unsigned long)p->se.avg.load_avg, 1UL);	/* task_h_load */
		if (sched_feat(LB_MIN) && load < 16 && !env->sd->nr_balance_failed)
			return 0;
		/* not too much load, relaxed as balancing keeps failing */
		if ((long)shr_bound(load, env->sd->nr_balance_failed) > env->imbalance)
			return 0;
		env->imbalance -= (long)load;
		return 1;
	case migrate_util:
		util = task_util_est(p);
		if ((long)shr_bound(util, env->sd->nr_balance_failed) > env->imbalance)
			return 0;
		env->imbalance -= (long)util;
		return 1;
	case migrate_task:
		env->imbalance--;
		return 1;
	case migrate_misfit:	/* every task fits equal CPUs: not a misfit */
		return 0;
	}
	return 0;
}

/*
 * Move up to env->imbalance (load, util or tasks) from env->src_rq to
 * env->dst_rq, both locked, oldest queued first; looks at loop_max tasks
 * at most and stops for breath at loop_break.  Returns how many moved.
 */
int detach_tasks(struct lb_env *env)
{
	struct list_head *tasks = &env->src_rq->cfs.tasks;
	int detached = 0;

	/* emptied meanwhile by another CPU: no task is pinned */
	if (lb_nr_running(env->src_cpu) <= 1) {
		env->flags &= ~LBF_ALL_PINNED;
		return 0;
	}
	if (env->imbalance <= 0)
		return 0;

	while (!list_empty(tasks)) {
		struct sched_entity *se;
		struct task *p;

		/* don't steal all, or we may be treated likewise */
		if (env_idle(env) && lb_nr_running(env->src_cpu) <= 1)
			break;
		if (++env->loop > env->loop_max)
			break;
		if (env->loop > env->loop_break) {	/* take a breather */
			env->loop_break += SCHED_NR_MIGRATE_BREAK;
			env->flags |= LBF_NEED_BREAK;
			break;
		}
		se = list_entry(tasks->prev, struct sched_entity, group_node);
		p = task_of(se);
		if (!can_migrate_task(p, env) || !imbalance_takes(p, env)) {
			list_del(&se->group_node);	/* list_move() to the head */
			list_add(&se->group_node, tasks);
			continue;
		}
		move_task(p, env);
		detached++;
		/* not CONFIG_PREEMPTION: a new-idle balance does not stop at one */
		if (env->imbalance <= 0)
			break;
	}
	if (schedstat_enabled())
		env->sd->lb_gained[env->idle] += (unsigned int)detached;
	return detached;
}

/* The active balance's one task: the oldest that may go (6.12 detach_one_task()). */
static int detach_one_task(struct lb_env *env)
{
	struct list_head *pos;

	for (pos = env->src_rq->cfs.tasks.prev; pos != &env->src_rq->cfs.tasks; pos = pos->prev) {
		struct task *p = task_of(list_entry(pos, struct sched_entity, group_node));

		if (!can_migrate_task(p, env))
			continue;
		move_task(p, env);
		if (schedstat_enabled())
			env->sd->lb_gained[env->idle]++;
		return 1;
	}
	return 0;
}

/*
 * Kick the busiest CPU's running task over?  6.12: after more than
 * cache_nice_tries + 2 failures when counting tasks; for a single task on
 * a CPU of reduced capacity, for a misfit, for asym packing (all three
 * moot on equal CPUs).
 */
int need_active_balance(struct lb_env *env)
{
	struct sched_domain *sd = env->sd;

	if (env->migration_type == migrate_task &&
	    sd->nr_balance_failed > sd->cache_nice_tries + 2)
		return 1;
	return env->migration_type == migrate_misfit;
}

/*
 * Should this CPU balance this domain?  A newly idle one always, unless a
 * task came meanwhile; otherwise only the first idle CPU of the local
 * group, or its first CPU if none idles (no SMT: every core is idle
 * when its one CPU is).
 */
static int should_we_balance(struct lb_env *env)
{
	struct sched_group *sg = env->sd->groups;
	unsigned int cpu;

	if (!cpumask_test_cpu((unsigned int)env->dst_cpu, env->cpus))
		return 0;
	if (env->idle == CPU_NEWLY_IDLE)
		return env->dst_rq->nr_running == 0;
	for_each_cpu(cpu, sched_group_cpus(sg)) {
		if (!cpumask_test_cpu(cpu, env->cpus) || !available_idle_cpu((int)cpu))
			continue;
		return (int)cpu == env->dst_cpu;
	}
	return (int)group_first_cpu(sg) == env->dst_cpu;
}

/*
 * The busiest CPU's stopper, asked by sched_balance_rq(): with the task
 * it preempted now only queued, move one task to push_cpu, hot or not.
 */
int active_load_balance_cpu_stop(void *data)
{
	struct rq *busiest_rq = data;
	int busiest_cpu = cpu_of(busiest_rq), target_cpu = busiest_rq->push_cpu;
	struct rq *target_rq = cpu_rq(target_cpu);
	struct sched_domain *sd;
	unsigned long flags;

	local_irq_save(flags);
	double_rq_lock(busiest_rq, target_rq);
	if (busiest_cpu != raw_smp_processor_id() || !busiest_rq->active_balance ||
	    lb_nr_running(busiest_cpu) <= 1)
		goto out_unlock;
	for_each_domain(target_cpu, sd)		/* a domain spanning both */
		if (cpumask_test_cpu((unsigned int)busiest_cpu, sched_domain_span(sd)))
			break;
	if (likely(sd)) {
		struct lb_env env = {
			.sd = sd, .dst_cpu = target_cpu, .dst_rq = target_rq,
			.src_cpu = busiest_cpu, .src_rq = busiest_rq,
			.idle = CPU_IDLE, .flags = LBF_ACTIVE_LB,
		};

		if (schedstat_enabled())
			sd->alb_count++;
		update_rq_clock(busiest_rq);
		if (detach_one_task(&env)) {
			if (schedstat_enabled())
				sd->alb_pushed++;
			sd->nr_balance_failed = 0;	/* done: reset the counter */
		} else if (schedstat_enabled()) {
			sd->alb_failed++;
		}
	}
out_unlock:
	busiest_rq->active_balance = 0;
	double_rq_unlock(busiest_rq, target_rq);
	local_irq_restore(flags);
	return 0;
}

/* Ask BUSIEST's stopper to push its running task here; 0 if it may not come. */
static int kick_active_balance(struct lb_env *env, struct rq *busiest, int *active_balance)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&busiest->lock, flags);
	if (!cpumask_test_cpu((unsigned int)env->dst_cpu, &busiest->curr->cpus_allowed)) {
		raw_spin_unlock_irqrestore(&busiest->lock, flags);
		return 0;
	}
	env->flags &= ~LBF_ALL_PINNED;
	if (!busiest->active_balance) {
		busiest->active_balance = 1;
		busiest->push_cpu = env->dst_cpu;
		*active_balance = 1;
	}
	raw_spin_unlock_irqrestore(&busiest->lock, flags);
	if (*active_balance)
		stop_one_cpu_nowait((unsigned int)cpu_of(busiest), active_load_balance_cpu_stop,
				    busiest, &busiest->active_balance_work);
	return 1;
}

/* Detach and attach under both locks, again after a breather or with a new dst. */
static int move_from(struct lb_env *env, struct rq *busiest)
{
	unsigned long flags;
	int ld_moved = 0;

more_balance:
	local_irq_save(flags);
	double_rq_lock(env->dst_rq, busiest);
	update_rq_clock(busiest);
	ld_moved += detach_tasks(env);
	double_rq_unlock(env->dst_rq, busiest);
	local_irq_restore(flags);
	if (env->flags & LBF_NEED_BREAK) {
		env->flags &= ~LBF_NEED_BREAK;
		goto more_balance;
	}
	/* tasks pinned away from us may go to another CPU of our group */
	if ((env->flags & LBF_DST_PINNED) && env->imbalance > 0) {
		cpumask_clear_cpu((unsigned int)env->dst_cpu, env->cpus);
		env->dst_rq = cpu_rq(env->new_dst_cpu);
		env->dst_cpu = env->new_dst_cpu;
		env->flags &= ~LBF_DST_PINNED;
		env->loop = 0;
		env->loop_break = SCHED_NR_MIGRATE_BREAK;
		goto more_balance;
	}
	return ld_moved;
}

/*
 * Balance THIS_CPU within SD: pull from the busiest queue of the busiest
 * group what env.imbalance says.  Returns the tasks moved;
 * *CONTINUE_BALANCING = 0 when another CPU of our group balances this
 * level (6.12 sched_balance_rq()).
 */
int sched_balance_rq(int this_cpu, struct rq *this_rq, struct sched_domain *sd,
		     enum cpu_idle_type idle, int *continue_balancing)
{
	struct sched_domain *sd_parent = sd->parent;
	int ld_moved = 0, active_balance = 0;
	struct cpumask cpus, grpmask = *sched_group_cpus(sd->groups);
	struct sched_group *group;
	struct rq *busiest;
	struct lb_env env = {
		.sd = sd, .dst_cpu = this_cpu, .dst_rq = this_rq,
		.dst_grpmask = &grpmask, .idle = idle,
		.loop_break = SCHED_NR_MIGRATE_BREAK, .cpus = &cpus,
	};

	cpumask_and(&cpus, sched_domain_span(sd), cpu_online_mask);	/* cpu_active_mask */
	if (schedstat_enabled())
		sd->lb_count[idle]++;
redo:
	if (!should_we_balance(&env)) {
		*continue_balancing = 0;
		goto out_balanced;
	}
	group = sched_balance_find_src_group(&env);
	if (!group) {
		if (schedstat_enabled())
			sd->lb_nobusyg[idle]++;
		goto out_balanced;
	}
	busiest = sched_balance_find_src_rq(&env, group);
	if (!busiest) {
		if (schedstat_enabled())
			sd->lb_nobusyq[idle]++;
		goto out_balanced;
	}
	if (schedstat_enabled())
		sd->lb_imbalance[idle] += (unsigned int)env.imbalance;
	env.src_cpu = cpu_of(busiest);
	env.src_rq = busiest;

	ld_moved = 0;
	env.flags |= LBF_ALL_PINNED;	/* cleared by the first task that may come */
	if (lb_nr_running(env.src_cpu) > 1) {
		/* one task there: the group stays unbalanced, ld_moved 0 */
		env.loop_max = min(sysctl_sched_nr_migrate, lb_nr_running(env.src_cpu));
		ld_moved = move_from(&env, busiest);
		/* affinity kept us from balancing: the parent sees our group imbalanced */
		if (sd_parent && (env.flags & LBF_SOME_PINNED) && env.imbalance > 0)
			*sg_imbalance(sd_parent) = 1;
		if (unlikely(env.flags & LBF_ALL_PINNED)) {
			cpumask_clear_cpu((unsigned int)cpu_of(busiest), &cpus);
			/* other CPUs outside our group may still give */
			if (!cpumask_subset(&cpus, env.dst_grpmask)) {
				env.loop = 0;
				env.loop_break = SCHED_NR_MIGRATE_BREAK;
				goto redo;
			}
			goto out_all_pinned;
		}
	}

	if (!ld_moved) {
		if (schedstat_enabled())
			sd->lb_failed[idle]++;
		/* only the periodic balance counts failures (newidle is too frequent) */
		if (idle != CPU_NEWLY_IDLE && env.migration_type != migrate_misfit)
			sd->nr_balance_failed++;
		if (need_active_balance(&env) && !kick_active_balance(&env, busiest, &active_balance))
			goto out_one_pinned;
	} else {
		sd->nr_balance_failed = 0;
	}
	if (likely(!active_balance) || need_active_balance(&env))
		sd->balance_interval = (unsigned int)sd->min_interval;	/* unbalanced: reset */
	return ld_moved;

out_balanced:
	/* balanced despite affinity: clear the parent's flag if others could move */
	if (sd_parent && !(env.flags & LBF_ALL_PINNED))
		*sg_imbalance(sd_parent) = 0;
out_all_pinned:
	if (schedstat_enabled())
		sd->lb_balanced[idle]++;
	sd->nr_balance_failed = 0;
out_one_pinned:
	/* newidle ignores the intervals: don't let it inflate them */
	if (env.idle == CPU_NEWLY_IDLE || env.migration_type == migrate_misfit)
		return 0;
	if ((env.flags & LBF_ALL_PINNED && sd->balance_interval < MAX_PINNED_INTERVAL) ||
	    sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2;
	return 0;
}

/*
 * A domain's interval in jiffies: balance_interval ms, times busy_factor
 * on a busy CPU and one jiffy less (so that levels do not fall due
 * together), within 1 and HZ * online CPUs / 10 (6.12
 * get_sd_balance_interval(); msecs_to_jiffies() rounds up).
 */
static unsigned long get_sd_balance_interval(struct sched_domain *sd, int cpu_busy)
{
	unsigned long interval = sd->balance_interval;
	unsigned long max_lb = HZ * num_online_cpus() / 10;

	if (cpu_busy)
		interval *= sd->busy_factor;
	interval = (interval * HZ + 999) / 1000;
	if (cpu_busy)
		interval -= 1;
	return clamp(interval, 1UL, max_lb);
}

/*
 * The periodic balance of RQ's CPU, bottom up (6.12 sched_balance_domains()):
 * each domain whose interval has passed; a pull re-reads whether the CPU
 * idles; stop where another CPU of our group balances.  SD_SERIALIZE is
 * NUMA's, never set here; the newidle costs are not kept (see
 * sched_balance_newidle()).
 */
void sched_balance_domains(struct rq *rq, enum cpu_idle_type idle)
{
	unsigned long next_balance = jiffies + 60 * HZ, interval;
	int continue_balancing = 1, update_next_balance = 0, cpu = cpu_of(rq);
	int busy = idle != CPU_IDLE;		/* no sched_idle_cpu() */
	struct sched_domain *sd;

	for_each_domain(cpu, sd) {
		if (!continue_balancing)
			break;
		if (!(sd->flags & SD_LOAD_BALANCE))	/* Granule's knob (6.12 dropped the flag) */
			continue;
		interval = get_sd_balance_interval(sd, busy);
		if ((long)(jiffies - (sd->last_balance + interval)) >= 0) {
			if (sched_balance_rq(cpu, rq, sd, idle, &continue_balancing)) {
				/* dst_cpu may have changed (LBF_DST_PINNED): look again */
				idle = available_idle_cpu(cpu) ? CPU_IDLE : CPU_NOT_IDLE;
				busy = idle != CPU_IDLE;
			}
			sd->last_balance = jiffies;
			interval = get_sd_balance_interval(sd, busy);
		}
		if ((long)(next_balance - (sd->last_balance + interval)) > 0) {
			next_balance = sd->last_balance + interval;
			update_next_balance = 1;
		}
	}
	if (likely(update_next_balance))
		rq->next_balance = next_balance;
}

/*
 * THIS_CPU is about to idle (its rq lock held): age its blocked load,
 * then pull from the SD_BALANCE_NEWIDLE domains, lowest first, until
 * something came (6.12 sched_balance_newidle()).  The gate is 2.6.35's,
 * avg_idle against sysctl_sched_migration_cost, not 6.12's measured
 * max_newidle_lb_cost nor its root-domain overload flag (SCHEDULER.md).
 */
void sched_balance_newidle(int this_cpu, struct rq *this_rq)
{
	unsigned long next_balance = jiffies + HZ;
	int continue_balancing = 1, pulled_task = 0;
	struct sched_domain *sd;

	this_rq->idle_stamp = this_rq->clock;
	if (!this_rq->sd || this_rq->avg_idle < sysctl_sched_migration_cost)
		return;

	raw_spin_unlock(&this_rq->lock);
	sched_balance_update_blocked_averages(this_cpu);
	for_each_domain(this_cpu, sd) {
		unsigned long next = sd->last_balance + get_sd_balance_interval(sd, 0);

		if ((long)(next_balance - next) > 0)	/* update_next_balance() */
			next_balance = next;
		if ((sd->flags & SD_LOAD_BALANCE) && (sd->flags & SD_BALANCE_NEWIDLE))
			pulled_task = sched_balance_rq(this_cpu, this_rq, sd, CPU_NEWLY_IDLE,
						       &continue_balancing);
		if (pulled_task || !continue_balancing)
			break;
	}
	raw_spin_lock(&this_rq->lock);

	/* a task came meanwhile: we are not going idle (Linux has dequeued
	 * its delayed sleepers by now; Granule's may still sit in the tree) */
	if (this_rq->cfs.nr_running - eevdf_rq(&this_rq->cfs)->h_nr_delayed && !pulled_task)
		pulled_task = 1;
	if ((long)(this_rq->next_balance - next_balance) > 0)
		this_rq->next_balance = next_balance;
	if (pulled_task)
		this_rq->idle_stamp = 0;
}
