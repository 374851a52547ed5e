/*
 * kernel/ktest_smp.c - ktest=smp: the cross-CPU machinery checked at boot,
 * on every online CPU (tests/system/test_smp.py reads the lines).
 *
 *  1. smp_call_function_single() to each online CPU, waiting: the function
 *     reports the CPU it ran on; the round trip in ns (sched_clock);
 *  2. on_each_cpu(): every online CPU, this one included, runs it once;
 *  3. smp_call_function_many() without waiting, to every other CPU: each
 *     runs it once (the caller polls a count, bounded);
 *  4. smp_send_reschedule() to each other CPU: its reschedule count grows;
 *  5. TLB shootdown: flush_tlb_mm() of a fresh mm that no other CPU has
 *     loaded sends no IPI; with another CPU switched to it (switch_mm: in
 *     its mm_cpumask), that CPU flushes (flush_tlb_mm, flush_tlb_range,
 *     and mm_dup()'s copy-on-write protect of the parent); made lazy
 *     (enter_lazy_tlb), it leaves the mm at the next shootdown and the one
 *     after sends nothing; flush_tlb_all() flushes every other CPU once;
 *  6. the giant kernel lock (kernel/smp_lock.c), held here: CPU 1, sent a
 *     call that takes it, waits for it in its IPI handler, interrupts off;
 *     a call to CPU 1 that this CPU waits for must still run there (a
 *     waiter runs its pending cross calls, or the two CPUs would wait for
 *     each other for ever: that failure hangs the boot), and once this CPU
 *     lets the lock go CPU 1 takes it;
 *  7. the leaf locks: CPU 1 without the giant lock and this CPU with it
 *     allocate, free and print at once, and every count and line is exact
 *     (kernel/ktest_leaf_locks.c).
 * Ends with "ktest: smp: passed" or "ktest: smp: FAILED (N checks)".
 * Waits are bounded (WAIT_NS of sched_clock), so a lost IPI fails a check
 * instead of hanging the boot.
 */
#include <kernel/ktest.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/stop_machine.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/tlbflush.h>
#include <kernel/vm.h>
#include <arch/barrier.h>
#include <arch/hardirq.h>
#include <arch/mmu_context.h>
#include <arch/pgtable.h>
#include <arch/tlbflush.h>

#define WAIT_NS		100000000ull	/* 100 ms */

static unsigned int failed;

static void check(int ok, const char *what)
{
	if (!ok) {
		failed++;
		printk("ktest: smp: check failed: %s\n", what);
	}
}

static void whoami(void *info)
{
	*(volatile int *)info = smp_processor_id();
}

static void count_cpu(void *info)
{
	__atomic_fetch_or((u32 *)info, 1u << smp_processor_id(), __ATOMIC_SEQ_CST);
}

/* Wait (bounded) until *WORD == WANT. */
static int wait_word(volatile u32 *word, u32 want)
{
	u64 end = sched_clock() + WAIT_NS;

	while (*word != want)
		if (sched_clock() > end)
			return 0;
		else
			cpu_relax();
	return 1;
}

static void call_single_each(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		volatile int ran = -1;
		u64 t0 = sched_clock();
		int err = smp_call_function_single((int)cpu, whoami, (void *)&ran, 1);
		u64 ns = sched_clock() - t0;

		printk("ktest: smp: call_function_single to CPU%u: ran on CPU%d, %llu ns round trip\n",
		       cpu, ran, ns);
		check(!err && ran == (int)cpu, "call_function_single ran on its CPU");
	}
}

static void call_many(u32 online)
{
	u32 seen = 0, others = online & ~(1u << smp_processor_id());

	on_each_cpu(count_cpu, &seen, 1);
	printk("ktest: smp: on_each_cpu: ran on CPUs 0x%x of online 0x%x\n", seen, online);
	check(seen == online, "on_each_cpu ran once on every online CPU");

	seen = 0;
	smp_call_function_many(cpu_online_mask, count_cpu, &seen, 0);
	check(wait_word(&seen, others), "call_function_many (no wait) reached every other CPU");
	printk("ktest: smp: call_function_many, no wait: ran on CPUs 0x%x, others 0x%x\n", seen, others);
}

static void resched_each(void)
{
	unsigned int cpu, taken = 0, others = num_online_cpus() - 1;

	for_each_online_cpu(cpu) {
		if (cpu == (unsigned int)smp_processor_id())
			continue;
		volatile unsigned int *n = &per_cpu(irq_stat, cpu).irq_resched_count;
		unsigned int before = *n;

		smp_send_reschedule((int)cpu);
		taken += wait_word(n, before + 1);
	}
	printk("ktest: smp: reschedule IPI taken by %u of %u other CPUs\n", taken, others);
	check(taken == others, "every other CPU took its reschedule IPI");
}

static unsigned int remote_flushes(void)
{
	unsigned int cpu, n = 0;

	for_each_online_cpu(cpu)
		if (cpu != (unsigned int)smp_processor_id())
			n += per_cpu(irq_stat, cpu).irq_tlb_count;
	return n;
}

/* What a task of MM switched in here does, and a kernel thread after it. */
static void use_mm(void *mm)
{
	switch_mm(this_cpu_read(cpu_tlbstate.active_mm), mm);
}

static void lazy_mm(void *unused)
{
	(void)unused;
	enter_lazy_tlb();
}

static void drop_mm(void *unused)
{
	(void)unused;
	if (this_cpu_read(cpu_tlbstate.active_mm))
		leave_mm();
}

/* An mm with one present writable page, at 0x08048000. */
static struct mm *mm_with_a_page(void)
{
	struct mm *mm = mm_create();

	if (mm && (!mm_map_fixed(mm, 0x08048000u, 0x0804a000u, VM_READ | VM_WRITE, NULL, 0, 0) ||
		   mm_fault(mm, 0x08048000u, 1))) {
		mm_put(mm);
		mm = NULL;
	}
	return mm;
}

/*
 * CPU TARGET runs a task of MM: each shootdown of MM flushes it, fork's
 * copy-on-write protect of MM's pages too; then a kernel thread runs
 * there (lazy): the next shootdown makes it leave MM, and the one after
 * passes it by.
 */
static void tlb_shootdown_remote(struct mm *mm, int target)
{
	unsigned int before, loaded, range, cow, lazy, after;
	struct mm *child;

	smp_call_function_single(target, use_mm, mm, 1);
	check(cpumask_test_cpu(target, mm_cpumask(mm)), "switch_mm set the CPU in mm_cpumask");
	before = remote_flushes();
	flush_tlb_mm(mm);
	loaded = remote_flushes() - before;
	flush_tlb_range(mm, 0x08048000u, 0x0804a000u);
	range = remote_flushes() - before - loaded;
	printk("ktest: smp: flush_tlb_mm: %u remote flushes with it loaded on CPU%d; "
	       "flush_tlb_range: %u\n", loaded, target, range);
	check(loaded == 1 && range == 1, "the CPU with the mm loaded flushed it");
	before = remote_flushes();
	child = mm_dup(mm);
	cow = remote_flushes() - before;
	if (child)
		mm_put(child);
	printk("ktest: smp: fork's copy-on-write protect: %u remote flushes\n", cow);
	check(child && cow == 1, "fork's write-protect of the parent flushed the other CPU");
	smp_call_function_single(target, lazy_mm, NULL, 1);
	before = remote_flushes();
	flush_tlb_mm(mm);
	lazy = remote_flushes() - before;
	before = remote_flushes();
	flush_tlb_mm(mm);
	after = remote_flushes() - before;
	printk("ktest: smp: lazy CPU%d: %u shootdown, %s the mm (CR3 %s), then %u\n",
	       target, lazy, cpumask_test_cpu(target, mm_cpumask(mm)) ? "still in" : "left",
	       per_cpu(cpu_tlbstate, target).loaded_pgdir == kernel_pgdir ? "the kernel's" : "its",
	       after);
	check(lazy == 1 && after == 0 && !cpumask_test_cpu(target, mm_cpumask(mm)) &&
	      per_cpu(cpu_tlbstate, target).loaded_pgdir == kernel_pgdir,
	      "a lazy CPU left the mm at the first shootdown");
	smp_call_function_single(target, drop_mm, NULL, 1);
}

static void tlb_shootdown(void)
{
	struct mm *mm = mm_with_a_page();
	unsigned int before, idle_mm, all, others = num_online_cpus() - 1;
	int target = (int)cpumask_any_but(cpu_online_mask, smp_processor_id());

	if (!mm) {
		check(0, "an mm for the TLB checks");
		return;
	}
	before = remote_flushes();
	flush_tlb_mm(mm);
	idle_mm = remote_flushes() - before;
	printk("ktest: smp: flush_tlb_mm: %u remote flushes with the mm loaded nowhere else\n", idle_mm);
	check(idle_mm == 0, "no IPI for an mm loaded nowhere else");
	if ((unsigned int)target < nr_cpu_ids)
		tlb_shootdown_remote(mm, target);
	before = remote_flushes();
	flush_tlb_all();
	all = remote_flushes() - before;
	printk("ktest: smp: flush_tlb_all: %u remote flushes, %u other CPUs\n", all, others);
	check(all == others, "flush_tlb_all flushed every other CPU once");
	mm_put(mm);
}

static volatile u32 giant_state;	/* CPU 1: 1 waiting, 2 took it and let it go */

static void take_giant(void *info)
{
	giant_state = 1;
	__lock_kernel();
	__unlock_kernel();
	giant_state = 2;
}

static void giant_lock_waiter(void)
{
	volatile int ran = -1;

	if (num_online_cpus() < 2) {
		printk("ktest: smp: giant lock: one CPU, never taken\n");
		return;
	}
	giant_state = 0;
	smp_call_function_single(1, take_giant, NULL, 0);
	check(wait_word(&giant_state, 1), "CPU1 never called the giant lock");
	smp_call_function_single(1, whoami, (void *)&ran, 1);
	check(ran == 1 && giant_state == 1, "the call while CPU1 waits for the giant lock");
	__unlock_kernel();		/* the boot context held it (smp_lock_init) */
	check(wait_word(&giant_state, 2), "CPU1 never took the giant lock");
	__lock_kernel();
	printk("ktest: smp: giant lock: CPU1 waiting for it ran a call on CPU%d, then took it\n", ran);
}

static volatile u32 stop_ran_on;	/* CPU + 1 the stopper work ran on */
static char stop_ran_in[16];

static int record_stopper(void *arg)
{
	strlcpy(stop_ran_in, current->comm, sizeof(stop_ran_in));
	stop_ran_on = (u32)smp_processor_id() + 1;
	return 0;
}

/*
 * 8. cpu_stop (kernel/stop_machine.c), once the stoppers exist (after pid
 * 1; ktest_run_late()): stop_one_cpu_nowait() to the last CPU runs there,
 * in its migration thread.  The boot context lets the giant lock go while
 * it polls: the stopper runs kernel code and holds it.
 */
void ktest_smp_cpu_stop(void)
{
	static struct cpu_stop_work work;
	unsigned int cpu = num_online_cpus() - 1;
	int ran;

	if (!cpu) {
		printk("ktest: smp: cpu_stop: one CPU, no stopper\n");
		return;
	}
	failed = 0;
	stop_ran_on = 0;
	stop_one_cpu_nowait(cpu, record_stopper, NULL, &work);
	__unlock_kernel();
	ran = wait_word(&stop_ran_on, cpu + 1);
	__lock_kernel();
	check(ran, "the stopper work ran on its CPU");
	printk("ktest: smp: cpu_stop: work for CPU%u ran on CPU%d in %s\n", cpu,
	       (int)stop_ran_on - 1, stop_ran_in[0] ? stop_ran_in : "(nothing)");
	printk("ktest: smp: cpu_stop: %s\n", failed ? "FAILED" : "passed");
}

void ktest_smp(void)
{
	u32 online = cpu_online_mask->bits;

	failed = 0;
	printk("ktest: smp: %u CPUs online (mask 0x%x), running on CPU%d\n",
	       num_online_cpus(), online, smp_processor_id());
	call_single_each();
	call_many(online);
	resched_each();
	tlb_shootdown();
	giant_lock_waiter();
	failed += ktest_smp_leaf_locks();
	if (failed)
		printk("ktest: smp: FAILED (%u checks)\n", failed);
	else
		printk("ktest: smp: passed\n");
}
