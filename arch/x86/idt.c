/*
 * arch/x86/idt.c - the Interrupt Descriptor Table.
 *
 * All 256 vectors point at the stubs of entry.asm (vector_stubs[]).
 * Exceptions and IRQs are interrupt gates (IF cleared on entry); the syscall
 * gate 0x80 is a DPL-3 trap gate (IF unchanged: a system call runs with
 * interrupts on from its first instruction, as Linux's set_system_trap_gate
 * makes it), so ring 3 may 'int 0x80'; int3 and into are DPL-3 interrupt
 * gates, as on Linux; any other 'int n' from ring 3 is a #GP.
 */
#include <kernel/smp.h>
#include <kernel/types.h>
#include <arch/segment.h>

extern const u32 vector_stubs[256];

struct idt_gate {
	u16 off_lo, sel;
	u8 zero, type_attr;
	u16 off_hi;
} __attribute__((packed));

static struct idt_gate idt[256] __attribute__((aligned(8)));

#define GATE_INTERRUPT	0x8e	/* present, 32-bit interrupt gate: clears IF */
#define GATE_TRAP	0x8f	/* present, 32-bit trap gate: leaves IF alone */

static void set_gate(int vec, u32 handler, int dpl)
{
	idt[vec].off_lo = handler & 0xffff;
	idt[vec].sel = __KERNEL_CS;
	idt[vec].zero = 0;
	idt[vec].type_attr = (vec == SYSCALL_VECTOR ? GATE_TRAP : GATE_INTERRUPT) | (dpl << 5);
	idt[vec].off_hi = handler >> 16;
}

/* int 0x80, and int3/into, which Linux also lets ring 3 raise (SIGTRAP/SIGSEGV). */
static int user_gate(int v)
{
	return v == SYSCALL_VECTOR || v == 3 || v == 4;
}

/* Load the one IDT (every CPU shares it, as on Linux). */
void idt_load(void)
{
	struct { u16 limit; u32 base; } __attribute__((packed)) idtr = { sizeof(idt) - 1, (u32)idt };

	__asm__ __volatile__("lidt %0" :: "m"(idtr));
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, vector_stubs[v], user_gate(v) ? 3 : 0);
	idt_load();
}

/*
 * More than one CPU online: int 0x80 enters through system_call_smp, which
 * takes the giant kernel lock around a call that needs it (<kernel/smp_lock.h>).
 * A gate of its own rather than a test in the common path, as Linux's SMP
 * alternatives patch the UP kernel: at one CPU the system call runs the
 * instructions it always ran (docs/FASTPATHS.md).
 */
void arch_smp_syscall_gate(void)
{
	extern const char system_call_smp[];

	set_gate(SYSCALL_VECTOR, (u32)system_call_smp, 3);
}

/* Vector 3 to HANDLER (kprobes, arch/x86/kprobes.c), still callable from ring 3. */
void idt_set_int3(u32 handler)
{
	set_gate(3, handler, 3);
}
