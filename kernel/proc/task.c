/*
 * kernel/proc/task.c - the task table: allocation, pids, kernel stacks.
 *
 * Kernel stacks live in their own 16 MiB window (KSTACK_AREA), one 16 KiB
 * slot per task: an unmapped 8 KiB guard below an 8 KiB stack.  A kernel
 * stack overflow therefore hits a not-present page instead of silently
 * overwriting the neighbouring task.  The window's page tables are shared
 * by every address space (arch/pgtable.h), so a stack mapped once is
 * visible everywhere.
 */
#include <kernel/errno.h>
#include <kernel/itimer.h>
#include <kernel/kmalloc.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/tlbflush.h>
#include <arch/irqflags.h>
#include <arch/pgtable.h>
#include <arch/process.h>

#define KSTACK_SLOT	(2 * KSTACK_SIZE)	/* guard + stack */
#define KSTACK_SLOTS	((KSTACK_AREA_END - KSTACK_AREA) / KSTACK_SLOT)

LIST_HEAD(task_list);
struct task *init_task;
static int nr_live;
static int next_pid = 1;
static u8 kstack_used[KSTACK_SLOTS];
static LIST_HEAD(dead_list);		/* self-reaping tasks waiting to be freed */

_Static_assert(KSTACK_SLOTS >= TASK_MAX, "kernel stack window too small");

extern u8 boot_stack_bottom[];

void proc_init(void)
{
	struct task *idle = sched_idle_task();

	arch_set_kstack(idle, boot_stack_bottom, 16384);
	strlcpy(idle->comm, "swapper", sizeof(idle->comm));
	INIT_LIST_HEAD(&idle->children);
	INIT_LIST_HEAD(&idle->thread_group);
	INIT_LIST_HEAD(&idle->sig_queue);
	INIT_LIST_HEAD(&idle->pi_state_list);
	idle->group_leader = idle;
	list_add_tail(&idle->tasks, &task_list);
}

static inline __attribute__((always_inline)) void *kstack_alloc(void)
{
	for (u32 slot = 0; slot < KSTACK_SLOTS; slot++) {
		if (kstack_used[slot])
			continue;
		u32 base = KSTACK_AREA + slot * KSTACK_SLOT + KSTACK_SIZE;
		for (u32 off = 0; off < KSTACK_SIZE; off += PAGE_SIZE) {
			u32 frame = alloc_frame();
			if (!frame) {
				for (u32 undo = 0; undo < off; undo += PAGE_SIZE) {
					pte_t *pte = pte_lookup(kernel_pgdir, base + undo, 0);
					free_frame(PTE_ADDR(*pte));
					*pte = 0;
				}
				flush_tlb_kernel_range(base, base + off);
				return NULL;
			}
			*pte_lookup(kernel_pgdir, base + off, 0) = frame | PTE_P | PTE_W;
		}
		kstack_used[slot] = 1;
		return (void *)base;
	}
	return NULL;
}

static inline __attribute__((always_inline)) void kstack_free(void *stack)
{
	u32 base = (u32)stack;

	for (u32 off = 0; off < KSTACK_SIZE; off += PAGE_SIZE) {
		pte_t *pte = pte_lookup(kernel_pgdir, base + off, 0);
		free_frame(PTE_ADDR(*pte));
		*pte = 0;
	}
	flush_tlb_kernel_range(base, base + KSTACK_SIZE);
	kstack_used[(base - KSTACK_AREA) / KSTACK_SLOT] = 0;
}

struct task *find_task_by_pid(int pid)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->pid == pid)
			return t;
	return NULL;
}

/* The pid handed out last (/proc/loadavg's last field). */
int last_pid(void)
{
	return next_pid - 1;
}

static int alloc_pid(void)
{
	for (int tries = 0; tries < PID_MAX; tries++) {
		int pid = next_pid++;
		if (next_pid >= PID_MAX)
			next_pid = 2;	/* pid 1 is init's forever */
		if (!find_task_by_pid(pid))
			return pid;
	}
	return -EAGAIN;
}

/* A zeroed task's kernel stack, empty lists, own group, start time, and no
 * alarm (copy_signal): what a new task and an idle task both start with. */
static inline void task_init(struct task *t, void *stack)
{
	arch_set_kstack(t, stack, KSTACK_SIZE);
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->sibling);
	INIT_LIST_HEAD(&t->thread_group);
	INIT_LIST_HEAD(&t->sig_queue);
	INIT_LIST_HEAD(&t->pi_state_list);
	t->group_leader = t;
	t->start_time = sched_clock();
	hrtimer_init(&t->real_timer, it_real_fn);
}

struct task *alloc_task(int *err)
{
	struct task *t;
	unsigned long flags;

	reap_dead_tasks();
	if (nr_live >= TASK_MAX) {
		*err = -EAGAIN;
		return NULL;
	}
	t = kzalloc(sizeof(*t));
	if (!t) {
		*err = -ENOMEM;
		return NULL;
	}
	void *stack = kstack_alloc();
	if (!stack) {
		kfree(t);
		*err = -ENOMEM;
		return NULL;
	}
	task_init(t, stack);
	rlimit_init(t->rlim);	/* init's; fork copies the parent's over them */
	local_irq_save(flags);
	t->pid = t->tgid = alloc_pid();
	list_add_tail(&t->tasks, &task_list);
	nr_live++;
	local_irq_restore(flags);
	return t;
}

void free_task(struct task *t)
{
	unsigned long flags;

	local_irq_save(flags);
	list_del(&t->tasks);
	nr_live--;
	local_irq_restore(flags);
	flush_sigqueue(t);	/* anything sent after it exited */
	kstack_free(t->kstack);
	kfree(t);
}

/*
 * The idle task of CPU (Linux's fork_idle(): copy_process() with pid 0,
 * then init_idle()): pid 0, "swapper", its own guarded kernel stack, the
 * kernel's page directory.  Like Linux's idle tasks it is on no task list
 * (/proc and kill() never see it) and never exits.  The boot CPU's idle
 * task is the boot context itself (sched_init, proc_init).
 */
struct task *fork_idle(unsigned int cpu)
{
	struct task *t = kzalloc(sizeof(*t));
	void *stack = t ? kstack_alloc() : NULL;

	if (!stack) {
		kfree(t);
		return NULL;
	}
	task_init(t, stack);
	INIT_LIST_HEAD(&t->tasks);
	t->state = TASK_RUNNING;
	t->prio = t->static_prio = t->normal_prio = DEFAULT_PRIO;
	strlcpy(t->comm, "swapper", sizeof(t->comm));
	return t;
}

/* Undo fork_idle() for a CPU that never came up. */
void free_idle(struct task *t)
{
	kstack_free(t->kstack);
	kfree(t);
}

/* Called on a task that has exited and that nobody will wait for. */
void task_autoreap(struct task *t)
{
	list_add_tail(&t->sibling, &dead_list);
}

/*
 * A dead task may be freed once it has switched away for the last time:
 * off the runqueue, not current here, and (more than one CPU online) not
 * on_cpu, set until the CPU it ran on has finished switching it out
 * (kernel/sched/core.c): until then that CPU is still on its stack.
 */
int task_switched_out(struct task *t)
{
	return t != current && !t->on_rq && !__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE);
}

/*
 * Free the dead tasks that have switched out.  They leave the list with
 * interrupts off; they are freed with interrupts as the caller had them,
 * on, since freeing a kernel stack shoots its mapping down on every CPU.
 */
void reap_dead_tasks(void)
{
	struct task *t, *n;
	unsigned long flags;
	LIST_HEAD(gone);

	local_irq_save(flags);
	list_for_each_entry_safe(t, n, &dead_list, sibling)
		if (task_switched_out(t))
			list_move_tail(&t->sibling, &gone);
	local_irq_restore(flags);
	list_for_each_entry_safe(t, n, &gone, sibling)
		free_task(t);
}

/* Tasks alive now (sysinfo's procs). */
int nr_tasks(void)
{
	return nr_live;
}
