/*
 * kernel/sched/tunables.c - the fair scheduler's tunables: Linux 2.6.35's
 * sched sysctls as boot knobs (<kernel/cmdline.h>), the feature mask
 * (sched_features=) and the presets (sched_preset=).
 *
 * Knobs registered (all under their Linux sysctl names; ranges as Linux's
 * kernel/sysctl.c; units ns):
 *	sched_latency_ns		100000..1000000000	default 6000000
 *	sched_min_granularity_ns	100000..1000000000	default 750000
 *	sched_wakeup_granularity_ns	0..1000000000		default 1000000
 *	sched_tunable_scaling		0 none, 1 log, 2 linear	default 1
 *	sched_child_runs_first		0/1			default 0
 *	sched_compat_yield		0/1			default 0
 *	sched_features			NAME,NO_NAME,...	default 0x3C6F
 *	sched_preset			a name from tools/presets, default
 *					commit-0bf377bbb0be
 *	sched_schedstats		0/1 (Linux >= 4.6)	preset's default
 *	schedstats			enable|disable: Linux's boot spelling
 * and Granule's own:
 *	sched_verify			0/1: check invariants (debug.c)
 *	sched_debug			off|end|domains: end-of-run report, domains (debug.c)
 *	sched_std_granularity_ns	[M1/2] DYN_GRAN's gate for n <= nr_latency
 *	sched_nr_latency_max		[M1/2] DYN_GRAN's period threshold
 *	sched_sleeper_wakeup_slice_ns	[M2/2] 0 = patch off
 *	sched_fork_update_clock		2.6.36's rq clock refresh in task_fork_fair
 *	sched_nr_latency		1..10000: Linux's compiled-in sched_nr_latency,
 *					which a preset sets and a write of latency or
 *					min_granularity recomputes (no sysctl in Linux)
 *
 * Defaults are those of the default preset, commit-0bf377bbb0be (Linux
 * 2.6.36).  A write of latency, min_granularity, wakeup_granularity or
 * tunable_scaling runs sched_proc_update_handler(), as Linux's shared
 * sysctl handler does: sched_nr_latency = ceil(latency / min_granularity)
 * and normalized_X = X / factor.  Knobs apply left to right, so
 * "sched_preset=linux-2.6.35 sched_min_granularity_ns=1000000" gives the
 * 2.6.35 preset with 1 ms and sched_nr_latency 6.
 */
#include <kernel/host_test.h>	/* first: HOST_TEST renames vsnprintf/snprintf */

#include "sched.h"
#include <kernel/cmdline.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <kernel/jump_label.h>
#include <kernel/proc.h>
#include <kernel/rtmutex.h>
#include <arch/irqflags.h>

#define NSEC_PER_SEC_32		1000000000U
#define MIN_SCHED_GRAN_NS	100000U		/* 100 us: Linux's floor */

/*
 * The scheduling period: every runnable task should get the CPU once
 * within it, while nr_running <= sched_nr_latency.  6 ms * factor.
 */
u32 sysctl_sched_latency = 6000000U;
u32 normalized_sysctl_sched_latency = 6000000U;

/*
 * The smallest slice: beyond sched_nr_latency tasks the period becomes
 * nr_running * this, and the tick's lead test waits this long.
 * 0.75 ms * factor since [0bf]; 2 ms in 2.6.35.
 */
u32 sysctl_sched_min_granularity = 750000U;
u32 normalized_sysctl_sched_min_granularity = 750000U;

/*
 * sysctl_sched_latency / sysctl_sched_min_granularity: 8 since [0bf],
 * 3 in 2.6.35.  Recomputed (rounded up) only when a sysctl is written.
 */
u32 sched_nr_latency = 8;

/*
 * A woken task preempts only if its vruntime is more than this (converted
 * to its own virtual time) behind current's.  1 ms * factor.
 */
u32 sysctl_sched_wakeup_granularity = 1000000U;
u32 normalized_sysctl_sched_wakeup_granularity = 1000000U;

/* SMP + group scheduling only; kept because the sysctl handler scales it. */
u32 sysctl_sched_shares_ratelimit = 250000U;
u32 normalized_sysctl_sched_shares_ratelimit = 250000U;

/* How the values above scale with the CPU count (default LOG). */
u32 sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG;

/* 1: a fork swaps vruntimes so the child goes first; 0: parent first. */
int sysctl_sched_child_runs_first;

/* 1: sched_yield() puts the caller behind every queued task (old O(1)
 * behaviour); 0: yield only accounts, the caller may run on. */
int sysctl_sched_compat_yield;

/* Granule: run sched_verify() after every schedule, tick and wakeup. */
int sysctl_sched_verify;

/*
 * [M1/2] dyn-gran: the standard (pre-[0bf]) granularity used as the tick
 * gate while nr_running <= sched_nr_latency, and the task count beyond
 * which the period stretches.  Only read when the DYN_GRAN feature is set.
 * Like the patch, std_granularity is not part of the CPU-factor scaling.
 */
u32 sysctl_sched_std_granularity = 2000000U;
u32 sched_nr_latency_max = 8;

/* [M2/2]: run time a woken sleeper is shielded for (2 ms in the patch). */
u32 sysctl_sched_sleeper_wakeup_slice;

/* 2.6.36: task_fork_fair refreshes the rq clock before update_curr. */
int sysctl_sched_fork_update_clock = 1;

/* ---- Feature mask ------------------------------------------------------- */

#define SCHED_FEAT(name, enabled) (1U << __SCHED_FEAT_##name) * (enabled) |
unsigned int sysctl_sched_features =
#include "features.h"
	0;
#undef SCHED_FEAT

unsigned int sched_features_default(void)
{
#define SCHED_FEAT(name, enabled) (1U << __SCHED_FEAT_##name) * (enabled) |
	return
#include "features.h"
		0;
#undef SCHED_FEAT
}

#define SCHED_FEAT(name, enabled) #name,
const char *const sched_feat_names[__SCHED_FEAT_NR] = {
#include "features.h"
};
#undef SCHED_FEAT

/* The default list spelled out, used as the knob's default text. */
#define FEAT_DEF_0(name) "NO_" #name ","
#define FEAT_DEF_1(name) #name ","
#define SCHED_FEAT(name, enabled) FEAT_DEF_##enabled(name)
static const char sched_features_def_str[] =
#include "features.h"
	"";
#undef SCHED_FEAT

#define SCHED_FEAT(name, enabled) " " #name
static const char sched_feat_list[] =		/* " GENTLE_FAIR_SLEEPERS ..." */
#include "features.h"
	;
#undef SCHED_FEAT

/* Index of the LEN-byte NAME in NAMES[0..NR), or -1. */
static int feat_lookup(const char *const *names, int nr, const char *name, size_t len)
{
	for (int i = 0; i < nr; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	return -1;
}

/*
 * Apply "NAME" (set) / "NO_NAME" (clear) words separated by commas or
 * blanks to *MASK, as writes to Linux's sched_features file, with the
 * NR feature NAMES of one class (KNOWN: their list, for the error line).
 * All or nothing: an unknown name leaves *MASK unchanged, prints the known
 * names and returns -1.  CFS's and EEVDF's sched_features= both use it.
 */
int sched_feat_parse_names(const char *list, const char *const *names, int nr,
			   const char *known, unsigned int *maskp)
{
	unsigned int mask = *maskp;
	const char *p = list;

	while (*p) {
		const char *w;
		size_t len;
		int neg = 0, i;

		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && *p != ',' && *p != ' ' && *p != '\t')
			p++;
		len = (size_t)(p - w);
		if (len > 3 && !strncmp(w, "NO_", 3)) {
			neg = 1;
			w += 3;
			len -= 3;
		}
		i = feat_lookup(names, nr, w, len);
		if (i < 0) {
			printk("sched_features: unknown feature '%.*s'; known:%s; nothing changed\n",
			       (int)len, w, known);
			return -1;
		}
		mask = neg ? mask & ~(1U << i) : mask | 1U << i;
	}
	*maskp = mask;
	return 0;
}

/* sched_features= under the running class (EEVDF: Linux 6.12's names). */
int sched_feat_parse(const char *list)
{
	if (sched_eevdf())
		return eevdf_feat_parse(list);
	return sched_feat_parse_names(list, sched_feat_names, __SCHED_FEAT_NR, sched_feat_list,
				      &sysctl_sched_features);
}

/*
 * "GENTLE_FAIR_SLEEPERS START_DEBIT ... NO_NEXT_BUDDY ..." (no newline).
 * CFS's list only: granule_sched_params(2) reaches it at run time, so it
 * has no EEVDF test (eevdf_feat_snprint() is EEVDF's).
 */
int sched_feat_snprint(char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < __SCHED_FEAT_NR; i++) {
		int w = snprintf(buf + (n < len ? n : len),
				 n < len ? len - n : 0, "%s%s%s", i ? " " : "",
				 sysctl_sched_features & (1U << i) ? "" : "NO_",
				 sched_feat_names[i]);
		n += (size_t)w;
	}
	return (int)n;
}

/* The sched_features file (/sys/kernel/debug/sched_features): the running
 * class's list, as its writes go to that class's parser. */
int sched_feat_file_snprint(char *buf, size_t len)
{
	return sched_eevdf() ? eevdf_feat_snprint(buf, len) : sched_feat_snprint(buf, len);
}

/* A bad word: the parser's one line (the word, the known names) is the only
 * one; the registry adds none (KNOB_REFUSED). */
static int features_set(const struct knob *k, const char *val)
{
	return sched_feat_parse(val) ? KNOB_REFUSED : 0;
}

/*
 * For the boot table: "0x3C6F (default)", or the mask and what differs
 * from the default in the input syntax: "0x3D6D (NO_START_DEBIT,HRTICK)".
 * (sched_print_tunables() prints the whole list, as Linux's file.)
 */
static void features_show(const struct knob *k, char *buf, size_t len)
{
	unsigned int def = sched_features_default();
	unsigned int diff = sysctl_sched_features ^ def;
	size_t n;

	if (sched_eevdf()) {
		eevdf_features_show(buf, len);
		return;
	}
	n = (size_t)snprintf(buf, len, "0x%X (%s", sysctl_sched_features,
			     diff ? "" : "default");
	for (int i = 0; i < __SCHED_FEAT_NR && n < len; i++) {
		if (!(diff & (1U << i)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s",
				      (diff & ((1U << i) - 1)) ? "," : "",
				      sysctl_sched_features & (1U << i) ? "" : "NO_",
				      sched_feat_names[i]);
	}
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

__KNOB(sched_features) = {
	.name = "sched_features", .type = KNOB_CUSTOM,
	.ptr = &sysctl_sched_features,
	.def_str = sched_features_def_str,
	.expect = "comma-separated NAME or NO_NAME, names as on the "
		  "sched_features line",
	.set = features_set, .show = features_show,
	.help = "scheduler feature bits: NAME sets, NO_NAME clears (default 0x3C6F)",
};

/* ---- CPU-factor scaling and the shared sysctl write handler ------------- */

static unsigned int ilog2_u32(unsigned int v)
{
	unsigned int r = 0;

	while (v >>= 1)
		r++;
	return r;
}

/*
 * The factor applied to latency, min_granularity, wakeup_granularity and
 * shares_ratelimit: with c = min(ncpus, 8), NONE -> 1, LINEAR -> c,
 * LOG -> 1 + floor(log2 c)  (1, 2, 2, 3, 3, 3, 3, 4 for 1..8 CPUs).
 */
unsigned int sched_tunable_factor(unsigned int scaling, unsigned int ncpus)
{
	unsigned int cpus = ncpus < 8 ? ncpus : 8;

	switch (scaling) {
	case SCHED_TUNABLESCALING_NONE:
		return 1;
	case SCHED_TUNABLESCALING_LINEAR:
		return cpus;
	case SCHED_TUNABLESCALING_LOG:
	default:
		return 1 + ilog2_u32(cpus);
	}
}

unsigned int get_update_sysctl_factor(void)
{
	return sched_tunable_factor(sysctl_sched_tunable_scaling, SCHED_NR_CPUS);
}

/* At boot (and CPU hotplug in Linux): scaled value = factor * normalized. */
void update_sysctl(void)
{
	unsigned int factor = get_update_sysctl_factor();

#define SET_SYSCTL(name) (sysctl_##name = (factor) * normalized_sysctl_##name)
	SET_SYSCTL(sched_min_granularity);
	SET_SYSCTL(sched_latency);
	SET_SYSCTL(sched_wakeup_granularity);
	SET_SYSCTL(sched_shares_ratelimit);
	SET_SYSCTL(sched_base_slice);		/* EEVDF (Linux 6.12) */
#undef SET_SYSCTL
}

/*
 * Linux's sched_proc_update_handler(), run after a write of
 * sched_latency_ns, sched_min_granularity_ns, sched_wakeup_granularity_ns
 * or sched_tunable_scaling: nr_latency = DIV_ROUND_UP(latency, min_gran)
 * and normalized_X = X / factor (factor with the current scaling).
 */
void sched_proc_update_handler(void)
{
	unsigned int factor = get_update_sysctl_factor();

	sched_nr_latency = (sysctl_sched_latency + sysctl_sched_min_granularity - 1)
			   / sysctl_sched_min_granularity;

#define WRT_SYSCTL(name) (normalized_sysctl_##name = sysctl_##name / (factor))
	WRT_SYSCTL(sched_min_granularity);
	WRT_SYSCTL(sched_latency);
	WRT_SYSCTL(sched_wakeup_granularity);
	WRT_SYSCTL(sched_shares_ratelimit);
#undef WRT_SYSCTL
}

static void sched_sysctl_changed(const struct knob *k)
{
	sched_proc_update_handler();
}

/*
 * A CFS knob under EEVDF: one line, nothing changes (the check hook of
 * the registry).  "see" names the 6.12 knob that took over, if any.
 */
int sched_knob_cfs_only(const struct knob *k)
{
	if (!sched_eevdf())
		return 0;
	if (!strcmp(k->name, "sched_latency_ns") ||
	    !strcmp(k->name, "sched_min_granularity_ns") ||
	    !strcmp(k->name, "sched_wakeup_granularity_ns"))
		printk("%s has no effect under %s (EEVDF); see sched_base_slice_ns\n",
		       k->name, sched_preset_name());
	else
		printk("%s has no effect under %s (EEVDF)\n", k->name,
		       sched_preset_name());
	return -1;
}

__KNOB(sched_latency_ns) = {
	.name = "sched_latency_ns", .type = KNOB_UINT, .check = sched_knob_cfs_only,
	.ptr = &sysctl_sched_latency, .def = 6000000,
	.min = MIN_SCHED_GRAN_NS, .max = NSEC_PER_SEC_32,
	.changed = sched_sysctl_changed,
	.help = "CFS target period for up to sched_nr_latency tasks, ns",
};

__KNOB(sched_min_granularity_ns) = {
	.name = "sched_min_granularity_ns", .type = KNOB_UINT, .check = sched_knob_cfs_only,
	.ptr = &sysctl_sched_min_granularity, .def = 750000,
	.min = MIN_SCHED_GRAN_NS, .max = NSEC_PER_SEC_32,
	.changed = sched_sysctl_changed,
	.help = "CFS minimum slice; period = n * this beyond sched_nr_latency, ns",
};

__KNOB(sched_wakeup_granularity_ns) = {
	.name = "sched_wakeup_granularity_ns", .type = KNOB_UINT, .check = sched_knob_cfs_only,
	.ptr = &sysctl_sched_wakeup_granularity, .def = 1000000,
	.min = 0, .max = NSEC_PER_SEC_32,
	.changed = sched_sysctl_changed,
	.help = "CFS wakeup preemption granularity (woken task's virtual time), ns",
};

__KNOB(sched_tunable_scaling) = {
	.name = "sched_tunable_scaling", .type = KNOB_UINT,
	.ptr = &sysctl_sched_tunable_scaling, .def = SCHED_TUNABLESCALING_LOG,
	.min = 0, .max = SCHED_TUNABLESCALING_END - 1,
	.changed = sched_sysctl_changed,
	.help = "CPU-count scaling of the CFS times: 0 none, 1 log, 2 linear",
};

/* The CFS-only knobs below refuse writes under EEVDF (sched_knob_cfs_only). */
#define DEFINE_KNOB_CFS(id, typ, var, d, lo, hi, h) \
	__KNOB(id) = { .name = #id, .type = typ, .ptr = &(var), .def = (d), \
		       .min = (lo), .max = (hi), .help = (h), \
		       .check = sched_knob_cfs_only }
DEFINE_KNOB_CFS(sched_child_runs_first, KNOB_BOOL, sysctl_sched_child_runs_first, 0, 0, 1,
		"after fork the child runs first (swaps vruntimes with the parent)");
DEFINE_KNOB_CFS(sched_compat_yield, KNOB_BOOL, sysctl_sched_compat_yield, 0, 0, 1,
		"sched_yield() moves the task behind every other queued task");
DEFINE_KNOB_BOOL(sched_verify, sysctl_sched_verify, 0,
		 "check the runqueue invariants after every schedule/tick/wakeup");
DEFINE_KNOB_CFS(sched_std_granularity_ns, KNOB_UINT, sysctl_sched_std_granularity,
		2000000, MIN_SCHED_GRAN_NS, NSEC_PER_SEC_32,
		"[M1/2] DYN_GRAN: tick gate while nr_running <= sched_nr_latency, ns");
DEFINE_KNOB_CFS(sched_nr_latency_max, KNOB_UINT, sched_nr_latency_max, 8, 1, 1000,
		"[M1/2] DYN_GRAN: the period stretches beyond this many tasks");
DEFINE_KNOB_CFS(sched_sleeper_wakeup_slice_ns, KNOB_UINT, sysctl_sched_sleeper_wakeup_slice,
		0, 0, NSEC_PER_SEC_32,
		"[M2/2] run a woken sleeper is shielded from the vruntime test, ns (0 = off)");
DEFINE_KNOB_CFS(sched_fork_update_clock, KNOB_BOOL, sysctl_sched_fork_update_clock, 1, 0, 1,
		"2.6.36: refresh the rq clock at the start of task_fork_fair");
/* Up to DIV_ROUND_UP(1 s, 0.1 ms), what the handler can compute. */
DEFINE_KNOB_CFS(sched_nr_latency, KNOB_UINT, sched_nr_latency, 8, 1, 10000,
		"tasks the period covers before it stretches (set by presets; recomputed "
		"by latency/min_granularity writes)");

/* ---- schedstats (Linux 4.6's set_schedstats) ------------------------------- */

/*
 * The schedstat helpers (stats.h) sit behind this key: patched sites, not
 * a flag test.  On for the 2.6.35-era presets (CONFIG_SCHEDSTATS=y, always
 * counted), off for linux-6.12 as Linux 6.12's default; schedstats= and
 * kernel.sched_schedstats then override, left to right.
 */
struct static_key sched_schedstats_key = STATIC_KEY_INIT_TRUE;
int sysctl_sched_schedstats = 1;
/* Whether schedstats were off at any time since boot (sched_debug says so). */
int sched_schedstats_were_off;

/*
 * Turning them on restarts the stamps a helper closes later, as if every
 * wait, run and sleep began now: a wait_start, last_queued or last_arrival
 * left from before the off period would count it all.
 */
static void schedstats_restart(void)
{
	struct rq *rq = this_rq();
	struct task *p;

	list_for_each_entry(p, &task_list, tasks) {
		p->sched_info.last_queued = 0;
		p->se.statistics.wait_start = 0;
		p->se.statistics.sleep_start = 0;
		p->se.statistics.block_start = 0;
		if (p == rq->curr) {
			p->sched_info.last_arrival = rq->clock;
		} else if (p->se.on_rq) {
			p->sched_info.last_queued = rq->clock;
			p->se.statistics.wait_start = rq->clock;
		}
	}
}

void set_schedstats(int on)
{
	unsigned long flags;

	local_irq_save(flags);
	if (on && !static_key_enabled(&sched_schedstats_key))
		schedstats_restart();
	if (!on)
		sched_schedstats_were_off = 1;
	sysctl_sched_schedstats = on;
	static_key_set(&sched_schedstats_key, on);
	local_irq_restore(flags);
}

static void schedstats_changed(const struct knob *k)
{
	set_schedstats(sysctl_sched_schedstats);
}

/* /proc/sys/kernel/sched_schedstats: 0 or 1, as Linux's proc_dointvec_minmax. */
__KNOB(sched_schedstats) = {
	.name = "sched_schedstats", .type = KNOB_INT,
	.ptr = &sysctl_sched_schedstats, .def = 1, .min = 0, .max = 1,
	.changed = schedstats_changed,
	.help = "scheduler statistics (schedstats): 1 collect, 0 skip (patched branches)",
};

/* schedstats=enable|disable, Linux's boot parameter (setup_schedstats). */
static int schedstats_set(const struct knob *k, const char *val)
{
	if (!strcmp(val, "enable"))
		set_schedstats(1);
	else if (!strcmp(val, "disable"))
		set_schedstats(0);
	else
		return -1;
	return 0;
}

static void schedstats_show(const struct knob *k, char *buf, size_t len)
{
	strlcpy(buf, sysctl_sched_schedstats ? "enable" : "disable", len);
}

__KNOB(schedstats) = {
	.name = "schedstats", .type = KNOB_CUSTOM,
	.def_str = "enable", .expect = "enable|disable",
	.set = schedstats_set, .show = schedstats_show,
	.help = "Linux's boot spelling of sched_schedstats: enable or disable",
};

/* ---- Presets -------------------------------------------------------------- */

#define FEAT(x)		(1U << __SCHED_FEAT_##x)

/*
 * A preset writes a whole configuration: the normalized times (then
 * scaled by the CPU factor, as Linux does at boot), sched_nr_latency as
 * compiled (not recomputed), the feature mask = default | set & ~clear,
 * and the variant knobs.  It leaves child_runs_first, compat_yield,
 * tunable_scaling and sched_verify alone.  The presets themselves are the
 * lines of tools/presets, the one source of truth.
 */
struct sched_preset {
	const char *name;
	const char *alias;		/* a second accepted spelling, or NULL */
	u32 latency, min_gran, wakeup_gran, nr_latency;
	unsigned int feat_set, feat_clear;
	u32 std_gran, nr_latency_max, sleeper_slice;
	int fork_update_clock;
};

/* One initializer per line of tools/presets (tools/genpresets, at build time). */
static const struct sched_preset sched_presets[] = {
#include <gen/sched_presets.h>
};

/* A CFS preset by name or alias, or NULL. */
static const struct sched_preset *preset_lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(sched_presets); i++)
		if (!strcmp(name, sched_presets[i].name) ||
		    (sched_presets[i].alias && !strcmp(name, sched_presets[i].alias)))
			return &sched_presets[i];
	return NULL;
}

static char sched_preset_buf[32] = "commit-0bf377bbb0be";

/* Which fair class runs: copy its table into fair_sched_class. */
int sched_eevdf_running;

/* granule_sched_params(2)'s text: CFS's or EEVDF's (a pointer, not a test,
 * so that CFS's run-time path is the instructions it was). */
static int (*sched_params_snprint_fn)(char *buf, size_t len) = sched_params_snprint;

void sched_select_fair_class(int eevdf)
{
	fair_sched_class_rw = eevdf ? eevdf_sched_class : cfs_sched_class;
	sched_eevdf_running = eevdf;
	sched_params_snprint_fn = eevdf ? eevdf_params_snprint : sched_params_snprint;
	task_sched_runtime = eevdf ? task_sched_runtime_612 : task_sched_runtime_2635;
}

__host_test_only const char *sched_preset_name(void)
{
	return sched_preset_buf;
}

int sched_preset_apply(const char *name)
{
	const struct sched_preset *ps;

	if (!strcmp(name, EEVDF_PRESET)) {		/* eevdf_tunables.c */
		eevdf_preset_apply();
		set_schedstats(0);			/* Linux 6.12's default */
		strlcpy(sched_preset_buf, EEVDF_PRESET, sizeof(sched_preset_buf));
		return 0;
	}
	ps = preset_lookup(name);
	if (!ps)
		return -1;

	sched_select_fair_class(0);			/* CFS */
	normalized_sysctl_sched_latency = ps->latency;
	normalized_sysctl_sched_min_granularity = ps->min_gran;
	normalized_sysctl_sched_wakeup_granularity = ps->wakeup_gran;
	update_sysctl();
	sched_nr_latency = ps->nr_latency;
	sysctl_sched_features = (sched_features_default() | ps->feat_set) &
				~ps->feat_clear;
	sysctl_sched_std_granularity = ps->std_gran;
	sched_nr_latency_max = ps->nr_latency_max;
	sysctl_sched_sleeper_wakeup_slice = ps->sleeper_slice;
	sysctl_sched_fork_update_clock = ps->fork_update_clock;
	set_schedstats(1);				/* CONFIG_SCHEDSTATS=y */
	strlcpy(sched_preset_buf, ps->name, sizeof(sched_preset_buf));
	return 0;
}

/*
 * At boot any preset; at run time (/proc/sys/kernel/sched_preset, the
 * preset program) only one of the running class: CFS and EEVDF are chosen
 * before any task exists (sched_select_fair_class), so switching needs a
 * reboot.  The other class's name gets one line and changes nothing.
 */
static int preset_set(const struct knob *k, const char *val)
{
	int eevdf = !strcmp(val, EEVDF_PRESET);

	if (knob_at_runtime() && (eevdf || preset_lookup(val)) && eevdf != sched_eevdf()) {
		printk("sysctl: sched_preset=%s: the scheduling class (%s) is chosen at boot: "
		       "reboot with sched_preset=%s; keeping %s\n", val, eevdf ? "EEVDF" : "CFS",
		       val, sched_preset_buf);
		return KNOB_REFUSED;
	}
	return sched_preset_apply(val);
}

static void preset_show(const struct knob *k, char *buf, size_t len)
{
	strlcpy(buf, sched_preset_buf, len);
}

__KNOB(sched_preset) = {
	.name = "sched_preset", .type = KNOB_CUSTOM,
	.ptr = sched_preset_buf,
	.def_str = "commit-0bf377bbb0be",
	.expect = "one of linux-2.6.35|commit-0bf377bbb0be|no-start-debit|"
		  "dyn-gran|dyn-gran-sleeper|start-nice|start-nice-debit|"
		  "deadline|cpt-fix|" EEVDF_PRESET,
	.set = preset_set, .show = preset_show,
	.help = "a whole scheduler configuration (tools/presets); later knobs override",
};

/* ---- Printing ------------------------------------------------------------- */

#define out console_printf	/* raw: no printk timestamps */

/*
 * The effective values, `sysctl -a` style for Linux's sysctls (sorted),
 * then the feature file and Granule's derived/variant values.
 */
void sched_print_tunables(void)
{
	char feats[512];

	if (sched_eevdf()) {
		eevdf_print_tunables();
		return;
	}
	out("kernel.sched_child_runs_first = %d\n", sysctl_sched_child_runs_first);
	out("kernel.sched_compat_yield = %d\n", sysctl_sched_compat_yield);
	out("kernel.sched_latency_ns = %u\n", sysctl_sched_latency);
	out("kernel.sched_min_granularity_ns = %u\n", sysctl_sched_min_granularity);
	out("kernel.sched_tunable_scaling = %u\n", sysctl_sched_tunable_scaling);
	out("kernel.sched_wakeup_granularity_ns = %u\n",
	    sysctl_sched_wakeup_granularity);
	sched_feat_snprint(feats, sizeof(feats));
	out("sched_features = %s\n", feats);
	out("sched_nr_latency = %u\n", sched_nr_latency);
	out("sched_preset = %s\n", sched_preset_buf);
	out("sched_std_granularity_ns = %u\n", sysctl_sched_std_granularity);
	out("sched_nr_latency_max = %u\n", sched_nr_latency_max);
	out("sched_sleeper_wakeup_slice_ns = %u\n", sysctl_sched_sleeper_wakeup_slice);
	out("sched_fork_update_clock = %d\n", sysctl_sched_fork_update_clock);
}

/* ---- granule_sched_params(2) ---------------------------------------------- */

/*
 * The effective configuration as "key=value\n" lines, for programs that
 * label their results (the bench tool, spin, microbench):
 *	sched_preset, every sysctl under its Linux name, sched_nr_latency,
 *	the variant knobs, sched_features (the sched_features file's list),
 *	sched_features_mask, hz; then two counters that are not knobs
 *	(nr_switches, nr_running) so a benchmark can count context switches.
 * Returns the length of the whole text (excluding the NUL), as snprintf.
 */
int sched_params_snprint(char *buf, size_t len)
{
	struct rq *rq = this_rq();
	char feats[512];
	size_t n = 0;
#define EMIT(...) (n += (size_t)snprintf(buf + (n < len ? n : len),	\
					 n < len ? len - n : 0, __VA_ARGS__))
	sched_feat_snprint(feats, sizeof(feats));
	EMIT("sched_preset=%s\n", sched_preset_buf);
	EMIT("sched_child_runs_first=%d\n", sysctl_sched_child_runs_first);
	EMIT("sched_compat_yield=%d\n", sysctl_sched_compat_yield);
	EMIT("sched_latency_ns=%u\n", sysctl_sched_latency);
	EMIT("sched_min_granularity_ns=%u\n", sysctl_sched_min_granularity);
	EMIT("sched_tunable_scaling=%u\n", sysctl_sched_tunable_scaling);
	EMIT("sched_wakeup_granularity_ns=%u\n", sysctl_sched_wakeup_granularity);
	EMIT("sched_nr_latency=%u\n", sched_nr_latency);
	EMIT("sched_std_granularity_ns=%u\n", sysctl_sched_std_granularity);
	EMIT("sched_nr_latency_max=%u\n", sched_nr_latency_max);
	EMIT("sched_sleeper_wakeup_slice_ns=%u\n", sysctl_sched_sleeper_wakeup_slice);
	EMIT("sched_fork_update_clock=%d\n", sysctl_sched_fork_update_clock);
	EMIT("sched_verify=%d\n", sysctl_sched_verify);
	EMIT("sched_features=%s\n", feats);
	EMIT("sched_features_mask=0x%X\n", sysctl_sched_features);
	EMIT("hz=%u\n", HZ);
	EMIT("nr_switches=%llu\n", (unsigned long long)rq->nr_switches);
	EMIT("nr_running=%u\n", (unsigned)rq->nr_running);
#undef EMIT
	return (int)n;
}

/*
 * long granule_sched_params(char *buf, int len)  (Granule-private call G+3):
 * the text above, at most LEN bytes including a terminating NUL; returns
 * the full length (so a result >= LEN means truncated), -EINVAL for a
 * negative LEN, -EFAULT for a bad BUF.
 */
long sys_granule_sched_params(char *ubuf, int len)
{
	static char text[1024];
	unsigned long flags;
	int n;
	size_t copy;

	if (len < 0)
		return -EINVAL;
	local_irq_save(flags);
	n = sched_params_snprint_fn(text, sizeof(text));
	local_irq_restore(flags);
	if (n > (int)sizeof(text) - 1)
		n = (int)sizeof(text) - 1;
	if (!len)
		return n;
	copy = (size_t)n < (size_t)len - 1 ? (size_t)n : (size_t)len - 1;
	text[copy] = '\0';
	if (copy_to_user(ubuf, text, copy + 1))
		return -EFAULT;
	return n;
}

/* ---- The rt class's throttling and RR knobs (rt.c) ------------------------ */

/*
 * sched_rt_period_us / sched_rt_runtime_us as 2.6.35's sched_rt_handler()
 * (proc_dointvec, then sched_rt_global_constraints()): any integer, but a
 * period of 0 is EINVAL and a runtime of 0 EBUSY ("there's always some RT
 * tasks in the root group").  A runtime at or above the period never
 * throttles, and any negative one is RUNTIME_INF, as -1.
 *
 * Deliberate difference: the period is 1..INT_MAX.  2.6.35's is an
 * unsigned int written through proc_dointvec, so -1 became a period of
 * 4294967295 us (71 minutes); Linux refuses negative periods since LKML
 * "sched/rt: Disallow writing invalid values to sched_rt_period_us" (2023).
 */
static int rt_knob_set(const struct knob *k, const char *val)
{
	int is_period = k->ptr == &sysctl_sched_rt_period;
	unsigned int cpu;
	s32 v;

	if (kstrtos32(val, 10, &v) || (is_period && v < 1))
		return -1;			/* the registry's "expected" line */
	if (!is_period && !v) {
		printk("sysctl: %s=%s refused (EBUSY): rt throttling cannot take all the time "
		       "of rt tasks; -1 is no limit\n", k->name, val);
		return KNOB_BUSY;
	}
	*(int *)k->ptr = v;
	for_each_possible_cpu(cpu)
		cpu_rq(cpu)->rt.rt_runtime = sched_rt_runtime();
	return 0;
}

static void rt_knob_show(const struct knob *k, char *buf, size_t len)
{
	snprintf(buf, len, "%d", *(int *)k->ptr);
}

__KNOB(sched_rt_period_us) = {
	.name = "sched_rt_period_us", .type = KNOB_CUSTOM,
	.ptr = &sysctl_sched_rt_period, .def_str = "1000000",
	.expect = "an integer 1..2147483647 (us)",
	.set = rt_knob_set, .show = rt_knob_show,
	.help = "rt throttling period: rt tasks run at most sched_rt_runtime_us of it, us",
};

__KNOB(sched_rt_runtime_us) = {
	.name = "sched_rt_runtime_us", .type = KNOB_CUSTOM,
	.ptr = &sysctl_sched_rt_runtime, .def_str = "950000",
	.expect = "an integer other than 0 (us; negative: no limit)",
	.set = rt_knob_set, .show = rt_knob_show,
	.help = "rt throttling: rt time allowed per sched_rt_period_us, us (negative = no limit)",
};

/* kernel.max_lock_depth (2.6.35's proc_dointvec: any integer; at most that
 * many locks in a PI chain walk, rtmutex.c). */
DEFINE_KNOB_INT(max_lock_depth, max_lock_depth, DEFAULT_MAX_LOCK_DEPTH, -2147483647 - 1, 2147483647,
		"PI chain walk: at most this many locks deep (-EDEADLK beyond, for futexes)");

/* Linux 3.9+ (and 6.12): a knob exists only under sched_preset=linux-6.12. */
static int rr_knob_eevdf_only(const struct knob *k)
{
	if (sched_eevdf())
		return 0;
	printk("%s does not exist in Linux 2.6.35 (RR slice fixed at 100 ms); "
	       "boot with sched_preset=%s to have it\n", k->name, EEVDF_PRESET);
	return -1;
}

/* 6.12's sched_rr_handler(): <= 0 restores RR_TIMESLICE (100 ms). */
static void rr_knob_changed(const struct knob *k)
{
	if (sysctl_sched_rr_timeslice <= 0)
		sysctl_sched_rr_timeslice = RR_TIMESLICE_MS;
}

__KNOB(sched_rr_timeslice_ms) = {
	.name = "sched_rr_timeslice_ms", .type = KNOB_INT,
	.ptr = &sysctl_sched_rr_timeslice, .def = RR_TIMESLICE_MS,
	.min = -2147483647 - 1, .max = 2147483647,
	.check = rr_knob_eevdf_only, .changed = rr_knob_changed,
	.help = "6.12: SCHED_RR timeslice, ms (<= 0 restores 100)",
};
