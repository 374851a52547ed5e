/*
 * arch/tls.h - thread-local storage segments, the Linux i386 way.
 *
 * Every task owns GDT_ENTRY_TLS_ENTRIES descriptors (thread.tls_array)
 * that arch_switch_to copies into GDT entries GDT_ENTRY_TLS_MIN..MAX of
 * the one GDT, so the selector (entry << 3) | 3 in %gs or %fs reaches the
 * running task's own segment.  User space fills a struct user_desc and
 * calls set_thread_area(243) / get_thread_area(244), or passes one as
 * clone's tls argument with CLONE_SETTLS.
 *
 * The conversion user_desc <-> descriptor is pure (arch/x86/tls_desc.c,
 * compiled unchanged by the host tests in tests/host/tls).
 */
#ifndef ARCH_TLS_H
#define ARCH_TLS_H

#include <kernel/types.h>

#define GDT_ENTRY_TLS_MIN	6
#define GDT_ENTRY_TLS_ENTRIES	3
#define GDT_ENTRY_TLS_MAX	(GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)

/*
 * A segment descriptor as the CPU reads it, in two little-endian words:
 *   a: limit[15:0] | base[15:0] << 16
 *   b: base[23:16] | type[3:0] << 8 | S << 12 | DPL << 13 | P << 15 |
 *      limit[19:16] << 16 | AVL << 20 | L << 21 | D/B << 22 | G << 23 |
 *      base[31:24] << 24
 * a == b == 0 is the empty (unused) slot: loading it faults.
 */
struct desc_struct {
	u32 a, b;
};

/* Linux's struct user_desc (asm/ldt.h): 16 bytes, bit-fields LSB first. */
struct user_desc {
	u32 entry_number;		/* GDT entry; (u32)-1: "pick a free one" */
	u32 base_addr;
	u32 limit;			/* 20 bits, in bytes or 4 KiB pages */
	u32 seg_32bit:1;		/* D/B: 32-bit segment */
	u32 contents:2;			/* 0 data, 1 data expand-down, 2/3 code */
	u32 read_exec_only:1;		/* data read-only / code execute-only */
	u32 limit_in_pages:1;		/* G: limit counts 4 KiB pages */
	u32 seg_not_present:1;		/* P = !seg_not_present */
	u32 useable:1;			/* AVL: free for software */
};

/* Linux's LDT_empty / LDT_zero: a user_desc that clears a slot. */
int tls_user_desc_empty(const struct user_desc *info);
/*
 * Linux's tls_desc_okay + fill_ldt: an empty user_desc gives the empty
 * descriptor; otherwise only present, 32-bit data segments (contents 0 or
 * 1) are allowed and become a DPL 3 descriptor with the accessed bit set.
 * 0, or -EINVAL (OUT untouched).  entry_number is not looked at.
 */
int tls_desc_from_user(const struct user_desc *info, struct desc_struct *out);
/* Linux's fill_user_desc: the user_desc that describes D in entry IDX. */
void tls_desc_to_user(const struct desc_struct *d, u32 idx, struct user_desc *info);
static inline int tls_desc_is_empty(const struct desc_struct *d)
{
	return d->a == 0 && d->b == 0;
}

#ifndef HOST_TEST
struct task;
struct trap_frame;
/* load_TLS(t), T's descriptors into the GDT: arch/desc.h (inline). */
/* exec: a new program starts without TLS (Linux flush_thread). */
void tls_flush_current(void);
/* clone(CLONE_SETTLS): the user_desc at UINFO replaces one of CHILD's
 * (inherited) descriptors; entry_number must name it.  0, -EFAULT, -EINVAL. */
int tls_clone_settls(struct task *child, u32 uinfo);
#endif

#endif
