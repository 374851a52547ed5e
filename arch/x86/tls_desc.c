/*
 * arch/x86/tls_desc.c - struct user_desc <-> segment descriptor (Linux's
 * LDT_empty, tls_desc_okay, fill_ldt and fill_user_desc).
 *
 * Pure functions over the two structs (layouts in <arch/tls.h>): no task,
 * no GDT, no user memory, so the host tests (tests/host/tls) compile this
 * file unchanged.
 *
 * Invariant: every descriptor tls_desc_from_user() produces is either
 * empty (0, 0) or a present DPL 3 expand-up/expand-down 32-bit data
 * segment, which ring 3 may load into any data segment register.  An
 * empty slot faults when loaded (a null descriptor in the GDT is not a
 * null selector); the kernel's return path then nulls the selector, as
 * Linux 2.6.35 does (arch/x86/traps.c).
 *
 * Deliberate difference from 2.6.35: the checks are those of later
 * kernels.  2.6.35's set_thread_area had only LDT_empty and fill_ldt, so
 * it accepted code, 16-bit and not-present descriptors, and an all-zero
 * user_desc made a present 16-bit data segment with base and limit 0.
 * Linux 3.19 (Andy Lutomirski's TLS hardening of December 2014, also
 * taken into the stable series) added tls_desc_okay, which refuses those
 * three kinds, and LDT_zero, which makes the all-zero user_desc clear the
 * entry like LDT_empty.  Granule keeps that hardening: it is what makes
 * the invariant above hold.
 */
#include <kernel/errno.h>
#include <arch/tls.h>

/* Descriptor type bits (b >> 8), for S = 1. */
#define DESC_ACCESSED	0x1
#define DESC_WRITABLE	0x2	/* data: writable; code: readable */

#define B_S		(1u << 12)
#define B_DPL3		(3u << 13)
#define B_P		(1u << 15)
#define B_AVL		(1u << 20)
#define B_D		(1u << 22)
#define B_G		(1u << 23)

/* Linux LDT_empty (2.6.35 has it): the "clear" pattern glibc and others pass... */
static int ldt_empty(const struct user_desc *i)
{
	return i->base_addr == 0 && i->limit == 0 && i->contents == 0 &&
	       i->read_exec_only == 1 && i->seg_32bit == 0 && i->limit_in_pages == 0 &&
	       i->seg_not_present == 1 && i->useable == 0;
}

/* ...and LDT_zero (Linux 3.19, not in 2.6.35): an all-zero user_desc
 * (entry_number aside) clears too. */
static int ldt_zero(const struct user_desc *i)
{
	return i->base_addr == 0 && i->limit == 0 && i->contents == 0 &&
	       i->read_exec_only == 0 && i->seg_32bit == 0 && i->limit_in_pages == 0 &&
	       i->seg_not_present == 0 && i->useable == 0;
}

int tls_user_desc_empty(const struct user_desc *info)
{
	return ldt_empty(info) || ldt_zero(info);
}

/*
 * Linux tls_desc_okay (3.19; 2.6.35 had no such check and accepted all of
 * these - a deliberate difference): 16-bit segments would need espfix
 * (LDT only), code segments (contents 2, 3: conforming code is the
 * dangerous one) have no business in %fs/%gs, and non-present DPL 3
 * segments are refused too.
 */
static int tls_desc_okay(const struct user_desc *info)
{
	if (tls_user_desc_empty(info))
		return 1;
	if (!info->seg_32bit)
		return 0;
	if (info->contents > 1)
		return 0;
	if (info->seg_not_present)
		return 0;
	return 1;
}

int tls_desc_from_user(const struct user_desc *info, struct desc_struct *out)
{
	u32 type;

	if (!tls_desc_okay(info))
		return -EINVAL;
	if (tls_user_desc_empty(info)) {
		out->a = out->b = 0;
		return 0;
	}
	/* fill_ldt: writable unless read_exec_only; accessed preset, so the
	 * CPU never writes the descriptor back. */
	type = ((info->read_exec_only ^ 1u) ? DESC_WRITABLE : 0) | (info->contents << 2) |
	       DESC_ACCESSED;
	out->a = (info->limit & 0xffffu) | (info->base_addr << 16);
	out->b = ((info->base_addr >> 16) & 0xffu) | (type << 8) | B_S | B_DPL3 |
		 (info->seg_not_present ? 0 : B_P) | (info->limit & 0xf0000u) |
		 (info->useable ? B_AVL : 0) | (info->seg_32bit ? B_D : 0) |
		 (info->limit_in_pages ? B_G : 0) | (info->base_addr & 0xff000000u);
	return 0;
}

void tls_desc_to_user(const struct desc_struct *d, u32 idx, struct user_desc *info)
{
	u32 type = (d->b >> 8) & 0xf;

	__builtin_memset(info, 0, sizeof(*info));	/* the unused bits too: it goes to user space */
	info->entry_number = idx;
	info->base_addr = (d->a >> 16) | ((d->b & 0xff) << 16) | (d->b & 0xff000000u);
	info->limit = (d->a & 0xffff) | (d->b & 0xf0000u);
	info->seg_32bit = !!(d->b & B_D);
	info->contents = type >> 2;
	info->read_exec_only = !(type & DESC_WRITABLE);
	info->limit_in_pages = !!(d->b & B_G);
	info->seg_not_present = !(d->b & B_P);
	info->useable = !!(d->b & B_AVL);
}
