/*
 * kernel/cmdline_suggest.c - "did you mean ...?" for a boot word that is no
 * knob but is close to one's name.
 *
 * An unknown word goes to init's programs (Linux's rule), so the boot log must
 * tell a typo (sched_min_granularity=1) from a program's setting (mode=thread).
 * A word is close to a knob when, '-' read as '_' and any "sysctl.kernel."
 * prefix dropped, their edit distance (Levenshtein: insertions, deletions and
 * substitutions, each 1) is at most 2, or at most a quarter of the knob's
 * name, or when one name begins with the other and the shorter has at least
 * SUGGEST_PREFIX_MIN characters (sched_min_granularity for
 * sched_min_granularity_ns).  The closest knob wins; on a tie, the first in
 * the registry.  Short words (under SUGGEST_MIN) are never suggested for: the
 * programs' own keys (mode, load, seed, hist) are that short.
 */
#include <kernel/host_test.h>	/* first: HOST_TEST renames vsnprintf/snprintf */

#include <kernel/cmdline.h>
#include <kernel/string.h>

#define SYSCTL_PREFIX		"sysctl.kernel."
#define SUGGEST_MIN		5	/* a shorter word is some program's key */
#define SUGGEST_PREFIX_MIN	8
#define NAME_MAX_LEN		64

static char norm(char c)
{
	return c == '-' ? '_' : c;
}

/* Levenshtein distance of A and B (each under NAME_MAX_LEN), one row at a time. */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned row[NAME_MAX_LEN + 1], la = strlen(a), lb = strlen(b);

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return ~0u;
	for (unsigned j = 0; j <= lb; j++)
		row[j] = j;
	for (unsigned i = 1; i <= la; i++) {
		unsigned diag = row[0];		/* d[i-1][j-1] */
		row[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			unsigned up = row[j];	/* d[i-1][j] */
			unsigned best = diag + (norm(a[i - 1]) != norm(b[j - 1]));
			best = min(best, up + 1);
			best = min(best, row[j - 1] + 1);
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* Does the shorter of A and B begin the longer one (and is long enough)? */
static bool prefix_of(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = min(la, lb);

	if (n < SUGGEST_PREFIX_MIN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (norm(a[i]) != norm(b[i]))
			return false;
	return true;
}

const struct knob *knob_suggest(const char *name)
{
	const struct knob *k, *best = NULL;
	unsigned best_d = ~0u;

	if (!strncmp(name, SYSCTL_PREFIX, sizeof(SYSCTL_PREFIX) - 1))
		name += sizeof(SYSCTL_PREFIX) - 1;
	if (strlen(name) < SUGGEST_MIN)
		return NULL;
	for (k = __start_knobs; k < __stop_knobs; k++) {
		unsigned d = prefix_of(name, k->name) ? 1 : edit_distance(name, k->name);
		unsigned limit = max(2u, (unsigned)strlen(k->name) / 4);

		if (d <= limit && d < best_d) {
			best = k;
			best_d = d;
		}
	}
	return best;
}
