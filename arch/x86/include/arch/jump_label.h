/*
 * arch/jump_label.h - the i686 static-key site: a 5-byte nop (0f 1f 44 00 00)
 * that arch/x86/jump_label.c rewrites into jmp rel32 (e9 xx xx xx xx) to the
 * "off" label; the entry {site, off label, key} goes to __jump_table.
 */
#ifndef ARCH_JUMP_LABEL_H
#define ARCH_JUMP_LABEL_H

struct static_key;

struct jump_entry {
	u32 code;		/* the 5-byte site */
	u32 target;		/* where the site jumps while the key is off */
	u32 key;		/* the struct static_key */
};

static __attribute__((always_inline)) inline bool static_branch_on(struct static_key *key)
{
	asm goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
		 ".pushsection __jump_table, \"aw\"\n\t"
		 ".balign 4\n\t"
		 ".long 1b, %l[l_off], %c0\n\t"
		 ".popsection"
		 : : "i" (key) : : l_off);
	return true;
l_off:
	return false;
}

#endif
