/*
 * tests/host/smp/test_lockdep.c - the lock validator's graph
 * (kernel/lockdep.c, compiled unchanged) on small made-up scenarios: each
 * report is provoked by the shortest sequence that should trigger it
 * (AB-BA, an ABC cycle, a recursive take, an irq-safe lock taken with irqs
 * on, a safe -> unsafe order either way round, an unlock of a lock not
 * held, a lock held on the way to user mode, a held-lock stack overflow),
 * and the same locks taken in a consistent order report nothing.  The
 * report text is captured from printk and checked line by line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/lockdep.h>
#include <kernel/printk.h>

static char out[16384];
static size_t out_len;

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_len += (size_t)n < sizeof(out) - out_len ? (size_t)n : sizeof(out) - out_len - 1;
	return n;
}

void lockdep_print_ip(unsigned long ip)
{
	printk("[<%08lx>]\n", ip);
}

void lockdep_print_who(void)
{
	printk("test/7");
}

static struct lockdep_cpu cpu;
/* Static locks: the key is the map itself, as a static lock's address. */
static struct lockdep_map A, B, C, D;

static int setup(void **state)
{
	lockdep_reset();
	memset(&cpu, 0, sizeof(cpu));
	lockdep_init_map(&A, "lock_a", &A);
	lockdep_init_map(&B, "lock_b", &B);
	lockdep_init_map(&C, "lock_c", &C);
	lockdep_init_map(&D, "lock_d", &D);
	out_len = 0;
	out[0] = 0;
	return 0;
}

/* irqs off, in process context: the plain case of spin_lock_irqsave */
static void lock(struct lockdep_map *m, unsigned long ip) { __lock_acquire(&cpu, m, 0, 0, ip); }
static void unlock(struct lockdep_map *m) { __lock_release(&cpu, m, 0xdead); }

/* what a hard-irq handler does: take M and drop it */
static void irq_take(struct lockdep_map *m, unsigned long ip)
{
	__lockdep_hardirq_enter(&cpu);
	lock(m, ip);
	unlock(m);
	__lockdep_hardirq_exit(&cpu);
}

static void assert_out_has(const char *s)
{
	if (!strstr(out, s))
		fail_msg("expected \"%s\" in:\n%s", s, out);
}

static void assert_clean(void)
{
	assert_int_equal(out_len, 0);
	assert_int_equal(debug_locks, 1);
	assert_int_equal(lockdep_stats.nr_reports, 0);
}

/* Nested in one order, many times, with irqs off: no report; the edges are
 * counted once each. */
static void test_consistent_order(void **state)
{
	for (int i = 0; i < 3; i++) {
		lock(&A, 0x1);
		lock(&B, 0x2);
		lock(&C, 0x3);
		unlock(&C);
		unlock(&B);
		unlock(&A);
		lock(&A, 0x4);
		lock(&C, 0x5);
		unlock(&A);		/* out of order is allowed */
		unlock(&C);
	}
	assert_clean();
	assert_int_equal(lockdep_stats.nr_classes, 3);
	assert_int_equal(lockdep_stats.nr_dependencies, 3);	/* A->B, B->C, A->C */
	assert_int_equal(lockdep_stats.max_depth, 3);
	assert_int_equal(cpu.depth, 0);
	assert_string_equal(lockdep_class_name(&B), "lock_b");
}

static void test_ab_ba(void **state)
{
	lock(&A, 0xc0100010);
	lock(&B, 0xc0100020);
	unlock(&B);
	unlock(&A);
	assert_clean();
	lock(&B, 0xc0100030);
	lock(&A, 0xc0100040);
	assert_out_has("[ INFO: possible circular locking dependency detected ]\n");
	assert_out_has("test/7 is trying to acquire lock:\n (lock_a){.}, at: [<c0100040>]\n");
	assert_out_has("but task is already holding lock:\n (lock_b){.}, at: [<c0100030>]\n");
	/* the old order, A then B, and the new one, B then A, with both places */
	assert_out_has("-> #1 (lock_b){.}:\n       [<c0100020>]\n       while holding (lock_a){.} taken at [<c0100010>]\n");
	assert_out_has("-> #0 (lock_a){.}:\n       [<c0100040>]\n       while holding (lock_b){.} taken at [<c0100030>]\n");
	assert_out_has("1 lock held by test/7:\n #0:  (lock_b){.}, at: [<c0100030>]\n");
	assert_int_equal(debug_locks, 0);
	assert_int_equal(lockdep_stats.nr_reports, 1);
	/* off: the same again, and anything else, is not reported twice */
	out_len = 0;
	unlock(&A);
	unlock(&B);
	lock(&B, 0x1);
	lock(&A, 0x2);
	assert_int_equal(out_len, 0);
}

/* A->B, B->C, then C->A: the chain printed goes A->B->C back to the new C->A. */
static void test_abc_cycle(void **state)
{
	lock(&A, 0xa1); lock(&B, 0xb1); unlock(&B); unlock(&A);
	lock(&B, 0xb2); lock(&C, 0xc2); unlock(&C); unlock(&B);
	assert_clean();
	lock(&C, 0xc3);
	lock(&A, 0xa3);
	assert_out_has("possible circular locking dependency detected");
	assert_out_has("-> #2 (lock_c){.}:\n       [<000000c2>]\n       while holding (lock_b){.} taken at [<000000b2>]\n"
		       "\n-> #1 (lock_b){.}:\n       [<000000b1>]\n       while holding (lock_a){.} taken at [<000000a1>]\n"
		       "\n-> #0 (lock_a){.}:\n       [<000000a3>]\n       while holding (lock_c){.} taken at [<000000c3>]\n");
}

static void test_recursive(void **state)
{
	struct lockdep_map a2;

	lockdep_init_map(&a2, "lock_a", &A);	/* another lock of A's class */
	lock(&A, 0x10);
	lock(&a2, 0x20);
	assert_out_has("[ INFO: possible recursive locking detected ]\n");
	assert_out_has("is trying to acquire lock:\n (lock_a){.}, at: [<00000020>]\n");
	assert_out_has("already holding lock:\n (lock_a){.}, at: [<00000010>]\n");
}

/*
 * Two locks of one class taken one inside the other in a fixed order (two
 * runqueues by address): the inner one as subclass 1 (spin_lock_nested,
 * SINGLE_DEPTH_NESTING) is a class of its own, so no report, and the same
 * again is still clean; its own order reversed, (A/1 then A), is a cycle.
 */
static void test_nested_subclass(void **state)
{
	struct lockdep_map a2;

	lockdep_init_map(&a2, "lock_a", &A);
	for (int i = 0; i < 2; i++) {
		lock(&A, 0x10);
		__lock_acquire_nested(&cpu, &a2, 1, 0, 0, 0x20);
		unlock(&a2);
		unlock(&A);
	}
	assert_clean();
	assert_int_equal(lockdep_stats.nr_classes, 2);
	__lock_acquire_nested(&cpu, &a2, 1, 0, 0, 0x30);
	lock(&A, 0x40);
	assert_out_has("[ INFO: possible circular locking dependency detected ]\n");
	assert_out_has("(lock_a/1){.}");
}

/* A is taken in a hard irq, then with irqs on elsewhere. */
static void test_inconsistent_irq(void **state)
{
	irq_take(&A, 0x100);
	lock(&A, 0x200);		/* spin_lock_irqsave: irqs off, fine */
	unlock(&A);
	assert_clean();
	__lock_acquire(&cpu, &A, 0, 1, 0x300);	/* spin_lock with irqs on */
	assert_out_has("[ INFO: inconsistent lock state ]\n");
	assert_out_has("inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.\n");
	assert_out_has("test/7 [HC0[0]] takes:\n (lock_a){?}, at: [<00000300>]\n");
	assert_out_has("{IN-HARDIRQ-W} state was registered at:\n  [<00000100>]\n");
}

/* The other way round: taken with irqs on first, then in an irq. */
static void test_inconsistent_irq_reverse(void **state)
{
	__lock_acquire(&cpu, &A, 0, 1, 0x300);
	unlock(&A);
	__lockdep_hardirq_enter(&cpu);
	lock(&A, 0x100);
	assert_out_has("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.\n");
	assert_out_has("test/7 [HC1[1]] takes:\n");
}

/* A is irq-safe, B irq-unsafe; taking B under A is the report. */
static void test_safe_to_unsafe(void **state)
{
	irq_take(&A, 0x100);
	__lock_acquire(&cpu, &B, 0, 1, 0x200);
	unlock(&B);
	assert_clean();
	lock(&A, 0x300);
	lock(&B, 0x400);
	assert_out_has("[ INFO: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected ]\n");
	assert_out_has("which would create a new lock dependency:\n (lock_a){+} -> (lock_b){-}\n");
	assert_out_has("HARDIRQ-irq-safe lock:\n (lock_a){+}\n... which became HARDIRQ-irq-safe at:\n  [<00000100>]\n");
	assert_out_has("HARDIRQ-irq-unsafe lock:\n (lock_b){-}\n... which became HARDIRQ-irq-unsafe at:\n  [<00000200>]\n");
}

/* The order through a third lock: A (safe) -> C, C -> B (unsafe). */
static void test_safe_to_unsafe_indirect(void **state)
{
	irq_take(&A, 0x100);
	lock(&C, 0x1); __lock_acquire(&cpu, &B, 0, 1, 0x200); unlock(&B); unlock(&C);
	assert_clean();
	lock(&A, 0x300);
	lock(&C, 0x400);
	assert_out_has("HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	assert_out_has(" (lock_a){+} -> (lock_c){.}\n");
	assert_out_has("HARDIRQ-irq-unsafe lock:\n (lock_b){-}\n");
}

/* The order first (A -> B), the usage later: B unsafe, then A taken in an irq. */
static void test_irq_inversion_late(void **state)
{
	lock(&A, 0x1); lock(&B, 0x2); unlock(&B); unlock(&A);
	__lock_acquire(&cpu, &B, 0, 1, 0x3); unlock(&B);
	assert_clean();
	__lockdep_hardirq_enter(&cpu);
	lock(&A, 0x4);
	assert_out_has("[ INFO: possible irq lock inversion dependency detected ]\n");
	assert_out_has("just changed the state of lock:\n (lock_a){+}, at: [<00000004>]\n");
	assert_out_has("HARDIRQ-unsafe lock in the past:\n (lock_b){-}\n");
}

/* A lock the irq takes under nothing, while process context holds another:
 * not an order (different irq contexts), no report. */
static void test_irq_context_no_edge(void **state)
{
	lock(&B, 0x1);
	__lockdep_hardirq_enter(&cpu);
	lock(&A, 0x2);
	unlock(&A);
	__lockdep_hardirq_exit(&cpu);
	unlock(&B);
	lock(&A, 0x3);
	lock(&B, 0x4);
	unlock(&B);
	unlock(&A);
	assert_clean();
	assert_int_equal(lockdep_stats.nr_dependencies, 1);
}

static void test_trylock(void **state)
{
	lock(&A, 0x1);
	__lock_acquire(&cpu, &B, 1, 0, 0x2);	/* a trylock cannot wait: no A -> B */
	unlock(&B);
	unlock(&A);
	assert_int_equal(lockdep_stats.nr_dependencies, 0);
	lock(&B, 0x3);
	lock(&A, 0x4);
	unlock(&A);
	unlock(&B);
	assert_clean();
}

static void test_unlock_not_held(void **state)
{
	lock(&A, 0x1);
	__lock_release(&cpu, &B, 0xc0105555);
	assert_out_has("[ BUG: bad unlock balance detected! ]\n");
	assert_out_has("test/7 is trying to release lock\n (lock_b) at:\n[<c0105555>]\n"
		       "but there are no more locks to release!\n");
}

static void test_held_to_user(void **state)
{
	__lockdep_sys_exit(&cpu);
	assert_clean();
	lock(&A, 0x1);
	__lockdep_sys_exit(&cpu);
	assert_out_has("[ BUG: lock held when returning to user space! ]\n");
	assert_out_has("test/7 is leaving the kernel with locks still held!\n");
	assert_out_has("1 lock held by test/7:\n #0:  (lock_a){.}, at: [<00000001>]\n");
}

/* More than MAX_LOCK_DEPTH classes nested: one line, then the validator is off. */
static void test_depth_overflow(void **state)
{
	static struct lockdep_map m[MAX_LOCK_DEPTH + 1];

	for (int i = 0; i <= MAX_LOCK_DEPTH; i++) {
		lockdep_init_map(&m[i], "nested", &m[i]);
		lock(&m[i], (unsigned long)i);
	}
	assert_string_equal(out, "BUG: MAX_LOCK_DEPTH too low!\nturning off the locking correctness validator.\n");
	assert_int_equal(debug_locks, 0);
	assert_int_equal(cpu.depth, MAX_LOCK_DEPTH);
}

/* lockdep_reset() forgets the graph even for maps that cached a class:
 * after it, B then A is a first order, and A then B the inversion. */
static void test_reset_forgets(void **state)
{
	lock(&A, 0x1); lock(&B, 0x2); unlock(&B); unlock(&A);
	lockdep_reset();
	lock(&B, 0x3); lock(&A, 0x4); unlock(&A); unlock(&B);
	assert_clean();
	lock(&A, 0x5);
	lock(&B, 0x6);
	assert_out_has("possible circular locking dependency detected");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_consistent_order, setup),
		cmocka_unit_test_setup(test_ab_ba, setup),
		cmocka_unit_test_setup(test_abc_cycle, setup),
		cmocka_unit_test_setup(test_recursive, setup),
		cmocka_unit_test_setup(test_nested_subclass, setup),
		cmocka_unit_test_setup(test_inconsistent_irq, setup),
		cmocka_unit_test_setup(test_inconsistent_irq_reverse, setup),
		cmocka_unit_test_setup(test_safe_to_unsafe, setup),
		cmocka_unit_test_setup(test_safe_to_unsafe_indirect, setup),
		cmocka_unit_test_setup(test_irq_inversion_late, setup),
		cmocka_unit_test_setup(test_irq_context_no_edge, setup),
		cmocka_unit_test_setup(test_trylock, setup),
		cmocka_unit_test_setup(test_unlock_not_held, setup),
		cmocka_unit_test_setup(test_held_to_user, setup),
		cmocka_unit_test_setup(test_depth_overflow, setup),
		cmocka_unit_test_setup(test_reset_forgets, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
