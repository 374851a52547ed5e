/*
 * kernel/sched/place.c - which CPU a task runs on when it wakes, is forked
 * or execs, and moving a task by its own CPU's stopper (Linux 2.6.35's
 * kernel/sched.c: select_task_rq(), select_fallback_rq(), the SMP half of
 * try_to_wake_up() and wake_up_new_task(), sched_exec(), migrate_task(),
 * __migrate_task(), migration_cpu_stop()).
 *
 * Only while more than one CPU is online (sched_up_key off): at one CPU
 * core.c's uniprocessor paths run and nothing here is called.
 *
 * A wakeup (try_to_wake_up_smp), in 2.6.35's order: lock the rq P slept
 * on; mark it TASK_WAKING (a concurrent wakeup then finds the state does
 * not match and leaves it, and set_cpus_allowed_ptr() waits) and let its
 * class make its vruntime relative (task_waking_fair: ENQUEUE_WAKING);
 * ask the class for a CPU (select_task_rq_fair: wake_affine, the idle
 * sibling) and set_task_cpu() there, still under the old rq's lock; drop
 * it and lock the new rq, queue P there and see whether it preempts.
 * Nobody else moves a task that is on no runqueue, so the new rq is still
 * P's when it is locked.  An idle CPU woken this way measures how long it
 * idled: rq->avg_idle, the running average idle_balance() consults.
 */
#include "topology.h"
#include "stats.h"
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/stop_machine.h>
#include <arch/irqflags.h>

/*
 * A CPU for P when its class chose one P may not run on: an online CPU of
 * its mask, else (no such CPU: its mask names only CPUs that are down)
 * every online CPU becomes its mask, as 2.6.35's cpuset fallback does.
 */
int select_fallback_rq(int cpu, struct task *p)
{
	unsigned int dest_cpu;

	for_each_cpu(dest_cpu, &p->cpus_allowed) {
		if (cpu_online(dest_cpu))
			return (int)dest_cpu;
	}
	p->cpus_allowed = *cpu_online_mask;
	dest_cpu = cpumask_first(cpu_online_mask);
	printk("process %d (%s) no longer affine to cpu%d\n", p->pid, p->comm, cpu);
	return (int)dest_cpu;
}

/*
 * The class's choice for the event SD_FLAG (SD_BALANCE_WAKE, _FORK or
 * _EXEC), checked against P's mask and the online CPUs.  A class without
 * the hook (rt without cpupri, EEVDF, idle) keeps P where it was.
 */
int select_task_rq(struct task *p, int sd_flag, int wake_flags)
{
	int cpu = (int)task_cpu(p);

	if (p->sched_class->select_task_rq)
		cpu = p->sched_class->select_task_rq(p, sd_flag, wake_flags);
	if (unlikely(!cpumask_test_cpu((unsigned int)cpu, &p->cpus_allowed) ||
		     !cpu_online((unsigned int)cpu)))
		cpu = select_fallback_rq((int)task_cpu(p), p);
	return cpu;
}

/* avg += (sample - avg) / 8 (2.6.35 update_avg) */
static void update_avg(u64 *avg, u64 sample)
{
	s64 diff = (s64)(sample - *avg);

	*avg += (u64)(diff >> 3);
}

/*
 * RQ's CPU idled since idle_balance() stamped it and now has a task:
 * average how long, capped at twice the migration cost (2.6.35's ttwu).
 */
static void ttwu_idle_stamp(struct rq *rq)
{
	u64 delta = rq->clock - rq->idle_stamp;
	u64 max = 2 * (u64)sysctl_sched_migration_cost;

	if (delta > max)
		rq->avg_idle = max;
	else
		update_avg(&rq->avg_idle, delta);
	rq->idle_stamp = 0;
}

/* The wakeup's schedstats: the wakee's rq, and the domain of this CPU
 * that spans a remote CPU (2.6.35's ttwu_count, ttwu_local,
 * ttwu_wake_remote). */
static void ttwu_stat_smp(struct rq *rq, struct task *p, int cpu, int this_cpu)
{
	struct sched_domain *sd;

	if (!schedstat_enabled())
		return;
	rq->ttwu_count++;
	p->se.statistics.nr_wakeups++;
	if (cpu == this_cpu) {
		rq->ttwu_local++;
		return;
	}
	for_each_domain(this_cpu, sd) {
		if (cpumask_test_cpu((unsigned int)cpu, sched_domain_span(sd))) {
			sd->ttwu_wake_remote++;
			break;
		}
	}
}

/*
 * P slept (not queued) on the rq locked here: choose its CPU and return
 * that rq, locked, with P's cpu set; RQ's lock is dropped if it differs.
 * *EN_FLAGS gains ENQUEUE_WAKING when its class made vruntime relative.
 */
static struct rq *ttwu_select(struct rq *rq, struct task *p, int wake_flags, int *en_flags)
{
	int cpu;

	if (task_contributes_to_load(p))
		rq->nr_uninterruptible--;
	p->state = TASK_WAKING;
	if (p->sched_class->task_waking) {
		p->sched_class->task_waking(rq, p);
		*en_flags |= ENQUEUE_WAKING;
	}
	cpu = select_task_rq(p, SD_BALANCE_WAKE, wake_flags);
	if (cpu == cpu_of(rq))
		return rq;
	set_task_cpu(p, (unsigned int)cpu);
	raw_spin_unlock(&rq->lock);
	rq = cpu_rq(cpu);
	raw_spin_lock(&rq->lock);
	return rq;
}

/* try_to_wake_up() while more than one CPU is online (see the top). */
int try_to_wake_up_smp(struct task *p, unsigned int state, int wake_flags)
{
	int this_cpu = raw_smp_processor_id(), en_flags = ENQUEUE_WAKEUP, success = 0;
	unsigned long flags;
	struct rq *rq;

	rq = task_rq_lock(p, &flags);
	if (!(p->state & state))
		goto out;
	if (p->se.on_rq) {			/* see try_to_wake_up() */
		ttwu_requeue_delayed(rq, p);
		goto out_running;
	}

	/* still rq->curr of its CPU, in idle_balance() with the lock dropped:
	 * it stays there */
	if (!task_running(rq, p))
		rq = ttwu_select(rq, p, wake_flags, &en_flags);
	ttwu_stat_smp(rq, p, (int)task_cpu(p), this_cpu);
	activate_task(rq, p, en_flags);
	success = 1;

out_running:
	check_preempt_curr(rq, p, wake_flags);
	p->state = TASK_RUNNING;
	if (p->sched_class->task_woken)		/* rt: push if it did not preempt */
		p->sched_class->task_woken(rq, p);
	if (unlikely(rq->idle_stamp))
		ttwu_idle_stamp(rq);
out:
	sched_verify_hook(rq);
	task_rq_unlock(rq, &flags);
	return success;
}

/*
 * Fork balancing for the new task P (2.6.35's wake_up_new_task(), its
 * CONFIG_SMP part): under its rq's lock and TASK_WAKING, the class picks
 * a CPU with SD_BALANCE_FORK and P is set there.  Done here and not in
 * sched_fork() because the mask may change in between.
 */
void sched_fork_balance(struct task *p)
{
	unsigned long flags;
	struct rq *rq;
	int cpu;

	rq = task_rq_lock(p, &flags);
	cpu = select_task_rq(p, SD_BALANCE_FORK, 0);
	set_task_cpu(p, (unsigned int)cpu);
	task_rq_unlock(rq, &flags);
}

/*
 * Move P from SRC_CPU to DEST_CPU if it is still on SRC_CPU and allowed
 * on DEST_CPU; a queued P is requeued there, a sleeping one is placed by
 * its next wakeup.  1 if done (or P had moved already), 0 if the mask no
 * longer allows it (2.6.35 __migrate_task).
 */
static int __migrate_task(struct task *p, int src_cpu, int dest_cpu)
{
	struct rq *rq_src = cpu_rq(src_cpu), *rq_dest = cpu_rq(dest_cpu);
	int ret = 0;

	if (unlikely(!cpu_online((unsigned int)dest_cpu)))
		return ret;
	double_rq_lock(rq_src, rq_dest);
	if (task_cpu(p) != (unsigned int)src_cpu)
		goto done;			/* already moved */
	if (!cpumask_test_cpu((unsigned int)dest_cpu, &p->cpus_allowed))
		goto fail;			/* the mask changed again */
	if (p->se.on_rq) {
		move_queued_task(rq_src, p, rq_dest);
	}
done:
	ret = 1;
fail:
	double_rq_unlock(rq_src, rq_dest);
	return ret;
}

/* Run in the stopper of P's CPU, where P cannot be running (2.6.35's
 * migration_cpu_stop). */
int migration_cpu_stop(void *data)
{
	struct migration_arg *arg = data;
	unsigned long flags;

	local_irq_save(flags);
	__migrate_task(arg->task, raw_smp_processor_id(), arg->dest_cpu);
	local_irq_restore(flags);
	return 0;
}

/*
 * Does moving P need its CPU's stopper?  Only if P is queued or running;
 * one that sleeps is placed by its next wakeup (2.6.35 migrate_task()).
 */
int migrate_task(struct task *p, int dest_cpu)
{
	(void)dest_cpu;
	return p->se.on_rq || task_running(task_rq(p), p);
}

/*
 * exec balancing (2.6.35 sched_exec()): the new program has no cache
 * footprint yet, so this is the cheapest moment to move current to the
 * CPU SD_BALANCE_EXEC finds idlest.  Its own CPU's stopper moves it.
 */
void sched_exec(void)
{
	struct task *p = current;
	unsigned long flags;
	struct rq *rq;
	int dest_cpu;

	if (static_branch_on(&sched_up_key))
		return;
	rq = task_rq_lock(p, &flags);
	dest_cpu = select_task_rq(p, SD_BALANCE_EXEC, 0);
	if (dest_cpu != raw_smp_processor_id() && migrate_task(p, dest_cpu)) {
		struct migration_arg arg = { p, dest_cpu };

		task_rq_unlock(rq, &flags);
		stop_one_cpu((unsigned int)cpu_of(rq), migration_cpu_stop, &arg);
		return;
	}
	task_rq_unlock(rq, &flags);
}

/*
 * P may run on NEW_MASK's CPUs from now on (2.6.35 set_cpus_allowed_ptr):
 * -EINVAL if no CPU of it is online, or for a kernel thread bound to its
 * CPU (kthread_bind: PF_THREAD_BOUND) unless it is the caller.  If P's CPU
 * is no longer allowed, a P that is queued or running is moved at once by
 * the stopper of its CPU, where it cannot be running (the caller sleeps
 * until it has; P = current included); a sleeping P is placed by its next
 * wakeup.  A wakeup in flight (TASK_WAKING, its rq unlocked) is waited
 * for, as it relies on the mask staying.
 */
int set_cpus_allowed_ptr(struct task *p, const struct cpumask *new_mask)
{
	unsigned long flags;
	struct rq *rq;
	int ret = 0;

again:
	while (READ_ONCE(p->state) == TASK_WAKING)
		cpu_relax();
	rq = task_rq_lock(p, &flags);
	if (p->state == TASK_WAKING) {
		task_rq_unlock(rq, &flags);
		goto again;
	}
	if (!cpumask_intersects(new_mask, cpu_online_mask) ||
	    ((p->flags & PF_THREAD_BOUND) && p != current &&
	     !cpumask_equal(&p->cpus_allowed, new_mask))) {
		ret = -EINVAL;
		goto out;
	}
	if (p->sched_class->set_cpus_allowed)	/* rt: migratory count, pushable list */
		p->sched_class->set_cpus_allowed(p, new_mask);
	else
		cpumask_copy(&p->cpus_allowed, new_mask);
	if (cpumask_test_cpu(task_cpu(p), new_mask))
		goto out;		/* its CPU is still allowed */

	struct cpumask allowed;
	cpumask_and(&allowed, new_mask, cpu_online_mask);
	struct migration_arg arg = { p, (int)cpumask_first(&allowed) };

	if (migrate_task(p, arg.dest_cpu)) {
		rq->migration_pending++;	/* P may stay outside its mask until then */
		task_rq_unlock(rq, &flags);
		stop_one_cpu((unsigned int)cpu_of(rq), migration_cpu_stop, &arg);
		raw_spin_lock_irqsave(&rq->lock, flags);
		rq->migration_pending--;
		raw_spin_unlock_irqrestore(&rq->lock, flags);
		return 0;
	}
out:
	task_rq_unlock(rq, &flags);
	return ret;
}
