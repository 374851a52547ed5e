/*
 * kernel/ktest.c - in-kernel fault tests, chosen with ktest=NAME.
 *
 * Each one provokes a fatal kernel event so the system tests can check the
 * Linux-style title, the register dump and the failing exit status:
 *	ud2       invalid opcode            -> BUG: invalid opcode in <eip>
 *	nullderef read of address 0         -> BUG: unable to handle kernel NULL pointer ...
 *	gpf       load of a bad selector    -> general protection fault
 *	div0      integer divide by zero    -> divide error
 *	bug       BUG_ON(1)                 -> kernel BUG at file:line!
 *	panic     panic("ktest")
 * and one that returns and lets the boot go on:
 *	smp       cross calls, IPIs and TLB shootdown on every CPU (kernel/ktest_smp.c)
 *	lockdep   each lock validator report once (lockdep=1; kernel/ktest_lockdep.c)
 */
#include <kernel/cmdline.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/ktest.h>

static char ktest_name[32];
DEFINE_KNOB_STRING(ktest, ktest_name, "", "in-kernel test to run at boot (ud2, nullderef, gpf, div0, bug, panic, smp, lockdep)");

static volatile int zero;

static void t_ud2(void)      { __asm__ __volatile__("ud2"); }
static void t_nullderef(void) { printk("read %d\n", *(volatile int *)(long)zero); }
static void t_gpf(void)      { __asm__ __volatile__("movw %0, %%ds" :: "r"((u16)0x5b)); }
static void t_div0(void)
{
	/* gcc turns 1/x into a compare, so divide in asm: edx:eax / 0 */
	__asm__ __volatile__("xorl %%edx, %%edx; divl %0" :: "r"(zero), "a"(1) : "edx");
}
static void t_bug(void)      { BUG_ON(zero == 0); }
static void t_panic(void)    { panic("ktest"); }

static const struct { const char *name; void (*fn)(void); int returns; } ktests[] = {
	{ "ud2", t_ud2, 0 }, { "nullderef", t_nullderef, 0 }, { "gpf", t_gpf, 0 },
	{ "div0", t_div0, 0 }, { "bug", t_bug, 0 }, { "panic", t_panic, 0 },
	{ "smp", ktest_smp, 1 }, { "lockdep", ktest_lockdep, 1 },
};

void ktest_run_late(void)
{
	if (!strcmp(ktest_name, "smp"))
		ktest_smp_cpu_stop();
}

void ktest_run(void)
{
	if (!ktest_name[0])
		return;
	for (size_t i = 0; i < ARRAY_SIZE(ktests); i++) {
		if (!strcmp(ktest_name, ktests[i].name)) {
			printk("ktest: running %s\n", ktests[i].name);
			ktests[i].fn();
			if (!ktests[i].returns)
				printk("ktest: %s returned (unexpected)\n", ktests[i].name);
			return;
		}
	}
	printk("ktest: unknown test '%s'\n", ktest_name);
}
