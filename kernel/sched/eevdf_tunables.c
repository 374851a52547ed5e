/*
 * kernel/sched/eevdf_tunables.c - the EEVDF class's knobs: the preset
 * sched_preset=linux-6.12, the base slice, Linux 6.12's feature bits, and
 * how the configuration is printed (boot table, granule_sched_params).
 *
 * Knobs (Linux 6.12 has them in debugfs, /sys/kernel/debug/sched/):
 *	sched_base_slice_ns	100000..1000000000	default 700000
 *		(base_slice_ns; Debian's 6.12 stable: 0.70 ms; the v6.12 tag
 *		had 0.75 ms; scaled by the tunable-scaling factor, which is 1
 *		on one CPU; Linux's debugfs file takes any u32, the range here
 *		is that of the sysctl it replaced, sched_min_granularity_ns)
 *	sched_features		Linux 6.12's names (features_eevdf.h)
 * sched_tunable_scaling, sched_verify and sched_debug are shared with CFS.
 * The CFS knobs refuse writes under EEVDF (tunables.c), and
 * sched_base_slice_ns refuses them under CFS, with one line each.
 */
#ifdef HOST_TEST
#define vsnprintf kvsnprintf
#define snprintf ksnprintf
#endif

#include "eevdf.h"
#include <kernel/cmdline.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <arch/irqflags.h>

#define NSEC_PER_SEC_32		1000000000U

/* ---- Feature mask (features_eevdf.h) ------------------------------------ */

#define SCHED_FEAT(name, enabled) (1U << __EEVDF_FEAT_##name) * (enabled) |
unsigned int sysctl_sched_features_eevdf =
#include "features_eevdf.h"
	0;

unsigned int sched_features_eevdf_default(void)
{
	return
#include "features_eevdf.h"
		0;
}
#undef SCHED_FEAT

#define SCHED_FEAT(name, enabled) #name,
const char *const eevdf_feat_names[__EEVDF_FEAT_NR] = {
#include "features_eevdf.h"
};
#undef SCHED_FEAT

#define SCHED_FEAT(name, enabled) " " #name
static const char eevdf_feat_list[] =
#include "features_eevdf.h"
	;
#undef SCHED_FEAT

/* sched_features= under EEVDF: Linux 6.12's names and mask (tunables.c's parser). */
int eevdf_feat_parse(const char *list)
{
	return sched_feat_parse_names(list, eevdf_feat_names, __EEVDF_FEAT_NR, eevdf_feat_list,
				      &sysctl_sched_features_eevdf);
}

/* "PLACE_LAG PLACE_DEADLINE_INITIAL ... NO_NEXT_BUDDY ..." (no newline). */
int eevdf_feat_snprint(char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < __EEVDF_FEAT_NR; i++)
		n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
				      "%s%s%s", i ? " " : "",
				      sysctl_sched_features_eevdf & (1U << i) ? "" : "NO_",
				      eevdf_feat_names[i]);
	return (int)n;
}

/* The boot table's "0xBE5C7DF (default)" or "0x... (NO_PLACE_LAG)". */
void eevdf_features_show(char *buf, size_t len)
{
	unsigned int mask = sysctl_sched_features_eevdf;
	unsigned int diff = mask ^ sched_features_eevdf_default();
	size_t n;

	n = (size_t)snprintf(buf, len, "0x%X (%s", mask, diff ? "" : "default");
	for (int i = 0; i < __EEVDF_FEAT_NR && n < len; i++)
		if (diff & (1U << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s",
					      (diff & ((1U << i) - 1)) ? "," : "",
					      mask & (1U << i) ? "" : "NO_",
					      eevdf_feat_names[i]);
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

/* ---- The base slice --------------------------------------------------------- */

/* A write: the normalized value follows (Linux's sched_update_scaling()). */
static void base_slice_changed(const struct knob *k)
{
	normalized_sysctl_sched_base_slice =
		sysctl_sched_base_slice / get_update_sysctl_factor();
}

/* Under CFS: one line, nothing changes. */
static int sched_knob_eevdf_only(const struct knob *k)
{
	if (sched_eevdf())
		return 0;
	printk("%s has no effect under %s (CFS); see sched_min_granularity_ns\n",
	       k->name, sched_preset_name());
	return -1;
}

__KNOB(sched_base_slice_ns) = {
	.name = "sched_base_slice_ns", .type = KNOB_UINT,
	.ptr = &sysctl_sched_base_slice, .def = 700000,
	.min = 100000, .max = NSEC_PER_SEC_32,
	.changed = base_slice_changed, .check = sched_knob_eevdf_only,
	.help = "EEVDF (linux-6.12) request size: deadline = vruntime + slice/w, ns",
};

/*
 * sched_preset=linux-6.12: the EEVDF class runs, base slice 0.70 ms *
 * factor, the 6.12 default features.  tunable_scaling, verify and
 * sched_debug are left alone, as with the CFS presets.
 */
void eevdf_preset_apply(void)
{
	sched_select_fair_class(1);
	normalized_sysctl_sched_base_slice = 700000U;
	update_sysctl();
	sysctl_sched_features_eevdf = sched_features_eevdf_default();
}

/* ---- Printing ------------------------------------------------------------- */

#define out console_printf	/* raw: no printk timestamps */

/*
 * The boot block under EEVDF: the debugfs knobs of Linux 6.12 under
 * Granule's knob names (Linux 6.12 has no sched sysctls left), then the
 * feature file and the preset.
 */
void eevdf_print_tunables(void)
{
	char feats[768];

	eevdf_feat_snprint(feats, sizeof(feats));
	out("sched_class = eevdf (Linux 6.12 fair.c: EEVDF, lag placement, delayed dequeue)\n");
	out("sched_base_slice_ns = %u\n", sysctl_sched_base_slice);
	out("sched_tunable_scaling = %u\n", sysctl_sched_tunable_scaling);
	out("sched_features = %s\n", feats);
	out("sched_preset = %s\n", sched_preset_name());
}

/* granule_sched_params(2) under EEVDF: the keys that exist in 6.12. */
int eevdf_params_snprint(char *buf, size_t len)
{
	struct rq *rq = this_rq();
	char feats[768];
	size_t n = 0;

#define EMIT(...) (n += (size_t)snprintf(buf + (n < len ? n : len),	\
					 n < len ? len - n : 0, __VA_ARGS__))
	eevdf_feat_snprint(feats, sizeof(feats));
	EMIT("sched_preset=%s\n", sched_preset_name());
	EMIT("sched_class=eevdf\n");
	EMIT("sched_base_slice_ns=%u\n", sysctl_sched_base_slice);
	EMIT("sched_tunable_scaling=%u\n", sysctl_sched_tunable_scaling);
	EMIT("sched_verify=%d\n", sysctl_sched_verify);
	EMIT("sched_features=%s\n", feats);
	EMIT("sched_features_mask=0x%X\n", sysctl_sched_features_eevdf);
	EMIT("hz=%u\n", HZ);
	EMIT("nr_switches=%llu\n", (unsigned long long)rq->nr_switches);
	EMIT("nr_running=%u\n", (unsigned)rq->nr_running);
#undef EMIT
	return (int)n;
}

/* ---- Custom slices (sched_setattr's sched_runtime) ------------------------ */

/*
 * Linux 6.12's __setscheduler_params() for a fair policy: a non-zero
 * sched_runtime becomes P's own slice, clamped to 0.1..100 ms
 * (NSEC_PER_MSEC/10, "HZ=1000 * 10", and NSEC_PER_MSEC*100, "HZ=100 / 10");
 * 0 returns P to the base slice.  update_deadline() and place_entity()
 * use it from the next request on.
 */
void eevdf_set_slice(struct task *p, u64 runtime)
{
	if (runtime) {
		p->se.custom_slice = 1;
		p->se.slice = (u32)clamp(runtime, EEVDF_SLICE_MIN, EEVDF_SLICE_MAX);
	} else {
		p->se.custom_slice = 0;
		p->se.slice = sysctl_sched_base_slice;
	}
}

/*
 * sched_setattr(2) of a fair task's slice alone (Linux 6.12's
 * __sched_setscheduler() goes to "change:" when sched_runtime differs from
 * se.slice): dequeue (DEQUEUE_SAVE: the lag and the relative deadline are
 * kept), put_prev if running, __setscheduler_params() (the new slice),
 * enqueue (ENQUEUE_RESTORE: place_entity() puts it back at V - lag), and
 * set_next_task(), whose set_next_entity() renews current's slice
 * protection (RUN_TO_PARITY: vlag = deadline).  A delayed sleeper goes
 * through the same dequeue/enqueue and stays delayed, as in 6.12 (which
 * flushes it, DEQUEUE_DELAYED, only when the class changes).
 */
void eevdf_change_slice(struct task *p, u64 runtime)
{
	int on_rq, running;
	unsigned long flags;
	struct rq *rq;

	if (runtime == p->se.slice)
		return;			/* 6.12: nothing to change, no requeue */
	rq = task_rq_lock_irqsave(p, &flags);	/* 6.12: task_rq_lock() */
	update_rq_clock(rq);
	on_rq = p->se.on_rq;
	running = task_current(rq, p);
	if (on_rq)
		dequeue_task(rq, p, 0);
	if (running)
		p->sched_class->put_prev_task(rq, p);

	eevdf_set_slice(p, runtime);

	if (on_rq)
		enqueue_task(rq, p, 0);
	if (running)
		p->sched_class->set_curr_task(rq);
	sched_verify_hook(rq);
	task_rq_unlock_irqrestore(rq, &flags);
}
