/*
 * arch/x86/traps.c - the C side of every trap: CPU exceptions, hardware
 * interrupts and the syscall gate.
 *
 * An exception prints a Linux-style title and register dump (__show_regs
 * layout of Linux/i386).  In kernel mode that is fatal:
 *	Kernel panic - not syncing: Fatal exception
 * In user mode the portable layer decides (user_exception(): signal/kill),
 * and so it does for a fault on the way back to user mode caused by a
 * user-supplied selector (fixup_user_return).
 */
#include <kernel/printk.h>
#include <kernel/entry.h>
#include <kernel/signal_nr.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <arch/cpu.h>
#include <arch/irq.h>
#include <arch/irqflags.h>
#include <arch/process.h>
#include <arch/segment.h>

/* entry.asm: the user-frame reload instructions, and where to go after one faults. */
extern const char __ret_user_segs[], __ret_user_iret[];
__attribute__((noreturn)) void ret_from_bad_user_frame(struct trap_frame *utf);

static irq_handler_t irq_handlers[16];
static irq_handler_t vector_handlers[256];
static u64 spurious_count;

void request_irq(int irq, irq_handler_t handler)
{
	irq_handlers[irq] = handler;
	pic_unmask(irq);
}

void set_vector_handler(int vector, irq_handler_t handler)
{
	vector_handlers[vector] = handler;
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

	printk("EIP: %04x:[<%08x>] EFLAGS: %08x CPU: 0\n", tf->cs & 0xffff, tf->eip, tf->eflags);
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
 * never set) does not load.  Treated as the user-mode fault it is:
 * SIGSEGV with Linux's message (a SIGSEGV handler may catch it), and the
 * exit path starts over on a loadable copy of the frame (fs/gs null, the
 * others the standard user selectors).  No return then.
 *
 * Which frame: a ring-0 fault pushes no esp, so the old esp is
 * (u32)&tf->useresp; it lies in [&utf->gs, &utf->eip].  This fault's own
 * frame overlaps the already-popped low part of utf, so the user's
 * general registers come from TF (popa had restored them) and
 * eip/cs/eflags/esp/ss (above the old esp, intact) from utf.
 */
static void fixup_user_return(struct trap_frame *tf)
{
	struct trap_frame *utf = task_pt_regs(current), f;
	u32 old_sp = (u32)&tf->useresp, v = tf->vector;

	if ((v != 11 && v != 12 && v != 13) || tf->eip < (u32)__ret_user_segs ||
	    tf->eip > (u32)__ret_user_iret)
		return;
	if (old_sp < (u32)&utf->gs || old_sp > (u32)&utf->eip || !user_mode(utf))
		return;
	memcpy(&f, tf, offsetof(struct trap_frame, gs));	/* pusha block */
	f.gs = f.fs = 0;
	f.ds = f.es = f.ss = __USER_DS;
	f.cs = __USER_CS;
	f.vector = v;		/* no longer a syscall return: never restarted */
	f.error = tf->error;
	f.eip = utf->eip;
	f.eflags = utf->eflags;
	f.useresp = utf->useresp;
	user_exception(SIGSEGV, exception_names[v], f.eip, f.useresp, 0, f.error);
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

void trap_dispatch(struct trap_frame *tf)
{
	u32 v = tf->vector;

	if (v < 32) {
		do_exception(tf);
	} else if (v >= IRQ0_VECTOR && v < IRQ0_VECTOR + 16) {
		int irq = v - IRQ0_VECTOR;
		if (irq_handlers[irq])
			irq_handlers[irq](tf);
		else
			spurious_count++;
		pic_eoi(irq);
	} else if (v == SYSCALL_VECTOR) {
		local_irq_enable();	/* syscalls run preemptible by interrupts */
		syscall_dispatch(tf);
		local_irq_disable();
	} else if (vector_handlers[v]) {
		vector_handlers[v](tf);
	} else {
		spurious_count++;
	}
	exit_to_caller(tf, user_mode(tf));
}
