/*
 * tests/host/sched/test_fork.c - kernel/proc/fork.c's do_fork(), compiled
 * unchanged with the scheduler, under fakes for the allocator, the mm, the
 * signal state and the arch hooks:
 *   - the order of Linux 2.6.35's copy_process(): sched_fork() (and so
 *     task_fork_fair's placement) runs BEFORE the mm is copied, and
 *     wake_up_new_task() at the end, so the parent's run time across the
 *     copy is charged between the two.  The fake mm_dup() advances the
 *     clock by COPY_NS to make that time visible;
 *   - the bad_fork_* unwinding: each failure point undoes exactly what was
 *     set up before it and queues nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include "../../../kernel/sched/sched.h"
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <kernel/vm.h>
#include <arch/process.h>

#define RQ	this_rq()
#define CFS	(&this_rq()->cfs)
#define COPY_NS	200000ULL	/* what the fake mm_dup() "costs" the parent */

/* ---- fakes of what do_fork() calls outside the scheduler ---- */
static struct {
	int fail_alloc, fail_mm, fail_files, fail_sig, fail_tls;	/* make that step fail */
	int frees, mm_dups, mm_puts, sig_allocs, sig_puts, files, files_puts;
} f;
static struct mm parent_mm, child_mm;
static struct signal_state parent_sig, child_sig;

struct task *alloc_task(int *err)
{
	struct task *t;

	if (f.fail_alloc) {
		*err = -EAGAIN;
		return NULL;
	}
	t = task_alloc("child");
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->sibling);
	INIT_LIST_HEAD(&t->thread_group);
	t->group_leader = t;
	return t;
}

void free_task(struct task *t)
{
	assert_false(t->se.on_rq);		/* never queued */
	f.frees++;
}

struct mm *mm_dup(struct mm *old)
{
	f.mm_dups++;
	fake_clock_advance(COPY_NS);		/* the parent runs the copy */
	if (f.fail_mm)
		return NULL;
	child_mm.users = 1;
	return &child_mm;
}

void mm_get(struct mm *mm) { mm->users++; }
void mm_put(struct mm *mm) { mm->users--; f.mm_puts++; }

struct signal_state *signal_state_alloc(const struct signal_state *copy)
{
	if (f.fail_sig)
		return NULL;
	f.sig_allocs++;
	child_sig.count = 1;
	return &child_sig;
}

void signal_state_put(struct signal_state *s)
{
	s->count--;
	f.sig_puts++;
}

int copy_files(struct task *p, u32 clone_flags)
{
	if (f.fail_files)
		return -ENOMEM;
	f.files++;
	return 0;
}

void exit_files(struct task *t)
{
	f.files_puts++;
}

void arch_set_pgdir(struct task *t, u32 pgdir) { }
long vfork_wait(struct task *p) { fail(); return 0; }	/* no CLONE_VFORK here */
void arch_fork_child(struct task *child, const struct trap_frame *tf, u32 newsp) { }

int arch_fork_settls(struct task *child, u32 uinfo)
{
	return f.fail_tls ? -EINVAL : 0;
}

/* ---- set-up ---- */

/* One nice-0 process running alone; its clock charged up to now. */
static struct task *parent_alone(const char *features)
{
	struct task *p;

	memset(&f, 0, sizeof(f));
	if (features)
		knob_set_ok("sched_features", features);
	p = spawn("parent", 0);
	resched_if_needed();
	assert_ptr_equal(current, p);
	ticks(3);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->thread_group);
	p->group_leader = p;
	p->parent = p;
	parent_mm.users = 1;
	p->mm = &parent_mm;
	parent_sig.count = 1;
	p->sig = &parent_sig;
	update_rq_clock(RQ);
	update_curr(CFS);
	return p;
}

static struct task *child_of(struct task *parent)
{
	return list_entry(parent->children.prev, struct task, sibling);
}

/* ---- ordering ---- */

/*
 * NO_START_DEBIT: the child starts at the parent's vruntime as it was when
 * the copy began; the parent is charged the copy afterwards, so at
 * wake_up_new_task it leads the child by exactly COPY_NS (a nice-0 ns is a
 * vruntime ns).  Had sched_fork() run after the copy, the two would be equal.
 */
static void test_fork_places_child_before_copy(void **state)
{
	struct task *p = parent_alone("NO_START_DEBIT"), *c;
	u64 v0 = p->se.vruntime;
	long pid;

	pid = do_fork(17 /* SIGCHLD */, 0, 0, 0, 0, NULL);
	assert_true(pid > 0);
	c = child_of(p);
	assert_int_equal(c->pid, pid);
	assert_true(c->se.on_rq);
	assert_int_equal(c->se.vruntime, v0);
	assert_int_equal(p->se.vruntime, v0 + COPY_NS);
	/* 0.2 ms behind is less than wakeup_gran (1 ms): no preemption */
	assert_false(p->need_resched);
	assert_int_equal(f.mm_dups, 1);
	assert_int_equal(f.frees, 0);
}

/*
 * START_DEBIT (the default): the child is placed one vslice past
 * min_vruntime as it was before the copy: 6 ms * 1024/2048 (two tasks
 * counted), which calc_delta_mine's lazy inverse of 2048,
 * 1 + (2^32-1 - 1024)/2049 = 2096128, makes 2998535 ns.  The parent,
 * charged COPY_NS since, runs that minus 0.2 ms more before the child is
 * leftmost.
 */
static void test_fork_start_debit_before_copy(void **state)
{
	struct task *p = parent_alone(NULL), *c;
	u64 v0 = p->se.vruntime;

	assert_true(do_fork(17, 0, 0, 0, 0, NULL) > 0);
	c = child_of(p);
	assert_int_equal(c->se.vruntime, v0 + 2998535);
	assert_int_equal(p->se.vruntime, v0 + COPY_NS);
	assert_int_equal(c->se.vruntime - p->se.vruntime, 2998535 - COPY_NS);
}

/* ---- unwinding ---- */

static void check_nothing_left(struct task *p, int nr_running, int frees)
{
	assert_true(list_empty(&p->children));
	assert_true(list_empty(&p->thread_group));
	assert_int_equal(CFS->nr_running, nr_running);
	assert_int_equal(f.frees, frees);
	assert_int_equal(parent_mm.users, 1);
	assert_int_equal(parent_sig.count, 1);
}

static void test_fork_unwinds_each_failure(void **state)
{
	struct task *p = parent_alone(NULL);
	int nr = (int)CFS->nr_running;

	f.fail_alloc = 1;
	assert_int_equal(do_fork(17, 0, 0, 0, 0, NULL), -EAGAIN);
	check_nothing_left(p, nr, 0);
	f.fail_alloc = 0;

	f.fail_mm = 1;					/* bad_fork_cleanup_links */
	assert_int_equal(do_fork(17, 0, 0, 0, 0, NULL), -ENOMEM);
	check_nothing_left(p, nr, 1);
	assert_int_equal(f.mm_puts, 0);
	f.fail_mm = 0;

	f.fail_files = 1;				/* bad_fork_cleanup_mm */
	assert_int_equal(do_fork(17, 0, 0, 0, 0, NULL), -ENOMEM);
	check_nothing_left(p, nr, 2);
	assert_int_equal(child_mm.users, 0);
	assert_int_equal(f.files_puts, 0);
	f.fail_files = 0;

	f.fail_sig = 1;					/* bad_fork_cleanup_files */
	assert_int_equal(do_fork(17, 0, 0, 0, 0, NULL), -ENOMEM);
	check_nothing_left(p, nr, 3);
	assert_int_equal(child_mm.users, 0);
	assert_int_equal(f.sig_puts, 0);
	assert_int_equal(f.files_puts, 1);
	f.fail_sig = 0;

	f.fail_tls = 1;					/* bad_fork_cleanup_signal */
	assert_int_equal(do_fork(17 | CLONE_SETTLS, 0, 0, 1, 0, NULL), -EINVAL);
	check_nothing_left(p, nr, 4);
	assert_int_equal(child_sig.count, 0);
	assert_int_equal(child_mm.users, 0);
	assert_int_equal(f.files_puts, 2);
	f.fail_tls = 0;

	/* a thread: shared mm and signal state get their references back */
	assert_int_equal(do_fork(CLONE_VM | CLONE_SIGHAND | CLONE_THREAD |
				 CLONE_PARENT_SETTID, 0, 0, 0, 0, NULL), -EFAULT);
	check_nothing_left(p, nr, 5);
	assert_int_equal(f.files_puts, 3);

	/* and a good fork still works afterwards */
	assert_true(do_fork(17, 0, 0, 0, 0, NULL) > 0);
	assert_int_equal(CFS->nr_running, nr + 1);
	assert_int_equal(f.frees, 5);
	assert_int_equal(f.files, 4);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, sched_test_setup, sched_test_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_fork_places_child_before_copy),
		T(test_fork_start_debit_before_copy),
		T(test_fork_unwinds_each_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
