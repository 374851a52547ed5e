/*
 * arch/x86/jump_label.c - patch static-key sites (<kernel/jump_label.h>).
 *
 * On: the site is the 5-byte nop the compiler emitted; off: jmp rel32 to
 * the entry's target, rel = target - (site + 5).  Kernel text is mapped
 * writable (arch/x86/paging.c), as for kprobes.  One CPU with interrupts
 * off: no context can be stopped inside a site, since a site is a single
 * instruction, and i686 needs no cache flush for a store followed by a jump.
 */
#include <kernel/jump_label.h>
#include <kernel/string.h>
#include <arch/irqflags.h>

#define JMP_REL32	0xe9

extern struct jump_entry __start___jump_table[], __stop___jump_table[];

static const u8 nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

void text_redirect(void *fn, void *to)
{
	u8 *site = fn;
	u32 rel = (u32)to - ((u32)fn + 5);

	site[0] = JMP_REL32;
	memcpy(site + 1, &rel, 4);
}

void static_key_set(struct static_key *key, bool on)
{
	unsigned long flags;

	local_irq_save(flags);
	key->enabled = on;
	for (struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++) {
		u8 *site = (u8 *)e->code;
		u32 rel = e->target - (e->code + 5);

		if (e->key != (u32)key)
			continue;
		if (on) {
			memcpy(site, nop5, sizeof(nop5));
		} else {
			site[0] = JMP_REL32;
			memcpy(site + 1, &rel, 4);
		}
	}
	local_irq_restore(flags);
}
