/*
 * user/bench/bench.c - clocks, CPU burning, fixed point, JSON
 * lines and the kernel's scheduler parameters for the experiment's
 * programs (see <bench.h>).
 */
#include <bench.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "../lib/ulib.h"

int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts) < 0)
		return 0;
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

struct timespec ns_to_ts(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };

	return ts;
}

void sleep_until_ns(int64_t t)
{
	struct timespec ts = ns_to_ts(t);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * One clock read per ~BURN_CHUNK loop iterations (a few µs of work) keeps
 * the system-call share small; the overshoot is at most one chunk.
 */
#define BURN_CHUNK	10000
static volatile uint32_t burn_sink;

void burn_cpu_ns(int64_t ns)
{
	int64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;
	uint32_t x = burn_sink | 1;

	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
		for (int i = 0; i < BURN_CHUNK; i++)
			x = x * 1664525u + 1013904223u;	/* Numerical Recipes LCG */
		burn_sink = x;
	}
}

static const int64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };

char *fmt_ratio(char *buf, int64_t num, int64_t den, int decimals)
{
	int neg = (num < 0) != (den < 0) && num != 0;
	uint64_t n = (uint64_t)(num < 0 ? -num : num), d = (uint64_t)(den < 0 ? -den : den);
	uint64_t scale, q;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	if (d == 0) {
		strcpy(buf, "nan");
		return buf;
	}
	scale = (uint64_t)pow10[decimals];
	q = (n * scale + d / 2) / d;		/* |num| < 2^44 keeps n * 10^6 in range */
	if (decimals)
		snprintf(buf, 32, "%s%llu.%0*llu", neg ? "-" : "", q / scale, decimals, q % scale);
	else
		snprintf(buf, 32, "%s%llu", neg ? "-" : "", q);
	return buf;
}

void jl_init(struct jline *j)
{
	j->buf[0] = '{';
	j->buf[1] = '\0';
	j->len = 1;
	j->n = 0;
}

static void jl_put(struct jline *j, const char *fmt, const char *key, const char *val)
{
	int w;

	if (j->len >= sizeof(j->buf) - 2)
		return;
	w = snprintf(j->buf + j->len, sizeof(j->buf) - 2 - j->len, fmt, j->n ? "," : "", key, val);
	if (w < 0 || (size_t)w >= sizeof(j->buf) - 2 - j->len) {
		j->buf[j->len] = '\0';		/* drop the member that did not fit */
		return;
	}
	j->len += (size_t)w;
	j->n++;
}

void jl_str(struct jline *j, const char *key, const char *val)
{
	char esc[512];		/* the longest value: EEVDF's feature list */
	size_t o = 0;

	for (; val && *val && o < sizeof(esc) - 3; val++) {
		if (*val == '"' || *val == '\\')
			esc[o++] = '\\';
		esc[o++] = isprint((unsigned char)*val) ? *val : '?';
	}
	esc[o] = '\0';
	jl_put(j, "%s\"%s\":\"%s\"", key, esc);
}

void jl_int(struct jline *j, const char *key, long long val)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", val);
	jl_raw(j, key, num);
}

void jl_raw(struct jline *j, const char *key, const char *val)
{
	jl_put(j, "%s\"%s\":%s", key, val);
}

const char *jl_end(struct jline *j)
{
	j->buf[j->len++] = '}';
	j->buf[j->len] = '\0';
	return j->buf;
}

static char params[1024];
static int params_state;		/* 0 not read, 1 read, -1 no such call */

static const char *sched_params_text(void)
{
	if (!params_state) {
		long r = sys_granule_sched_params(L(params), sizeof(params));

		params_state = r < 0 ? -1 : 1;
	}
	return params_state > 0 ? params : NULL;
}

int sched_param(const char *key, char *buf, size_t len)
{
	const char *p = sched_params_text();
	size_t kl = strlen(key);

	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, "\n");

			if (n >= len)
				n = len - 1;
			memcpy(buf, p + kl + 1, n);
			buf[n] = '\0';
			return 0;
		}
	}
	return -1;
}

static int is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	return *s == '\0';
}

void jl_sched_params(struct jline *j)
{
	const char *p = sched_params_text();
	struct timespec res;
	struct utsname u;
	char key[64], val[512], feat[80];

	/* Which kernel produced the line: "Granule 0.1", "Linux 6.1.0-50-amd64". */
	if (uname(&u) == 0) {
		snprintf(val, sizeof(val), "%s %s", u.sysname, u.release);
		jl_str(j, "kernel", val);
	}
	if (!p) {
		/* A kernel without granule_sched_params (Linux: -ENOSYS): label only. */
		jl_str(j, "preset", getenv("PRESET") ? getenv("PRESET") : "unknown");
		jl_raw(j, "hz", "null");
		jl_raw(j, "highres", "null");
		return;
	}
	if (sched_param("sched_preset", val, sizeof(val)) == 0)
		jl_str(j, "preset", val);
	if (sched_param("hz", val, sizeof(val)) == 0)
		jl_raw(j, "hz", val);
	if (sys_clock_getres(CLOCK_MONOTONIC, L(&res)) == 0)
		jl_raw(j, "highres", res.tv_sec == 0 && res.tv_nsec <= 1 ? "true" : "false");
	else
		jl_raw(j, "highres", "null");
	while (*p) {
		size_t kl = strcspn(p, "="), vl;

		if (p[kl] != '=')
			break;
		vl = strcspn(p + kl + 1, "\n");
		if (kl < sizeof(key) && vl < sizeof(val)) {
			memcpy(key, p, kl);
			key[kl] = '\0';
			memcpy(val, p + kl + 1, vl);
			val[vl] = '\0';
			if (strcmp(key, "nr_switches") && strcmp(key, "nr_running") &&
			    strcmp(key, "hz") && strcmp(key, "sched_preset")) {
				if (is_number(val))
					jl_raw(j, key, val);
				else
					jl_str(j, key, val);
			}
			if (strcmp(key, "sched_features") == 0) {
				char *save, *tok;

				for (tok = strtok_r(val, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
					int on = strncmp(tok, "NO_", 3) != 0;

					snprintf(feat, sizeof(feat), "feat_%s", on ? tok : tok + 3);
					jl_raw(j, feat, on ? "true" : "false");
				}
			}
		}
		p += kl + 1 + vl;
		if (*p == '\n')
			p++;
	}
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = ns_to_ts(ns);

	if (ns > 0)
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
}

void kjob_body(const struct kjob *j)
{
	burn_cpu_ns(j->a);
	sleep_ns(j->s1);
	burn_cpu_ns(j->b);
	sleep_ns(j->s2);
	burn_cpu_ns(j->c);
}

long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long r;

	if (!v || !*v)
		return def;
	r = strtol(v, &end, 0);
	return *end ? def : r;
}

int bench_cpus(void)
{
	static unsigned long mask[32];		/* 1024 CPUs: Linux refuses a mask shorter than nr_cpu_ids */
	long n = sys_sched_getaffinity(0, sizeof(mask), (long)mask);
	int cpus = 0;

	for (long i = 0; n > 0 && i < n / (long)sizeof(long); i++)
		cpus += __builtin_popcountl(mask[i]);
	return cpus ? cpus : 1;
}

/* PATH's text into BUF (NUL-terminated, at most SIZE - 1 bytes); -1 if it cannot be opened. */
static long slurp(const char *path, char *buf, long size)
{
	long fd = sys_open((long)path, 0 /* O_RDONLY */, 0), len = 0, n;

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = sys_read(fd, (long)(buf + len), size - 1 - len)) > 0)
		len += n;
	sys_close(fd);
	buf[len] = '\0';
	return len;
}

long self_nr_migrations(void)
{
	static char buf[8192];			/* Linux 6.x's file is about 3 KB */
	const char *p;

	if (slurp("/proc/self/sched", buf, sizeof(buf)) < 0)
		return -1;
	if (!(p = strstr(buf, "\nse.nr_migrations ")) || !(p = strchr(p, ':')))
		return -1;
	return strtol(p + 1, NULL, 10);
}

int proc_stat_busy(uint64_t *busy, uint64_t *total, int max)
{
	static char buf[4096];
	int cpus = 0;

	if (slurp("/proc/stat", buf, sizeof(buf)) < 0)
		return 0;
	for (char *p = buf; p && cpus < max; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long f[8] = { 0 };
		char *q;

		/* cpuN user nice system idle iowait irq softirq steal (USER_HZ) */
		if (strncmp(p, "cpu", 3) || p[3] < '0' || p[3] > '9' || strtol(p + 3, &q, 10) != cpus)
			continue;
		for (int i = 0; i < 8 && *q == ' '; i++)
			f[i] = strtoull(q, &q, 10);
		total[cpus] = f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7];
		busy[cpus] = total[cpus] - f[3] - f[4];
		cpus++;
	}
	return cpus;
}
