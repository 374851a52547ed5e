/*
 * user/bench/measure.c - any program as the experiment's measurement.
 *
 *   experiment load=kbuild:10 duration=11 measure="cyclictest -t1 -i 10000 -l 1000 -h 20000 -q"
 *
 * experiment starts the load as it does for wakeup-latency (1 s ahead) and
 * then, instead of its own latency test, runs the command given: the words
 * of MEASURE split at blanks (no quoting), the program looked up in /usr/bin,
 * /bin and / (where Debian's rt-tests, busybox and Granule's programs live,
 * on Granule and in tools/linux-peer's initramfs alike).  Its standard output
 * comes back through a pipe and is written on line by line, unchanged, so
 * cyclictest's histogram reads as cyclictest prints it; the lines are also
 * read for the program's figures, which one RESULT line carries with the
 * context switches and time the run took (measure.h).  Standard error is
 * left alone.
 */
#include <bench.h>
#include <errno.h>
#include <gen/user_syscalls.h>
#include <measure.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE_MAX_LEN	512

static const char *const dirs[] = { "/usr/bin/", "/bin/", "/" };

/* Split a copy of CMD (in BUF) into ARGV at blanks; the word count, or -1 if too many. */
static int split(const char *cmd, char *buf, size_t len, char **argv)
{
	int n = 0;
	char *save;

	snprintf(buf, len, "%s", cmd);
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n == MEASURE_MAX_ARGS - 1)
			return -1;
		argv[n++] = w;
	}
	argv[n] = NULL;
	return n;
}

/* PROG's path (PROG itself if it has a '/'), in PATH; 0, or -1 if no such executable. */
static int lookup(const char *prog, char *path, size_t len)
{
	if (strchr(prog, '/')) {
		snprintf(path, len, "%s", prog);
		return sys_access((long)path, 1 /* X_OK */) == 0 ? 0 : -1;
	}
	for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, len, "%s%s", dirs[i], prog);
		if (sys_access((long)path, 1 /* X_OK */) == 0)
			return 0;
	}
	return -1;
}

int measure_check(const char *cmd, char *why, size_t len)
{
	char buf[LINE_MAX_LEN], path[256], *argv[MEASURE_MAX_ARGS];
	int n = split(cmd, buf, sizeof(buf), argv);

	if (n == 0)
		snprintf(why, len, "no program (expected a program and its arguments, "
			 "e.g. measure=\"cyclictest -t1 -i 10000 -l 1000 -q\")");
	else if (n < 0)
		snprintf(why, len, "more than %d words", MEASURE_MAX_ARGS - 1);
	else if (strlen(cmd) >= sizeof(buf))
		snprintf(why, len, "longer than %d characters", (int)sizeof(buf) - 1);
	else if (lookup(argv[0], path, sizeof(path)) < 0)
		snprintf(why, len, "no program '%s'%s", argv[0],
			 strchr(argv[0], '/') ? " (not an executable file)" : " in /usr/bin, /bin or /");
	else
		return 0;
	return -1;
}

/* /proc/stat's ctxt (context switches since boot), or -1. */
static long long proc_ctxt(void)
{
	static char buf[4096];
	long fd = sys_open((long)"/proc/stat", 0, 0), n;
	const char *p;

	if (fd < 0)
		return -1;
	n = sys_read(fd, (long)buf, sizeof(buf) - 1);
	sys_close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\nctxt ");
	return p ? strtoll(p + 6, NULL, 10) : -1;
}

/* What the program's output said: -1 = not seen. */
struct figures {
	long long samples, min, avg, max, overflows;
	char time_s[24];
};

/* The number after PREFIX at the start of LINE (leading zeros as cyclictest prints them). */
static int after(const char *line, const char *prefix, long long *v)
{
	size_t n = strlen(prefix);

	if (strncmp(line, prefix, n))
		return 0;
	*v = strtoll(line + n, NULL, 10);
	return 1;
}

/* The number after KEY anywhere in LINE ("Max:    996"), if KEY is there. */
static void field(const char *line, const char *key, long long *v)
{
	const char *p = strstr(line, key);

	if (p)
		*v = strtoll(p + strlen(key), NULL, 10);
}

static void parse_line(const char *line, struct figures *f)
{
	if (after(line, "# Total: ", &f->samples) || after(line, "# Min Latencies: ", &f->min) ||
	    after(line, "# Avg Latencies: ", &f->avg) || after(line, "# Max Latencies: ", &f->max) ||
	    after(line, "# Histogram Overflows: ", &f->overflows))
		return;
	if (strncmp(line, "T: 0 ", 5) == 0) {		/* the first thread's summary (no -h) */
		field(line, " C:", &f->samples);
		field(line, " Min:", &f->min);
		field(line, " Avg:", &f->avg);
		field(line, " Max:", &f->max);
	} else if (strncmp(line, "Time: ", 6) == 0 && strlen(line + 6) < sizeof(f->time_s) &&
		   strspn(line + 6, "0123456789.") == strlen(line + 6) && line[6]) {
		strcpy(f->time_s, line + 6);		/* hackbench's seconds, as printed */
	}
}

/* Pass FD's text through to standard output, line by line, parsing each line. */
static void pass_through(int fd, struct figures *f)
{
	char line[LINE_MAX_LEN], chunk[256];
	size_t len = 0;
	long n;

	while ((n = read(fd, chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR)) {
		for (long i = 0; i < n; i++) {
			if (len < sizeof(line) - 1)
				line[len++] = chunk[i];
			if (chunk[i] != '\n' && len < sizeof(line) - 1)
				continue;
			write(STDOUT_FILENO, line, len);
			line[len - (line[len - 1] == '\n')] = '\0';
			parse_line(line, f);
			len = 0;
		}
	}
	if (len) {
		write(STDOUT_FILENO, line, len);
		line[len] = '\0';
		parse_line(line, f);
	}
}

static void report(const char *prog, const char *cmd, const char *load, int status,
		   int64_t wall_ns, long long ctxsw, const struct figures *f)
{
	struct jline j;
	char b[32];
	const char *base = prog;

	for (const char *c = prog; *c; c++)	/* the program's own name: cyclictest */
		if (*c == '/')
			base = c + 1;
	jl_init(&j);
	jl_str(&j, "bench", base);
	jl_sched_params(&j);
	jl_str(&j, "load", load);
	jl_str(&j, "measure", cmd);
	jl_int(&j, "status", status);
	jl_int(&j, "wall_ms", wall_ns / NSEC_PER_MSEC);
	jl_int(&j, "ctxsw", ctxsw);
	jl_raw(&j, "ctxsw_per_s", ctxsw < 0 || wall_ns <= 0 ? "-1" :
	       fmt_ratio(b, ctxsw * NSEC_PER_SEC, wall_ns, 0));
	if (f->samples >= 0) {
		jl_int(&j, "samples", f->samples);
		jl_int(&j, "min_us", f->min);
		jl_int(&j, "avg_us", f->avg);
		jl_int(&j, "max_us", f->max);
		jl_int(&j, "overflows", f->overflows);	/* -1: no histogram (no -h) */
	}
	if (f->time_s[0])
		jl_raw(&j, "time_s", f->time_s);
	printf("RESULT %s\n", jl_end(&j));
}

int measure_run(const char *cmd, const char *load, int64_t *wall_ns)
{
	char buf[LINE_MAX_LEN], path[256], *argv[MEASURE_MAX_ARGS];
	struct figures f = { -1, -1, -1, -1, -1, "" };
	long long c0, c1;
	int64_t t0;
	int p[2], status;
	pid_t pid;

	if (split(cmd, buf, sizeof(buf), argv) <= 0 || lookup(argv[0], path, sizeof(path)) < 0)
		return -1;			/* measure_check() said why */
	if (sys_pipe((long)p) < 0)
		return -1;
	c0 = proc_ctxt();
	t0 = mono_ns();
	pid = fork();
	if (pid == 0) {
		sys_close(p[0]);
		sys_dup2(p[1], STDOUT_FILENO);
		sys_close(p[1]);
		execve(path, argv, environ);
		printf("experiment: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	sys_close(p[1]);
	if (pid < 0) {
		sys_close(p[0]);
		printf("experiment: measure=%s: fork: %s\n", cmd, strerror(errno));
		return -1;
	}
	pass_through(p[0], &f);
	sys_close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	t0 = mono_ns() - t0;
	c1 = proc_ctxt();
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	report(path, cmd, load, status, t0, c0 < 0 || c1 < 0 ? -1 : c1 - c0, &f);
	*wall_ns = t0;
	return status;
}
