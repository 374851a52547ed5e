/*
 * kernel/cmdline.c - the boot command-line knob registry (<kernel/cmdline.h>).
 *
 * Knobs are the struct knob entries that DEFINE_KNOB_* puts in the "knobs"
 * section; this file walks [__start_knobs, __stop_knobs).
 *
 * Words: split at blanks (space, tab, CR, LF); '"' toggles quoting anywhere
 * in a word and is removed, so  s="a b=c"  sets s to 'a b=c'.  A word is
 * NAME or NAME=VALUE, split at its first '='.  NAME is the knob name or
 * "sysctl.kernel." + the knob name; '-' and '_' match each other (as in
 * Linux's parameq).  Words apply strictly left to right.  Everything after
 * a bare "--" is not parsed: like unknown words, it is kept for init.
 *
 * Values by type ("expected" text in brackets):
 *	BOOL	0 1 y n yes no on off true false (any case); bare NAME = 1
 *						[0 or 1]
 *	INT	kstrtos64, base 0 (0x.. hex, 0.. octal), within [min, max]
 *						[an integer MIN..MAX]
 *	UINT	kstrtou64, base 0, within [min, max]   [an integer MIN..MAX]
 *	U64	as UINT				[an integer MIN..MAX]
 *	STRING	any text up to max-1 bytes	[a string of at most N characters]
 *	ENUM	exactly one of choices[]	[one of a|b|c]
 *	CUSTOM	whatever ->set accepts		[->expect, or "a valid value"]
 *
 * Error lines (printk; the old value is kept; "keeping" shows it with
 * knob_show(), "" for an empty string):
 *	cmdline: unknown parameter 'NAME' (did you mean KNOB?); passed to init's programs
 *		NAME is close to a knob's name (kernel/cmdline_suggest.c)
 *	cmdline: passed to init's programs: WORD WORD ...
 *		one line, after the parse, for the other unknown words
 *	cmdline: NAME: missing value (expected ...)        bare word, non-bool
 *	cmdline: NAME=VAL: invalid (expected ...); keeping OLD
 *		not a number / trailing garbage / empty value / not a choice /
 *		not a bool word / ->set refused
 *	cmdline: NAME=VAL: out of range (expected ...); keeping OLD
 *		a number below min or above max, too big for 64 bits, or
 *		negative for UINT/U64
 *	cmdline: NAME=VAL: too long (expected ...); keeping OLD
 *		STRING value of max bytes or more
 * NAME is printed as the user spelled it (e.g. sysctl.kernel.x=...).
 *
 * Hooks: ->changed runs after every successful knob_apply() (not from
 * knobs_init(): defaults need no recomputation).  A CUSTOM ->set that
 * returns KNOB_REFUSED has printed its own line: nothing more is printed.
 */
#include <kernel/host_test.h>	/* first: HOST_TEST renames vsnprintf/snprintf */

#include <kernel/cmdline.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/errno.h>

#define SYSCTL_PREFIX		"sysctl.kernel."
#define KNOB_NAME_MAX		64	/* longest NAME looked up */

static const char *unknown_words[CMDLINE_MAX_UNKNOWN];
/* Inside knob_write().  In .data: see kernel/init.c's run_given. */
static bool at_runtime __attribute__((section(".data")));
static int nr_unknown;		/* may exceed CMDLINE_MAX_UNKNOWN: then only that many are kept */
static u32 suggested;		/* bit i: unknown_words[i] had its "did you mean" line */

#define for_each_knob(k) for (k = __start_knobs; k < __stop_knobs; k++)

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool eq_nocase(const char *a, const char *b)
{
	while (*a && lower(*a) == lower(*b)) {
		a++;
		b++;
	}
	return lower(*a) == lower(*b);
}

/* Knob name equality with '-' == '_'. */
static bool name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a;
		char y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

const struct knob *knob_find(const char *name)
{
	const struct knob *k;

	if (!strncmp(name, SYSCTL_PREFIX, sizeof(SYSCTL_PREFIX) - 1))
		name += sizeof(SYSCTL_PREFIX) - 1;
	for_each_knob(k)
		if (name_eq(k->name, name))
			return k;
	return NULL;
}

void knob_show(const struct knob *k, char *buf, size_t len)
{
	int idx;

	if (!len)
		return;
	switch (k->type) {
	case KNOB_BOOL:
		snprintf(buf, len, "%d", *(int *)k->ptr ? 1 : 0);
		break;
	case KNOB_INT:
		snprintf(buf, len, "%d", (int)*(s32 *)k->ptr);
		break;
	case KNOB_UINT:
		snprintf(buf, len, "%u", (unsigned int)*(u32 *)k->ptr);
		break;
	case KNOB_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*(u64 *)k->ptr);
		break;
	case KNOB_STRING:
		strlcpy(buf, (const char *)k->ptr, len);
		break;
	case KNOB_ENUM:
		idx = *(int *)k->ptr;
		for (int i = 0; k->choices && k->choices[i]; i++)
			if (i == idx) {
				strlcpy(buf, k->choices[i], len);
				return;
			}
		snprintf(buf, len, "?%d", idx);
		break;
	case KNOB_CUSTOM:
		buf[0] = '\0';
		if (k->show)
			k->show(k, buf, len);
		break;
	}
}

/* The "expected ..." text for K (see the table above). */
static void knob_expect(const struct knob *k, char *buf, size_t len)
{
	size_t n;

	switch (k->type) {
	case KNOB_BOOL:
		strlcpy(buf, "0 or 1", len);
		break;
	case KNOB_INT:
	case KNOB_UINT:
	case KNOB_U64:
		snprintf(buf, len, "an integer %lld..%lld",
			 (long long)k->min, (long long)k->max);
		break;
	case KNOB_STRING:
		snprintf(buf, len, "a string of at most %lld characters",
			 (long long)k->max - 1);
		break;
	case KNOB_ENUM:
		n = strlcpy(buf, "one of ", len);
		for (int i = 0; k->choices && k->choices[i] && n < len; i++) {
			if (i)
				n += strlcpy(buf + n, "|", len - n);
			if (n < len)
				n += strlcpy(buf + n, k->choices[i], len - n);
		}
		break;
	case KNOB_CUSTOM:
		strlcpy(buf, k->expect ? k->expect : "a valid value", len);
		break;
	}
}

enum verdict { OK, INVALID, OUT_OF_RANGE, TOO_LONG };

static enum verdict parse_bool(const char *val, int *out)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "true" };
	static const char *const no[] = { "0", "n", "no", "off", "false" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (eq_nocase(val, yes[i])) {
			*out = 1;
			return OK;
		}
		if (eq_nocase(val, no[i])) {
			*out = 0;
			return OK;
		}
	}
	return INVALID;
}

/* INT/UINT/U64: parse with base auto-detection and check [min, max]. */
static enum verdict parse_number(const struct knob *k, const char *val,
				 u64 *out)
{
	int err;

	if (k->type == KNOB_INT) {
		s64 v;

		err = kstrtos64(val, 0, &v);
		if (err)
			return err == -ERANGE ? OUT_OF_RANGE : INVALID;
		if (v < k->min || v > k->max)
			return OUT_OF_RANGE;
		*out = (u64)v;
	} else {
		u64 v;
		s64 neg;

		err = kstrtou64(val, 0, &v);
		if (err == -EINVAL && val[0] == '-' &&
		    kstrtos64(val, 0, &neg) != -EINVAL)
			return OUT_OF_RANGE;	/* a well-formed negative */
		if (err)
			return err == -ERANGE ? OUT_OF_RANGE : INVALID;
		if (v < (u64)k->min || v > (u64)k->max)
			return OUT_OF_RANGE;
		*out = v;
	}
	return OK;
}

static enum verdict parse_enum(const struct knob *k, const char *val, int *out)
{
	for (int i = 0; k->choices && k->choices[i]; i++)
		if (!strcmp(k->choices[i], val)) {
			*out = i;
			return OK;
		}
	return INVALID;
}

/* Parse VAL into K; SPELLED is the name as written, SRC where it came
 * from ("cmdline", "sysctl"), for messages. */
static int knob_set(const struct knob *k, const char *spelled, const char *val, const char *src)
{
	static const char *const what[] = {
		[INVALID] = "invalid",
		[OUT_OF_RANGE] = "out of range",
		[TOO_LONG] = "too long",
	};
	char expect[160], old[128];
	enum verdict v = OK;
	u64 num = 0;
	int idx = 0;

	if (k->check && k->check(k) < 0)	/* refused as a whole: one line */
		return -1;
	if (!val && k->type == KNOB_BOOL)
		val = "1";
	if (!val && k->bare)
		val = k->bare;		/* e.g. Linux's bare sched_debug */
	if (!val) {
		knob_expect(k, expect, sizeof(expect));
		printk("%s: %s: missing value (expected %s)\n", src, spelled,
		       expect);
		return -1;
	}

	switch (k->type) {
	case KNOB_BOOL:
		v = parse_bool(val, &idx);
		if (v == OK)
			*(int *)k->ptr = idx;
		break;
	case KNOB_INT:
	case KNOB_UINT:
	case KNOB_U64:
		v = parse_number(k, val, &num);
		if (v != OK)
			break;
		if (k->type == KNOB_INT)
			*(s32 *)k->ptr = (s32)(s64)num;
		else if (k->type == KNOB_UINT)
			*(u32 *)k->ptr = (u32)num;
		else
			*(u64 *)k->ptr = num;
		break;
	case KNOB_STRING:
		if (strlen(val) >= (size_t)k->max)
			v = TOO_LONG;
		else
			strlcpy((char *)k->ptr, val, (size_t)k->max);
		break;
	case KNOB_ENUM:
		v = parse_enum(k, val, &idx);
		if (v == OK)
			*(int *)k->ptr = idx;
		break;
	case KNOB_CUSTOM: {
		int r = k->set ? k->set(k, val) : -1;
		if (r == KNOB_REFUSED || r == KNOB_BUSY)
			return r == KNOB_BUSY ? KNOB_BUSY : -1;	/* ->set said why */
		if (r)
			v = INVALID;
		break;
	}
	}

	if (v != OK) {
		knob_expect(k, expect, sizeof(expect));
		knob_show(k, old, sizeof(old));
		printk("%s: %s=%s: %s (expected %s); keeping %s\n",
		       src, spelled, val, what[v], expect, old[0] ? old : "\"\"");
		return -1;
	}
	if (k->changed)
		k->changed(k);
	return 0;
}

int knob_apply(const char *name, const char *value)
{
	const struct knob *k = knob_find(name);

	if (!k) {
		const struct knob *close = knob_suggest(name);
		if (close)
			printk("cmdline: unknown parameter '%s' (did you mean %s?)\n", name, close->name);
		else
			printk("cmdline: unknown parameter '%s'\n", name);
		return -1;
	}
	return knob_set(k, name, value, "cmdline");
}

int knob_write(const struct knob *k, const char *value, const char *src)
{
	int ret;

	at_runtime = true;
	ret = knob_set(k, k->name, value, src);
	at_runtime = false;
	return ret;
}

bool knob_at_runtime(void)
{
	return at_runtime;
}

void knobs_init(void)
{
	const struct knob *k;

	for_each_knob(k) {
		switch (k->type) {
		case KNOB_BOOL:
		case KNOB_ENUM:
			*(int *)k->ptr = (int)k->def;
			break;
		case KNOB_INT:
			*(s32 *)k->ptr = (s32)k->def;
			break;
		case KNOB_UINT:
			*(u32 *)k->ptr = (u32)k->def;
			break;
		case KNOB_U64:
			*(u64 *)k->ptr = (u64)k->def;
			break;
		case KNOB_STRING:
			strlcpy((char *)k->ptr, k->def_str ? k->def_str : "",
				(size_t)k->max);
			break;
		case KNOB_CUSTOM:
			if (k->def_str && k->set)
				k->set(k, k->def_str);
			break;
		}
	}
}

/* Keep WORD for init; the first word beyond the limit says so, once. */
static void keep_unknown(const char *word)
{
	if (nr_unknown < CMDLINE_MAX_UNKNOWN)
		unknown_words[nr_unknown++] = word;
	else if (nr_unknown++ == CMDLINE_MAX_UNKNOWN)
		printk("cmdline: more than %d unknown words: '%s' and later ones are not passed to init\n",
		       CMDLINE_MAX_UNKNOWN, word);
}

/*
 * "cmdline: passed to init's programs: mode=thread load=kbuild:10 ..." for the
 * unknown words that are not close to a knob (Linux 5.x says "Unknown kernel
 * command line parameters ..., will be passed to user space").  Words are cut
 * at 32 characters, the line at about 200.
 */
static void print_passed(void)
{
	char line[224];
	size_t n = 0;

	for (int i = 0; i < nr_unknown && i < CMDLINE_MAX_UNKNOWN; i++) {
		const char *w = unknown_words[i];

		if (suggested & (1u << i))
			continue;	/* it had its own line */
		if (n > 190) {
			n += snprintf(line + n, sizeof(line) - n, " ...");
			break;
		}
		n += snprintf(line + n, sizeof(line) - n, " %.32s", w);
	}
	printk("cmdline: passed to init's programs:%s\n", n ? line : "");
}

/*
 * The boot loader's line was FULL_LEN bytes; LINE holds its first
 * strlen(LINE) (the limit) and NEXT is the byte that followed them.  A
 * line that was cut loses, besides its tail, the word the cut fell in
 * (which would otherwise be applied with digits missing): LINE is ended
 * before it, honouring quotes as cmdline_parse() does.  One line says
 * what happened.  Returns the number of bytes dropped (0: the line fit).
 */
size_t cmdline_clip(char *line, size_t full_len, char next)
{
	size_t len = strlen(line), start = 0;
	bool quoted = false;

	if (full_len <= len)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '"')
			quoted = !quoted;
		else if (!quoted && is_blank(line[i]))
			start = i + 1;
	}
	if (start == len || (!quoted && is_blank(next))) {	/* cut between words */
		printk("cmdline: boot line too long (%zu bytes, limit %zu): dropped the last %zu bytes\n",
		       full_len, len, full_len - len);
		return full_len - len;
	}
	printk("cmdline: boot line too long (%zu bytes, limit %zu): dropped the cut word '%.32s%s' and the %zu bytes after it\n",
	       full_len, len, line + start, len - start > 32 ? "..." : "", full_len - len);
	line[start] = '\0';
	return full_len - start;
}

int cmdline_parse(char *line)
{
	char *p = line;
	bool rest_for_init = false;	/* seen "--" */
	int errors = 0;

	nr_unknown = 0;
	suggested = 0;
	int passed = 0;		/* unknown words not close to a knob: one line at the end */
	for (;;) {
		char name[KNOB_NAME_MAX];
		const struct knob *k;
		char *word, *dst, *next, *eq;
		bool quoted = false;
		size_t nlen;

		while (is_blank(*p))
			p++;
		if (!*p)
			break;

		/* Take one word, removing quotes, NUL-terminated in place. */
		word = dst = p;
		while (*p && (quoted || !is_blank(*p))) {
			if (*p == '"')
				quoted = !quoted;
			else
				*dst++ = *p;
			p++;
		}
		next = *p ? p + 1 : p;
		*dst = '\0';
		p = next;

		if (!*word)
			continue;		/* "" */
		if (rest_for_init) {
			keep_unknown(word);
			continue;
		}
		if (!strcmp(word, "--")) {
			rest_for_init = true;
			continue;
		}

		/* NAME is copied out so that WORD stays whole for init. */
		eq = strchr(word, '=');
		nlen = eq ? (size_t)(eq - word) : strlen(word);
		k = NULL;
		if (nlen < sizeof(name)) {
			memcpy(name, word, nlen);
			name[nlen] = '\0';
			k = knob_find(name);
		}
		if (!k) {
			const struct knob *close = nlen < sizeof(name) ? knob_suggest(name) : NULL;
			if (close) {
				printk("cmdline: unknown parameter '%.*s' (did you mean %s?); "
				       "passed to init's programs\n", (int)nlen, word, close->name);
				if (nr_unknown < CMDLINE_MAX_UNKNOWN)
					suggested |= 1u << nr_unknown;
			} else {
				passed++;
			}
			keep_unknown(word);
			errors++;
			continue;
		}
		if (knob_set(k, name, eq ? eq + 1 : NULL, "cmdline"))
			errors++;
	}
	if (passed)
		print_passed();
	return errors;
}

int cmdline_unknown(const char ***words)
{
	*words = unknown_words;
	return nr_unknown < CMDLINE_MAX_UNKNOWN ? nr_unknown : CMDLINE_MAX_UNKNOWN;
}

/* Sort order of knobs_print(): by name, ties by address. */
static int knob_cmp(const struct knob *a, const struct knob *b)
{
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a < b ? -1 : a > b;
}

/*
 * "  name = value" per non-quiet knob, sorted by name.  A selection sort
 * (O(n^2) on a few dozen knobs, no allocation), written with
 * console_write() as a table: no timestamps.
 */
void knobs_print(void)
{
	const struct knob *k, *last = NULL;

	for (;;) {
		const struct knob *best = NULL;
		char val[128], line[224];
		int n;

		for_each_knob(k) {
			if (k->flags & KNOB_F_QUIET)
				continue;
			if (last && knob_cmp(k, last) <= 0)
				continue;
			if (!best || knob_cmp(k, best) < 0)
				best = k;
		}
		if (!best)
			break;
		knob_show(best, val, sizeof(val));
		n = snprintf(line, sizeof(line), "  %s = %s\n", best->name, val);
		if (n >= (int)sizeof(line)) {
			n = (int)sizeof(line) - 1;
			line[n - 1] = '\n';	/* keep the line ending */
		}
		console_write(line, (size_t)n);
		last = best;
	}
}
