/*
 * kernel/jump_label.h - static keys: a branch patched in the code instead
 * of a flag tested at run time (Linux's <linux/jump_label.h>, reduced to
 * the one form Granule needs).
 *
 *	static struct static_key key = STATIC_KEY_INIT_TRUE;
 *	if (static_branch_on(&key)) { ...work... }
 *	static_key_set(&key, false);	// every site now jumps over the work
 *
 * Every site is one 5-byte instruction: a nop while the key is on (the
 * work follows), a jmp rel32 past the work while it is off, so the work
 * costs nothing when off and one nop when on (arch/x86/jump_label.c does
 * the patching; the sites are listed in the __jump_table section).
 * Keys start on: a key's compiled-in state is "on".
 *
 * Host builds (HOST_TEST: tests/host, the simulator, the fuzzers) have no
 * patchable text: there a site reads key->enabled, the same answer.
 */
#ifndef KERNEL_JUMP_LABEL_H
#define KERNEL_JUMP_LABEL_H
#include <kernel/types.h>

struct static_key {
	int enabled;		/* what every site answers */
};

#define STATIC_KEY_INIT_TRUE	{ .enabled = 1 }

#ifdef HOST_TEST
static inline bool static_branch_on(struct static_key *key)
{
	return key->enabled;
}

static inline void static_key_set(struct static_key *key, bool on)
{
	key->enabled = on;
}
#else
#include <arch/jump_label.h>

/* Turn KEY on or off: rewrite all its sites (interrupts are kept off). */
void static_key_set(struct static_key *key, bool on);
/*
 * FN's first instruction becomes a jmp to TO, for good: every call of FN
 * runs TO.  Code chosen once at boot, as Linux's SMP alternatives
 * (arch/x86/kernel/alternative.c) are, so that the other choice costs
 * nothing; called before the other CPUs start.
 */
void text_redirect(void *fn, void *to);
#endif

static inline bool static_key_enabled(const struct static_key *key)
{
	return key->enabled;
}

#endif
