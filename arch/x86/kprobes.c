/*
 * arch/x86/kprobes.c - int3 breakpoints on function entry, and return
 * probes through a trampoline (<kernel/kprobes.h>).
 *
 * Entry: the function's first instruction is copied out of line and its
 * first byte replaced with int3; the breakpoint's handler runs ->pre and
 * resumes at p->insn = { that instruction, jmp rel32 to the next one }, so
 * it needs no emulation or single-stepping.  That works for the
 * instructions GCC starts a function with (kernel code has no frame
 * pointer), all position-independent: push r32, sub $imm,%esp and
 * mov disp8(%esp),r32 (insn_length() knows exactly these; anything else is
 * refused with -EINVAL).
 * Return: ->pre's non-zero answer swaps the return address (the word at the
 * probed code's stack pointer, right above the iret frame) for
 * kretprobe_trampoline and pushes an instance {real return address, stack
 * pointer, probe, data}; kretprobe_handler pops the instance whose stack
 * pointer matches the trampoline's (the innermost), runs ->ret, and gives
 * the real address back.
 *
 * Kernel text is mapped writable (arch/x86/paging.c), so patching is a
 * store; i686 has no instruction cache coherency problem for a one-CPU
 * store followed by an iret or a jump.
 */
#include <kernel/kprobes.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <arch/irqflags.h>
#include "kprobes_insn.h"

#define KPROBES_MAX	32	/* = the slots in kprobes_entry.asm */
#define KRET_DEPTH	32	/* nested return probes (task + interrupts) */
#define INT3		0xcc
#define JMP_REL32	0xe9
#define EFLAGS_IF	0x200
#define INSN_SLOT	16	/* bytes per out-of-line slot (kprobes_entry.asm) */

/* pushad's frame, then the ring-0 iret frame */
struct kprobe_regs {
	u32 edi, esi, ebp, esp_unused, ebx, edx, ecx, eax;
	u32 eip, cs, eflags;
};

struct kret_instance {
	u32 ret_addr, sp;		/* sp: where the return address was */
	struct kprobe *p;
	u32 data[KPROBE_DATA_WORDS];
};

extern const u32 vector_stubs[256];
extern u8 kprobe_insn_slots[KPROBES_MAX][INSN_SLOT];
void kprobe_int3_entry(void);
void kretprobe_trampoline(void);
void idt_set_int3(u32 handler);

static struct kprobe *probes[KPROBES_MAX];
static int nr_probes;
static struct kret_instance kret_stack[KRET_DEPTH];
static int kret_depth;
static unsigned long kret_missed;	/* instances that did not fit */

int register_kprobe(struct kprobe *p)
{
	u8 *code = p->addr;
	int len;
	u32 rel;

	if (!code)
		return -EINVAL;
	if (code[0] == INT3)
		return -EBUSY;
	len = kprobe_insn_length(code);
	if (!len)
		return -EINVAL;
	if (nr_probes >= KPROBES_MAX)
		return -ENOSPC;
	p->insn = kprobe_insn_slots[nr_probes];
	memcpy(p->insn, code, len);
	p->insn[len] = JMP_REL32;	/* to the next instruction */
	rel = (u32)(code + len) - (u32)(p->insn + len + 5);
	memcpy(&p->insn[len + 1], &rel, 4);
	probes[nr_probes++] = p;
	if (nr_probes == 1)
		idt_set_int3((u32)kprobe_int3_entry);
	code[0] = INT3;
	return 0;
}

/* Linux's disable_kprobe()/enable_kprobe() (the tracer's set_event at run
 * time).  One CPU, interrupts off: no one runs the byte while it changes. */
static int set_kprobe(struct kprobe *p, int on)
{
	unsigned long flags;

	if (!p->insn)
		return -EINVAL;
	local_irq_save(flags);
	((u8 *)p->addr)[0] = on ? INT3 : p->insn[0];	/* off: the copy's first byte is the function's own */
	p->disabled = !on;
	local_irq_restore(flags);
	return 0;
}

int disable_kprobe(struct kprobe *p)
{
	return set_kprobe(p, 0);
}

int enable_kprobe(struct kprobe *p)
{
	return set_kprobe(p, 1);
}

/* Called by kprobe_int3_entry; 0 = not ours (the ordinary int3 path). */
int kprobe_int3_handler(struct kprobe_regs *regs)
{
	u32 *sp = (u32 *)(&regs->eflags + 1);	/* the probed code's stack */
	u32 addr = regs->eip - 1;
	struct kprobe *p = NULL;

	for (int i = 0; i < nr_probes; i++)
		if ((u32)probes[i]->addr == addr) {
			p = probes[i];
			break;
		}
	if (!p)
		return 0;

	if (p->pre) {
		u32 data[KPROBE_DATA_WORDS];

		if (p->pre(p, sp + 1, regs->eflags, data) && p->ret) {
			if (kret_depth < KRET_DEPTH) {
				struct kret_instance *ri = &kret_stack[kret_depth++];

				ri->ret_addr = sp[0];
				ri->sp = (u32)sp;
				ri->p = p;
				memcpy(ri->data, data, sizeof(data));
				sp[0] = (u32)kretprobe_trampoline;
			} else {
				kret_missed++;
			}
		}
	}
	regs->eip = (u32)p->insn;
	return 1;
}

/*
 * Called by kretprobe_trampoline (interrupts off) with its pushad frame;
 * the probed function's "ret" popped the address at ri->sp, so the frame
 * (pushad + pushfd + the slot) sits just below ri->sp + 4.
 */
u32 kretprobe_handler(struct kprobe_regs *regs)
{
	u32 sp = (u32)regs + 8 * 4 + 4 + 4;	/* pushad, pushfd, slot */

	while (kret_depth > 0) {
		struct kret_instance *ri = &kret_stack[--kret_depth];

		if (ri->sp + 4 != sp)
			continue;	/* a return we never saw (cannot happen) */
		ri->p->ret(ri->p, ri->data, regs->eax);
		return ri->ret_addr;
	}
	panic("kretprobe: no instance for the return to sp %08x", sp);
}
