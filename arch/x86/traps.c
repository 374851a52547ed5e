/*
 * arch/x86/traps.c - the C side of every trap: CPU exceptions and hardware
 * interrupts (the syscall gate has its own stub, straight into do_syscall).
 *
 * An exception prints a Linux-style title and register dump (__show_regs
 * layout of Linux/i386).  In kernel mode that is fatal:
 *	Kernel panic - not syncing: Fatal exception
 * In user mode the portable layer decides (user_exception(): signal/kill).
 * A fault on the way back to user mode caused by a user-supplied selector
 * is no oops either (fixup_user_return): a data selector that does not
 * load silently becomes the null selector, a bad cs/ss at the iret is
 * SIGILL - both as Linux 2.6.35 i386.
 */
#include <kernel/printk.h>
#include <kernel/entry.h>
#include <kernel/hrtimer.h>
#include <kernel/interrupt.h>
#include <kernel/kernel_stat.h>
#include <kernel/lockdep.h>
#include <kernel/signal_nr.h>
#include <kernel/string.h>
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/task.h>
#include <arch/cpu.h>
#include <arch/hardirq.h>
#include <arch/irq.h>
#include <arch/irqflags.h>
#include <arch/process.h>
#include <arch/segment.h>

/* entry.asm: the user-frame reload instructions, and where to go after one faults. */
extern const char __ret_user_gs[], __ret_user_fs[], __ret_user_es[], __ret_user_ds[],
	__ret_user_iret[];
__attribute__((noreturn)) void ret_from_bad_user_frame(struct trap_frame *utf);

static irq_handler_t irq_handlers[16];
static irq_handler_t vector_handlers[256];
DEFINE_PER_CPU(struct irq_cpustat, irq_stat);	/* <arch/hardirq.h> */
DEFINE_PER_CPU(struct trap_frame *, irq_regs);	/* <arch/irq_regs.h> */

/* CPU's interrupts with no IRQ line, for /proc/stat's intr total (Linux
 * 2.6.35's arch_irq_stat_cpu: LOC, SPU, and with SMP RES, CAL, TLB). */
u64 arch_irq_stat_cpu(int cpu)
{
	const struct irq_cpustat *s = &per_cpu(irq_stat, cpu);

	return (u64)s->apic_timer_irqs + s->irq_spurious_count + s->irq_resched_count +
	       s->irq_call_count + s->irq_tlb_count;
}

void request_irq(int irq, irq_handler_t handler)
{
	irq_handlers[irq] = lockdep_irq_handler(IRQ0_VECTOR + irq, handler);
	pic_unmask(irq);
}

void set_vector_handler(int vector, irq_handler_t handler)
{
	vector_handlers[vector] = lockdep_irq_handler(vector, handler);
}

static const char *const exception_names[32] = {
	"divide error", "debug", "nmi", "int3", "overflow", "bounds",
	"invalid opcode", "device not available", "double fault",
	"coprocessor segment overrun", "invalid TSS", "segment not present",
	"stack segment", "general protection fault", "page fault", "reserved",
	"coprocessor error", "alignment check", "machine check",
	"simd exception", "virtualization exception", "control protection",
};

/* Linux signal for each exception taken in user mode. */
static int exception_signal(u32 v)
{
	switch (v) {
	case 0: case 16: case 19: return SIGFPE;
	case 1: case 3: return SIGTRAP;
	case 6: return SIGILL;
	case 14: return SIGSEGV;
	case 17: return SIGBUS;
	default: return SIGSEGV;	/* #GP, #SS, #NP, bounds ... */
	}
}

void show_regs(const struct trap_frame *tf)
{
	u32 esp = user_mode(tf) ? tf->useresp : (u32)&tf->useresp;
	u32 ss = user_mode(tf) ? tf->ss : __KERNEL_DS;

	printk("EIP: %04x:[<%08x>] EFLAGS: %08x CPU: %d\n", tf->cs & 0xffff, tf->eip, tf->eflags,
	       smp_processor_id());
	printk("EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n", tf->eax, tf->ebx, tf->ecx, tf->edx);
	printk("ESI: %08x EDI: %08x EBP: %08x ESP: %08x\n", tf->esi, tf->edi, tf->ebp, esp);
	printk(" DS: %04x ES: %04x FS: %04x GS: %04x SS: %04x\n",
	       tf->ds & 0xffff, tf->es & 0xffff, tf->fs & 0xffff, tf->gs & 0xffff, ss & 0xffff);
	printk("CR0: %08x CR2: %08x CR3: %08x CR4: %08x\n", read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

/* The oops title, one line, as Linux words it. */
static void print_title(const struct trap_frame *tf, u32 cr2)
{
	u32 v = tf->vector;

	switch (v) {
	case 6:
		printk("BUG: invalid opcode in %08x\n", tf->eip);
		break;
	case 14:
		printk("BUG: unable to handle kernel %s at %08x\n",
		       cr2 < 4096 ? "NULL pointer dereference" : "paging request", cr2);
		printk("page fault at %08x ip %08x error %x (%s %s, %s page)\n", cr2, tf->eip,
		       tf->error, tf->error & 4 ? "user" : "kernel",
		       tf->error & 2 ? "write" : "read",
		       tf->error & 1 ? "protection fault on a present" : "not-present");
		break;
	default:
		printk("%s: %04x [#1]\n", v < 32 && exception_names[v] ? exception_names[v] : "exception",
		       tf->error & 0xffff);
		break;
	}
}

/*
 * A #GP/#NP/#SS in ring 0 at one of ret_from_trap's "pop gs/fs/es/ds" or
 * its iret, while that instruction was consuming the current task's user
 * frame: a selector from user space (a sigcontext, a TLS entry cleared or
 * never set) does not load.  Linux 2.6.35 i386, and so Granule:
 *  - pop gs/fs/es/ds (RESTORE_REGS / POP_GS exception-table fixups): the
 *    saved selector that faulted becomes 0, the null selector, the others
 *    are kept, and the exit runs again.  No message, no signal: the task
 *    just finds that register null.  Each retry nulls one more selector
 *    and a null data selector always loads, so at most four rounds.
 *  - iret (cs or ss from a sigcontext; RPL 3 forced, so only a selector
 *    the CPU refuses): SIGILL, silently, as Linux's iret_exc ->
 *    do_iret_error (si_code ILL_BADSTK, no log line on i386).  The frame
 *    keeps the bad cs/ss: the signal frame shows them and a handler runs
 *    on __USER_CS/__USER_DS; without a handler SIGILL kills the process.
 * No return in either case.
 *
 * Which frame: a ring-0 fault pushes no esp, so the old esp is
 * (u32)&tf->useresp: the faulting pop's operand (&utf->gs .. &utf->ds) or
 * the iret frame (&utf->eip).  This fault's own frame overlaps the
 * already-consumed low part of utf, so the user's general registers and
 * the selectors already loaded come from TF (popa and the pops had
 * restored them, the entry stub saved them again), the rest (at and above
 * the old esp, intact) from utf.
 */
static void fixup_user_return(struct trap_frame *tf)
{
	struct trap_frame *utf = task_pt_regs(current), f;
	u32 old_sp = (u32)&tf->useresp, v = tf->vector, ip = tf->eip, seg;

	if (v != 11 && v != 12 && v != 13)
		return;
	if (ip == (u32)__ret_user_gs)
		seg = 0;
	else if (ip == (u32)__ret_user_fs)
		seg = 1;
	else if (ip == (u32)__ret_user_es)
		seg = 2;
	else if (ip == (u32)__ret_user_ds)
		seg = 3;
	else if (ip == (u32)__ret_user_iret)
		seg = 4;
	else
		return;
	if (old_sp != (seg < 4 ? (u32)&utf->gs + 4 * seg : (u32)&utf->eip) || !user_mode(utf))
		return;
	memcpy(&f, tf, offsetof(struct trap_frame, gs));	/* pusha block */
	f.gs = seg > 0 ? tf->gs : 0;
	f.fs = seg > 1 ? tf->fs : seg == 1 ? 0 : utf->fs;
	f.es = seg > 2 ? tf->es : seg == 2 ? 0 : utf->es;
	f.ds = seg > 3 ? tf->ds : seg == 3 ? 0 : utf->ds;
	f.vector = v;		/* no longer a syscall return: never restarted */
	f.error = tf->error;
	f.eip = utf->eip;
	f.cs = utf->cs;
	f.eflags = utf->eflags;
	f.useresp = utf->useresp;
	f.ss = utf->ss;
	if (seg == 4)
		force_sig(SIGILL);
	*utf = f;		/* overwrites TF: from here on only utf exists */
	ret_from_bad_user_frame(utf);
}

static void do_exception(struct trap_frame *tf)
{
	u32 v = tf->vector;
	u32 cr2 = v == 14 ? read_cr2() : 0;

	if (user_mode(tf)) {
		local_irq_enable();
		if (v != 14 || user_page_fault(cr2, tf->error & 2) != 0)
			user_exception(exception_signal(v), exception_names[v] ? exception_names[v] : "trap",
				       tf->eip, tf->useresp, cr2, tf->error);
		local_irq_disable();
		return;
	}
	fixup_user_return(tf);	/* returns only if it is not that case */
	print_title(tf, cr2);
	show_regs(tf);
	panic("Fatal exception");
}

/*
 * Whether this trap takes the giant kernel lock (<kernel/smp_lock.h>), on a
 * CPU whose task does not hold it, from user mode or the kernel alike:
 * exceptions (a fault works on the mm, a signal), the 8259's device
 * interrupts and the boot CPU's periodic tick (highres=off: jiffies and the
 * due timers, run straight from the tick).  Not the IPIs, whose handlers
 * keep to their own locks, nor a one-shot local APIC timer, whose callbacks
 * take it only if they need it (__hrtimer_run_queues()), nor an AP's tick;
 * the way back to user mode takes it only to deliver a signal
 * (exit_to_caller_smp()).  1 if it took it here: trap_dispatch_smp() then
 * lets it go on the way back to the kernel code it interrupted.
 */
static int trap_lock_kernel(const struct trap_frame *tf)
{
	u32 v = tf->vector;

	if (this_cpu_read(kernel_flag_held))
		return 0;
	if (v >= IRQ0_VECTOR + 16 &&
	    (v != LOCAL_TIMER_VECTOR || smp_processor_id() || hrtimer_highres_active()))
		return 0;
	if (v < 32 && user_mode(tf))
		__lock_kernel_irqs_on();	/* task context: interrupts may come */
	else
		__lock_kernel();
	return 1;
}

static __attribute__((always_inline)) inline void __trap_dispatch(struct trap_frame *tf, const int smp)
{
	u32 v = tf->vector;

	if (v < 32) {
		do_exception(tf);
	} else if (v >= IRQ0_VECTOR && v < IRQ0_VECTOR + 16) {
		int irq = v - IRQ0_VECTOR;
		kstat_incr_irqs_this_cpu(irq);	/* handled or not, as handle_bad_irq */
		if (irq_handlers[irq])
			irq_handlers[irq](tf);
		pic_eoi(irq);
	} else if (vector_handlers[v]) {
		vector_handlers[v](tf);
	} else {
		inc_irq_stat(irq_spurious_count);
	}
	if (smp && v >= 32)
		irq_exit();	/* the softirqs the handler raised (SCHED_SOFTIRQ) */
	if (smp)
		exit_to_caller_smp(tf, user_mode(tf));
	else
		exit_to_caller(tf, user_mode(tf));
}

/* More than one CPU online: the same under the giant kernel lock. */
static noinline void trap_dispatch_smp(struct trap_frame *tf)
{
	int locked = trap_lock_kernel(tf);

	__trap_dispatch(tf, 1);
	if (locked)
		__unlock_kernel();
}

void trap_dispatch(struct trap_frame *tf)
{
	if (static_branch_on(&smp_key)) {
		trap_dispatch_smp(tf);
		return;
	}
	__trap_dispatch(tf, 0);
}
