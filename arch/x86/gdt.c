/*
 * arch/x86/gdt.c - each CPU's Global Descriptor Table and TSS.
 *
 * Ten descriptors per CPU: null, kernel code/data (DPL 0), user code/data
 * (DPL 3), a 32-bit TSS, entries 6-8 for the running task's TLS segments
 * (rewritten on every context switch by load_TLS, arch/desc.h) and
 * __KERNEL_PERCPU, a flat data segment whose base is the CPU's per-CPU
 * offset (Linux i386's GDT_ENTRY_PERCPU): the kernel keeps it in %fs, so
 * "%fs:var" is this CPU's copy of a per-CPU variable (arch/percpu.h).  The
 * GDT and the TSS are per-CPU variables themselves (Linux's gdt_page and
 * init_tss): every CPU loads its own copy, and the boot CPU starts on the
 * template's (offset 0) until its area exists (switch_to_new_gdt()).
 *
 * The TSS's only live fields are ss0:esp0, the kernel stack the CPU
 * switches to on a trap from ring 3.  esp0 is updated on every context
 * switch (tss_set_esp0).  The I/O bitmap offset points past the TSS limit,
 * so ring-3 in/out always faults (#GP), whatever IOPL says (IOPL is 0
 * anyway).
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
DEFINE_PER_CPU(struct gdt_page, gdt_page);
DEFINE_PER_CPU(struct tss, init_tss) __attribute__((aligned(16)));

/* access: P|DPL|S|type; flags: G (4 KiB granularity) | D (32-bit). */
static struct desc_struct make_desc(u32 base, u32 limit, u8 access, u8 flags)
{
	return (struct desc_struct){
		.a = (limit & 0xffff) | (base & 0xffff) << 16,
		.b = ((base >> 16) & 0xff) | (u32)access << 8 | (limit & 0xf0000) |
		     (u32)(flags & 0xf) << 20 | (base & 0xff000000u),
	};
}

/* The descriptors that depend on where the CPU's TSS and area are. */
static void set_cpu_descs(struct desc_struct *gdt, struct tss *tss, u32 percpu_base)
{
	gdt[GDT_TSS] = make_desc((u32)tss, sizeof(*tss) - 1, 0x89, 0x0);	/* avail 32-bit TSS */
	gdt[GDT_PERCPU] = make_desc(percpu_base, 0xfffff, 0x92, 0xc);	/* ring 0 data, r/w */
}

static void gdt_fill(struct desc_struct *gdt, struct tss *tss, u32 percpu_base)
{
	memset(gdt, 0, sizeof(struct gdt_page));
	gdt[GDT_KERNEL_CS] = make_desc(0, 0xfffff, 0x9a, 0xc);	/* ring 0 code, r/x */
	gdt[GDT_KERNEL_DS] = make_desc(0, 0xfffff, 0x92, 0xc);	/* ring 0 data, r/w */
	gdt[GDT_USER_CS]   = make_desc(0, 0xfffff, 0xfa, 0xc);	/* ring 3 code */
	gdt[GDT_USER_DS]   = make_desc(0, 0xfffff, 0xf2, 0xc);	/* ring 3 data */
	memset(tss, 0, sizeof(*tss));
	tss->ss0 = __KERNEL_DS;
	tss->iomap_base = sizeof(*tss);	/* beyond the limit: no I/O bitmap */
	set_cpu_descs(gdt, tss, percpu_base);
}

static void load_gdt(const struct desc_struct *gdt)
{
	struct { u16 limit; u32 base; } __attribute__((packed)) gdtr = {
		sizeof(struct gdt_page) - 1, (u32)gdt,
	};

	__asm__ __volatile__("lgdt %0" :: "m"(gdtr) : "memory");
}

void load_cpu_tables(void)
{
	__asm__ __volatile__(
		"movw %w0, %%ax\n\tltr %%ax\n\t"
		"xorl %%eax, %%eax\n\tlldt %%ax"
		:: "i"(__TSS) : "eax", "memory");
	idt_load();
}

/* The template's GDT and TSS, loaded on the boot CPU with %fs on the
 * template itself (per-CPU offset 0). */
void gdt_init(void)
{
	struct desc_struct *gdt = gdt_page.gdt;	/* the template: no %fs yet */

	gdt_fill(gdt, &init_tss, 0);
	load_gdt(gdt);
	__asm__ __volatile__(
		"ljmp %0, $1f\n"
		"1:\n\t"
		"movw %w1, %%ax\n\t"
		"movw %%ax, %%ds\n\tmovw %%ax, %%es\n\tmovw %%ax, %%ss\n\tmovw %%ax, %%gs\n\t"
		"movw %w2, %%ax\n\tmovw %%ax, %%fs\n\t"
		"movw %w3, %%ax\n\tltr %%ax\n\t"
		"xorl %%eax, %%eax\n\tlldt %%ax"
		:: "i"(__KERNEL_CS), "i"(__KERNEL_DS), "i"(__KERNEL_PERCPU), "i"(__TSS)
		: "eax", "memory");
}

void gdt_setup_cpu(unsigned int cpu)
{
	set_cpu_descs(per_cpu(gdt_page, cpu).gdt, &per_cpu(init_tss, cpu), per_cpu_offset(cpu));
}

void switch_to_new_gdt(unsigned int cpu)
{
	load_gdt(per_cpu(gdt_page, cpu).gdt);
	__asm__ __volatile__("movw %w0, %%ax\n\tmovw %%ax, %%fs" :: "i"(__KERNEL_PERCPU)
			     : "eax", "memory");
	load_cpu_tables();
}
