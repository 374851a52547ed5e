/*
 * arch/x86/gdt.c - the Global Descriptor Table and the single TSS.
 *
 * Nine descriptors: null, kernel code/data (DPL 0), user code/data (DPL 3),
 * a 32-bit TSS, and entries 6-8 for the running task's TLS segments
 * (rewritten on every context switch by load_TLS, arch/desc.h).  The
 * TSS's only live fields are ss0:esp0, the kernel stack the CPU switches
 * to on a trap from ring 3.  esp0 is updated on every context
 * switch (tss_set_esp0).  The I/O bitmap offset points past the TSS limit, so
 * ring-3 in/out always faults (#GP), whatever IOPL says (IOPL is 0 anyway).
 *
 * There is no LDT: LDTR is loaded with the null selector (Linux's
 * load_LDT(&init_mm.context) with no LDT: lldt 0).  The CPU comes out of
 * reset with an LDTR of base 0, limit 0xffff, so without this a TI=1
 * selector (bit 2 set, e.g. 0x07) would be looked up in "descriptors" at
 * linear address 0 - a #PF on the NULL page in the middle of a segment
 * load.  With a null LDTR every TI=1 load raises #GP(selector), which the
 * user fault path and the return-to-user fixups (traps.c) already handle.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <arch/desc.h>

/* Written at every switch by arch/desc.h's inline tss_set_esp0/load_TLS. */
u64 gdt[GDT_ENTRIES] __attribute__((aligned(8)));
struct tss tss __attribute__((aligned(16)));

/* access: P|DPL|S|type; flags: G (4 KiB granularity) | D (32-bit). */
static u64 make_desc(u32 base, u32 limit, u8 access, u8 flags)
{
	u64 d = limit & 0xffff;
	d |= (u64)(base & 0xffffff) << 16;
	d |= (u64)access << 40;
	d |= (u64)((limit >> 16) & 0xf) << 48;
	d |= (u64)(flags & 0xf) << 52;
	d |= (u64)(base >> 24) << 56;
	return d;
}

void gdt_init(void)
{
	struct { u16 limit; u32 base; } __attribute__((packed)) gdtr;

	gdt[0] = 0;
	gdt[GDT_KERNEL_CS] = make_desc(0, 0xfffff, 0x9a, 0xc);	/* ring 0 code, r/x */
	gdt[GDT_KERNEL_DS] = make_desc(0, 0xfffff, 0x92, 0xc);	/* ring 0 data, r/w */
	gdt[GDT_USER_CS]   = make_desc(0, 0xfffff, 0xfa, 0xc);	/* ring 3 code */
	gdt[GDT_USER_DS]   = make_desc(0, 0xfffff, 0xf2, 0xc);	/* ring 3 data */

	memset(&tss, 0, sizeof(tss));
	tss.ss0 = __KERNEL_DS;
	tss.iomap_base = sizeof(tss);	/* beyond the limit: no I/O bitmap */
	gdt[GDT_TSS] = make_desc((u32)&tss, sizeof(tss) - 1, 0x89, 0x0); /* avail 32-bit TSS */

	gdtr.limit = sizeof(gdt) - 1;
	gdtr.base = (u32)gdt;
	__asm__ __volatile__(
		"lgdt %0\n\t"
		"ljmp %1, $1f\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\tmovw %%ax, %%es\n\tmovw %%ax, %%ss\n\t"
		"movw %%ax, %%fs\n\tmovw %%ax, %%gs\n\t"
		"movw %w3, %%ax\n\tltr %%ax\n\t"
		"xorl %%eax, %%eax\n\tlldt %%ax"
		:: "m"(gdtr), "i"(__KERNEL_CS), "i"(__KERNEL_DS), "i"(__TSS) : "eax", "memory");
}
