/*
 * user/spin.c - CPU-share check: N spinning threads at given nice levels.
 *
 *	spin [-w WARMUP_MS] [-t WINDOW_MS] [-q] NICE [NICE ...]
 *
 * Starts one thread per NICE argument (at most SPIN_MAX); each sets its own
 * nice value (setpriority on its tid) and spins.  After WARMUP_MS (default
 * 50) the main thread opens a measurement window of WINDOW_MS (default 300)
 * by flipping a shared phase word, and closes it the same way.
 *
 * Why the readings are exact on one CPU: a thread's CLOCK_THREAD_CPUTIME_ID
 * only advances while it runs, and the main thread flips the phase while no
 * spinner runs; so whenever a spinner next runs and sees the flip, its CPU
 * clock still reads what it read at the flip (plus a few instructions).
 * cpu_i = its CPU time inside the window.
 *
 * Output: one line per spinner, then
 *	share_i    = cpu_i / sum(cpu)
 *	expected_i = w_i / sum(w)           (w = prio_to_weight[nice + 20])
 *	jain       = (sum x)^2 / (n sum x^2)  with x_i = share_i / expected_i,
 *		     so 1 = each thread got exactly its weighted fair share;
 *	jain_raw   = the same over the plain shares (1 = equal shares),
 * and one line  RESULT {json}  with all of it, the preset and HZ.
 * Exit status 0, or 1 if a thread could not be made or measured.
 * All arithmetic is integer (fractions printed with 6 decimals).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <gen/user_syscalls.h>

#define SPIN_MAX	64

/* Linux's prio_to_weight[], index nice + 20 (kernel/sched/core.c). */
static const unsigned int nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

struct spinner {
	int nice;
	int tid;
	volatile int ready;		/* nice set, spinning */
	volatile int done;		/* t1 taken */
	unsigned long long t0, t1;	/* CPU clock at window open/close, ns */
	unsigned long long loops;	/* iterations inside the window */
	int err;
};

static struct spinner sp[SPIN_MAX];
static volatile int phase;		/* 0 warm-up, 1 window open, 2 closed */

static unsigned long long clock_ns(int clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long)ts.tv_nsec;
}

static void *spin_thread(void *arg)
{
	struct spinner *s = arg;
	unsigned long long loops = 0;
	int seen = 0;

	s->tid = gettid();
	if (setpriority(PRIO_PROCESS, (id_t)s->tid, s->nice) < 0)
		s->err = errno;
	s->ready = 1;
	for (;;) {
		int p = phase;

		if (p != seen) {
			unsigned long long now = clock_ns(CLOCK_THREAD_CPUTIME_ID);

			if (seen == 0) {
				s->t0 = now;
				loops = 0;
			}
			if (p == 2) {
				if (seen == 0)		/* never saw the window open */
					s->t0 = now;
				s->t1 = now;
				s->loops = loops;
				break;
			}
			seen = p;
		}
		loops++;
	}
	s->done = 1;
	return NULL;
}

/* NUM / DEN as "I.FFFFFF" (DEN > 0, NUM / DEN < 2^32). */
static const char *frac(char *buf, unsigned long long num, unsigned long long den)
{
	unsigned long long ip = num / den, r = num % den;
	unsigned long long f = 0;

	for (int i = 0; i < 6; i++) {	/* long division, r < den < 2^59 */
		r *= 10;
		f = f * 10 + r / den;
		r %= den;
	}
	if (r * 2 >= den)		/* round the last digit */
		f++;
	if (f == 1000000) {
		ip++;
		f = 0;
	}
	snprintf(buf, 24, "%llu.%06llu", ip, f);
	return buf;
}

/*
 * Jain's index (sum y)^2 / (n sum y^2) of Y[0..N) as a fraction NUM/DEN
 * that frac() can print.  The index does not change when every y is scaled
 * by the same factor, so the y are shifted down below 2^20 first:
 * then sum y < 2^26 (n <= 64) and every product fits in 64 bits.
 */
static void jain(const unsigned long long *y, int n,
		 unsigned long long *num, unsigned long long *den)
{
	unsigned long long max = 0, sum = 0, sq = 0;
	int shift = 0;

	for (int i = 0; i < n; i++)
		if (y[i] > max)
			max = y[i];
	while ((max >> shift) >= (1ULL << 20))
		shift++;
	for (int i = 0; i < n; i++) {
		unsigned long long v = y[i] >> shift;

		sum += v;
		sq += v * v;
	}
	*num = sum * sum;
	*den = (unsigned long long)n * sq;
	if (!*den) {			/* nobody ran: call it unfair */
		*num = 0;
		*den = 1;
	}
}

/* Value of KEY in granule_sched_params()'s "key=value" text, or DEF. */
static const char *param(const char *text, const char *key, char *out, size_t len,
			 const char *def)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, key, kl) && l[kl] == '=') {
			size_t i = 0;

			for (l += kl + 1; *l && *l != '\n' && i + 1 < len; l++)
				out[i++] = *l;
			out[i] = '\0';
			return out;
		}
	}
	strncpy(out, def, len - 1);
	out[len - 1] = '\0';
	return out;
}

static void usage(void)
{
	printf("usage: spin [-w WARMUP_MS] [-t WINDOW_MS] [-q] NICE [NICE ...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: spin [-w WARMUP_MS] [-t WINDOW_MS] [-q] NICE [NICE ...]\nOne CPU hog per NICE value; prints each one's share of the CPU.\n");
	unsigned long warmup_ms = 50, window_ms = 300;
	unsigned long long y[SPIN_MAX], yraw[SPIN_MAX], total = 0, wsum = 0;
	unsigned long long w0, w1, jn, jd, maxerr = 0;
	static char params[1024], res[8192];
	size_t len;
	char preset[40], hz[12], b1[24], b2[24], b3[24];
	thread_t th[SPIN_MAX];
	struct timespec ts;
	int n = 0, quiet = 0, c, failed = 0;

	while ((c = getopt(argc, argv, "w:t:q")) != -1) {
		switch (c) {
		case 'w': warmup_ms = strtoul(optarg, NULL, 0); break;
		case 't': window_ms = strtoul(optarg, NULL, 0); break;
		case 'q': quiet = 1; break;
		default: usage();
		}
	}
	if (optind >= argc || argc - optind > SPIN_MAX || !window_ms)
		usage();
	for (int i = optind; i < argc; i++) {
		long nice = strtol(argv[i], NULL, 10);

		if (nice < -20 || nice > 19)
			usage();
		sp[n++].nice = (int)nice;
	}

	params[0] = '\0';
	if (sys_granule_sched_params((long)params, sizeof(params)) < 0)
		params[0] = '\0';		/* not Granule */
	param(params, "sched_preset", preset, sizeof(preset), "unknown");
	param(params, "hz", hz, sizeof(hz), "0");

	for (int i = 0; i < n; i++) {
		if (thread_create(&th[i], spin_thread, &sp[i]) < 0) {
			printf("spin: thread_create: %s\n", strerror(errno));
			return 1;
		}
	}
	for (int i = 0; i < n; i++)
		while (!sp[i].ready)
			sched_yield();

	ts.tv_sec = (time_t)(warmup_ms / 1000);
	ts.tv_nsec = (long)(warmup_ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
	w0 = clock_ns(CLOCK_MONOTONIC);
	phase = 1;
	ts.tv_sec = (time_t)(window_ms / 1000);
	ts.tv_nsec = (long)(window_ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
	phase = 2;
	w1 = clock_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < n; i++)
		thread_join(th[i], NULL);

	for (int i = 0; i < n; i++) {
		unsigned int w = nice_weight[sp[i].nice + 20];

		yraw[i] = sp[i].t1 - sp[i].t0;
		total += yraw[i];
		wsum += w;
		/* CPU time per unit of weight: equal for all when weighted-fair */
		y[i] = yraw[i] * 1024 / w;
		if (sp[i].err) {
			printf("spin: thread %d: setpriority(%d): %s\n", i, sp[i].nice,
			       strerror(sp[i].err));
			failed = 1;
		}
	}
	if (!total) {
		printf("spin: no CPU time measured\n");
		return 1;
	}

	printf("spin: %d threads, window %llu us, preset %s, HZ %s\n", n,
	       (w1 - w0) / 1000, preset, hz);
	for (int i = 0; i < n; i++) {
		unsigned int w = nice_weight[sp[i].nice + 20];
		unsigned long long sh = yraw[i] * 1000000ULL / total;	/* ppm */
		unsigned long long ex = w * 1000000ULL / wsum;
		unsigned long long err = sh > ex ? sh - ex : ex - sh;

		if (err > maxerr)
			maxerr = err;
		if (!quiet)
			printf("  thread %2d tid %3d nice %3d weight %5u cpu %9llu us"
			       " share %s expected %s\n", i, sp[i].tid, sp[i].nice, w,
			       yraw[i] / 1000, frac(b1, yraw[i], total), frac(b2, w, wsum));
	}
	jain(y, n, &jn, &jd);
	printf("jain %s (weighted)  ", frac(b1, jn, jd));
	jain(yraw, n, &jn, &jd);
	printf("jain_raw %s  max share error %s\n", frac(b2, jn, jd),
	       frac(b3, maxerr, 1000000));

	/* RESULT {json}: built whole, written with one write() */
	len = snprintf(res, sizeof(res),
		       "RESULT {\"bench\":\"spin\",\"preset\":\"%s\",\"hz\":%s,"
		       "\"window_ns\":%llu,\"threads\":[", preset, hz, w1 - w0);
	for (int i = 0; i < n && len < sizeof(res); i++)
		len += snprintf(res + len, sizeof(res) - len,
				"%s{\"nice\":%d,\"weight\":%u,\"cpu_ns\":%llu,"
				"\"share\":%s,\"expected\":%s}",
				i ? "," : "", sp[i].nice, nice_weight[sp[i].nice + 20],
				yraw[i], frac(b1, yraw[i], total),
				frac(b2, nice_weight[sp[i].nice + 20], wsum));
	jain(y, n, &jn, &jd);
	frac(b1, jn, jd);
	jain(yraw, n, &jn, &jd);
	if (len < sizeof(res))
		snprintf(res + len, sizeof(res) - len,
			 "],\"jain\":%s,\"jain_raw\":%s,\"max_share_error\":%s}\n",
			 b1, frac(b2, jn, jd), frac(b3, maxerr, 1000000));
	printf("%s", res);
	return failed;
}
