/*
 * tools/granule/sim/engine/calib.c - the kernel's costs for the simulated machine, read
 * from the calibration file that `tools/sim calibrate` writes from QEMU runs
 * of the image (tools/granule/sim/engine/calibration):
 *	# comment
 *	commit <the image's commit>
 *	<name> <ns>			one per field of struct sim_costs
 *	eevdf.<name> <ns>		the same path under sched_preset=linux-6.12
 *					(its class's code is another length)
 *	smp.<name> <ns>			the same as <name>: the costs of an SMP
 *					machine (tools/granule/sim/smp_costs.py), charged
 *					only at --cpus N > 1
 *	rtapp.<name> <ns>		rt-app's own code, not the kernel's: read by
 *					tools/granule/sim/rtapp_sim.py, which hands them
 *					to `build/sim rtapp` in its spec; skipped here
 * Every field must be present; a bad line is one error naming it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "common.h"

#define F(name) { #name, offsetof(struct sim_costs, name) }
static const struct { const char *name; size_t off; } fields[] = {
	F(tick), F(hrtimer_wake), F(timer_signal), F(switch_in), F(fork_parent),
	F(fork_child), F(clone_parent), F(clone_child), F(exit), F(wait), F(sleep),
	F(helper), F(notify_pre), F(notify_post), F(sig_pre), F(sig_post), F(exec),
	F(burn_chunk), F(preempt), F(preempt_rt), F(tick_preempt), F(start_phase_100), F(start_phase_250), F(start_phase_300),
	F(start_phase_1000), F(tick_period_100), F(tick_period_250), F(tick_period_300),
	F(tick_period_1000), F(ipi_send), F(ipi_recv), F(balance), F(idle_balance), F(migrate),
	F(active_balance), F(smp_tick), F(smp_switch), F(smp_wake), F(proc_sched_read),
};
#define NFIELDS	(sizeof(fields) / sizeof(fields[0]))

static void bad(const char *path, int line, const char *what)
{
	char where[512];

	snprintf(where, sizeof(where), "%s:%d", path, line);
	die("%s: %s", where, what);
}

void calib_load(const char *path, struct sim_costs *c, int eevdf)
{
	FILE *f = fopen(path, "r");
	char buf[256], key[64], val[64], extra[8];
	unsigned long long seen = 0, over = 0;	/* bit i: fields[i] */
	const char *name;
	int line = 0;

	if (!f)
		die("%s: cannot read the calibration file (tools/sim calibrate writes it)%s", path, "");
	memset(c, 0, sizeof(*c));
	while (fgets(buf, sizeof(buf), f)) {
		unsigned i;
		char *end;
		unsigned long long v;

		line++;
		if (buf[0] == '#' || sscanf(buf, "%63s", key) != 1 || !strncmp(key, "rtapp.", 6))
			continue;
		if (sscanf(buf, "%63s %62s %7s", key, val, extra) != 2)
			bad(path, line, "expected 'NAME VALUE'");
		if (!strcmp(key, "commit")) {
			snprintf(c->commit, sizeof(c->commit), "%s", val);
			continue;
		}
		if (!strncmp(key, "smp.", 4))
			memmove(key, key + 4, strlen(key + 4) + 1);
		name = !strncmp(key, "eevdf.", 6) ? key + 6 : key;
		for (i = 0; i < NFIELDS && strcmp(fields[i].name, name); i++)
			;
		if (i == NFIELDS)
			bad(path, line, "unknown cost name");
		v = strtoull(val, &end, 10);
		if (*end || val[0] == '-' || v > 1000000000ULL)
			bad(path, line, "the value is not a number of ns in 0..1000000000");
		if (name != key && !eevdf)
			continue;		/* the other class's */
		if (name != key || !(over & (1ULL << i)))
			*(u64 *)((char *)c + fields[i].off) = v;
		if (name != key)
			over |= 1ULL << i;	/* the class's own beats the base line */
		seen |= 1ULL << i;
	}
	fclose(f);
	for (unsigned i = 0; i < NFIELDS; i++)
		if (!(seen & (1ULL << i)))
			die("%s: no value for '%s'", path, fields[i].name);
}

void calib_hz(const struct sim_costs *c, unsigned hz, u64 *phase, u64 *period)
{
	*phase = hz == 100 ? c->start_phase_100 : hz == 250 ? c->start_phase_250 :
		 hz == 300 ? c->start_phase_300 : c->start_phase_1000;
	*period = hz == 100 ? c->tick_period_100 : hz == 250 ? c->tick_period_250 :
		  hz == 300 ? c->tick_period_300 : c->tick_period_1000;
	if (!*period)
		*period = 1000000000ULL / hz;
}
