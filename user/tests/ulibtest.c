/*
 * user/tests/ulibtest.c - self-checking test of the user library and of the
 * Linux-compatible system calls it wraps.
 *
 * Runs unchanged on a Linux host (tests/host/exec runs it there) and on
 * Granule.  Usage: ulibtest [GROUP...]  (default: every group), where
 * GROUP is one of the names in groups[] below.  Each failed check prints
 * "FAIL group: file:line: expression"; the last line is
 * "ulibtest: N passed, N failed" and the exit status is the number of
 * failures (capped at 100).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <time.h>
#include <sched.h>
#include <granule.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <sys/resource.h>
#include <gen/user_syscalls.h>
#include <gen/syscall_nr.h>

static int passed, failed;
static const char *group;

#define CHECK(expr) do { \
	if (expr) \
		passed++; \
	else { \
		failed++; \
		printf("FAIL %s: %s:%d: %s\n", group, __FILE__, __LINE__, #expr); \
	} \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *__a = (a), *__b = (b); \
	if (strcmp(__a, __b) == 0) \
		passed++; \
	else { \
		failed++; \
		printf("FAIL %s: %s:%d: \"%s\" != \"%s\"\n", group, __FILE__, \
		       __LINE__, __a, __b); \
	} \
} while (0)

static int on_linux;

static void t_string(void)
{
	char buf[64], *save, *tok;
	char *d;

	CHECK(strlen("") == 0 && strlen("abc") == 3);
	CHECK(strcmp("abc", "abd") < 0 && strcmp("b", "a") > 0 && strcmp("x", "x") == 0);
	CHECK(strncmp("abcX", "abcY", 3) == 0);
	strcpy(buf, "hello");
	CHECK(strchr(buf, 'l') == buf + 2 && strrchr(buf, 'l') == buf + 3);
	CHECK(strchr(buf, 'z') == NULL && strchr(buf, '\0') == buf + 5);
	CHECK(strstr("haystack", "st") != NULL && strstr("abc", "") != NULL);
	strcpy(buf, "0123456789");
	memmove(buf + 2, buf, 5);
	CHECK_STR(buf, "0101234789");
	memmove(buf, buf + 1, 4);
	CHECK(memcmp(buf, "1012", 4) == 0);
	strcpy(buf, "ab");
	strcat(buf, "cd");
	strncat(buf, "efgh", 2);
	CHECK_STR(buf, "abcdef");
	CHECK(strspn("aabxc", "ab") == 3 && strcspn("xyz:w", ":") == 3);
	CHECK(memchr("abc", 'c', 3) != NULL && memchr("abc", 'c', 2) == NULL);
	strcpy(buf, "  one, two,,three ");
	tok = strtok_r(buf, " ,", &save);
	CHECK(tok && strcmp(tok, "one") == 0);
	tok = strtok_r(NULL, " ,", &save);
	CHECK(tok && strcmp(tok, "two") == 0);
	tok = strtok_r(NULL, " ,", &save);
	CHECK(tok && strcmp(tok, "three") == 0);
	CHECK(strtok_r(NULL, " ,", &save) == NULL);
	d = strdup("copy me");
	CHECK(d && strcmp(d, "copy me") == 0);
	free(d);
	d = strndup("abcdef", 3);
	CHECK(d && strcmp(d, "abc") == 0);
	free(d);
	CHECK_STR(strerror(ENOENT), "No such file or directory");
	CHECK_STR(strerror(9999), "Unknown error 9999");
}

static void t_printf(void)
{
	char buf[64], big[2000];
	int n;

	snprintf(buf, sizeof(buf), "%d|%5s|%-4x|%8.3d|%c|%%", -42, "ab", 255, 7, 'z');
	CHECK_STR(buf, "-42|   ab|ff  |     007|z|%");
	snprintf(buf, sizeof(buf), "%u %lld %llx %zu", 4000000000u, -5000000000ll,
		 0x123456789abull, (size_t)12);
	CHECK_STR(buf, "4000000000 -5000000000 123456789ab 12");
	snprintf(buf, sizeof(buf), "%p %p", (void *)0x1234, NULL);
	CHECK_STR(buf, "0x00001234 0x00000000");
	n = snprintf(buf, 5, "%s", "truncated");
	CHECK(n == 9 && strcmp(buf, "trun") == 0);
	CHECK(snprintf(NULL, 0, "%d", 12345) == 5);
	/* Longer than the on-stack buffer: the malloc path of printf. */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	n = dprintf(-1, "%s", big);		/* bad fd: formatted, write fails */
	CHECK(n == -1 && errno == EBADF);
	n = printf("%s", "");
	CHECK(n == 0);
}

static void t_strtol(void)
{
	char *end;
	const char *s;

	s = "  -42xyz";
	CHECK(strtol(s, &end, 10) == -42 && end == s + 5);
	CHECK(strtol("0x1f", NULL, 0) == 31 && strtol("077", NULL, 0) == 63);
	CHECK(strtol("0x1F", NULL, 16) == 31 && strtol("zz", NULL, 36) == 1295);
	errno = 0;
	CHECK(strtol("2147483648", NULL, 10) == LONG_MAX && errno == ERANGE);
	errno = 0;
	CHECK(strtol("-2147483648", NULL, 10) == LONG_MIN && errno == 0);
	CHECK(strtol("-2147483649", NULL, 10) == LONG_MIN && errno == ERANGE);
	errno = 0;
	CHECK(strtoul("-1", NULL, 10) == ULONG_MAX && errno == 0);
	CHECK(strtoul("4294967296", NULL, 10) == ULONG_MAX && errno == ERANGE);
	CHECK(strtoull("18446744073709551615", NULL, 10) == ULLONG_MAX);
	CHECK(strtoll("-9223372036854775808", NULL, 10) == LLONG_MIN);
	s = "xyz";
	CHECK(strtol(s, &end, 10) == 0 && end == s);
	s = "0x";
	CHECK(strtol(s, &end, 16) == 0 && end == s + 1);
	CHECK(atoi("123abc") == 123 && atoi("-7") == -7 && atol(" +9") == 9);
	CHECK(abs(-3) == 3 && labs(4) == 4);
}

static void t_getopt(void)
{
	char *argv1[] = { "prog", "-a", "-bfoo", "-c", "bar", "-xz", "--", "-q", "rest", NULL };
	char *argv2[] = { "prog", "-k", "-b", NULL };
	int argc1 = 9, argc2 = 3, c;
	char seen[16] = "";
	const char *b = NULL, *cc = NULL;

	optind = 1;
	while ((c = getopt(argc1, argv1, "ab:c:xz")) != -1) {
		strncat(seen, (char[]){ (char)c, 0 }, 1);
		if (c == 'b')
			b = optarg;
		if (c == 'c')
			cc = optarg;
	}
	CHECK_STR(seen, "abcxz");
	CHECK(b && strcmp(b, "foo") == 0 && cc && strcmp(cc, "bar") == 0);
	CHECK(optind == 7 && strcmp(argv1[optind], "-q") == 0);

	optind = 1;
	opterr = 0;
	c = getopt(argc2, argv2, "ab:");
	CHECK(c == '?' && optopt == 'k');
	c = getopt(argc2, argv2, "ab:");
	CHECK(c == '?' && optopt == 'b');
	optind = 1;
	getopt(argc2, argv2, ":ab:");
	CHECK(getopt(argc2, argv2, ":ab:") == ':');
	CHECK(getopt(argc2, argv2, ":ab:") == -1);
	opterr = 1;
}

static unsigned int rng(unsigned int *state)
{
	unsigned int x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

static void t_malloc(void)
{
	enum { N = 300 };
	static unsigned char *p[N];
	static size_t sz[N];
	struct malloc_stats st;
	unsigned int seed = 99, i, k, bad = 0, misaligned = 0;
	int *z;

	for (i = 0; i < N; i++)
		p[i] = NULL;
	for (k = 0; k < 20000; k++) {
		i = rng(&seed) % N;
		if (p[i]) {
			for (size_t j = 0; j < sz[i]; j++)
				bad += p[i][j] != (unsigned char)(i + j);
			if (rng(&seed) % 4 == 0) {	/* realloc keeps the prefix */
				size_t nsz = 1 + rng(&seed) % 3000;
				unsigned char *q = realloc(p[i], nsz);

				if (!q) {
					bad++;
					continue;
				}
				for (size_t j = 0; j < (nsz < sz[i] ? nsz : sz[i]); j++)
					bad += q[j] != (unsigned char)(i + j);
				p[i] = q;
				sz[i] = nsz;
				for (size_t j = 0; j < nsz; j++)
					q[j] = (unsigned char)(i + j);
				continue;
			}
			free(p[i]);
			p[i] = NULL;
		} else {
			sz[i] = rng(&seed) % 8 ? 1 + rng(&seed) % 512 : 1 + rng(&seed) % 40000;
			p[i] = malloc(sz[i]);
			if (!p[i]) {
				bad++;
				continue;
			}
			misaligned += ((size_t)p[i] & 15) != 0;
			for (size_t j = 0; j < sz[i]; j++)
				p[i][j] = (unsigned char)(i + j);
		}
	}
	CHECK(bad == 0);
	CHECK(misaligned == 0);
	for (i = 0; i < N; i++)
		free(p[i]);
	malloc_get_stats(&st);
	CHECK(st.blocks_in_use == 0);
	CHECK(st.blocks_free == 1);		/* everything coalesced */
	CHECK(st.free == st.heap && st.heap > 0);

	z = calloc(1000, sizeof(int));
	CHECK(z != NULL);
	for (i = 0, bad = 0; z && i < 1000; i++)
		bad += z[i] != 0;
	CHECK(bad == 0);
	free(z);
	errno = 0;
	CHECK(calloc(0x10000, 0x10000) == NULL && errno == ENOMEM);
	errno = 0;
	CHECK(malloc((size_t)-1) == NULL && errno == ENOMEM);
	errno = 0;
	CHECK(malloc(0xC0000000u) == NULL && errno == ENOMEM);	/* brk refuses */
	CHECK(realloc(NULL, 10) != NULL);	/* leaks 10 bytes: fine */
	free(NULL);
}

static void t_syscalls(void)
{
	struct utsname u;
	char *brk0, *brk1;

	errno = 0;
	CHECK(write(-1, "x", 1) == -1 && errno == EBADF);
	CHECK(sys_write(-1, (long)"x", 1) == -EBADF);
	CHECK(read(-1, &u, 1) == -1 && errno == EBADF);
	CHECK(write(1, "", 0) == 0);
	CHECK(getpid() > 0 && getppid() >= 0);
	CHECK(gettid() == getpid());
	CHECK(kill(getpid(), 0) == 0);
	CHECK(kill(getpid(), 99) == -1 && errno == EINVAL);
	CHECK(__syscall(999, 0, 0, 0, 0, 0, 0) == -ENOSYS);
	CHECK(sched_yield() == 0);
	CHECK(uname(&u) == 0 && u.sysname[0] != '\0');
	/* The private range GRANULE_NR_BASE + k: ENOSYS on Linux, and past its
	 * last entry (and just below it) ENOSYS here too. */
	if (on_linux)
		CHECK(granule_frames() == -1 && errno == ENOSYS);
	else
		CHECK(granule_frames() > 0);
	CHECK(__syscall(GRANULE_NR_BASE - 1, 0, 0, 0, 0, 0, 0) == -ENOSYS);
	CHECK(__syscall(GRANULE_NR_BASE + NR_granule_syscalls, 0, 0, 0, 0, 0, 0) == -ENOSYS);
	CHECK(__syscall(-1, 0, 0, 0, 0, 0, 0) == -ENOSYS);
	errno = 0;
	CHECK(getpriority(PRIO_PROCESS, 0) >= -20 && errno == 0);

	brk0 = sbrk(0);
	brk1 = sbrk(8192);
	CHECK(brk1 == brk0 && sbrk(0) == brk0 + 8192);
	memset(brk1, 0x5a, 8192);		/* the new memory is usable */
	CHECK(brk1[8191] == 0x5a);
	CHECK(sbrk(-8192) == brk0 + 8192 && sbrk(0) == brk0);
	CHECK(brk((void *)0x1000) == -1 && errno == ENOMEM);	/* below the heap */
	CHECK(sbrk(0) == brk0);
	CHECK(sys_getpid() == getpid() && __NR_getpid == 20);
}

static long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (long)(b->tv_sec - a->tv_sec) * 1000000000L + (b->tv_nsec - a->tv_nsec);
}

static void t_time(void)
{
	struct timespec a, b, req = { 0, 2000000 };

	CHECK(clock_gettime(CLOCK_MONOTONIC, &a) == 0);
	CHECK(a.tv_nsec >= 0 && a.tv_nsec < 1000000000L);
	CHECK(nanosleep(&req, NULL) == 0);
	CHECK(clock_gettime(CLOCK_MONOTONIC, &b) == 0);
	CHECK(ns_between(&a, &b) >= 2000000L);
	CHECK(clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL) == 0);
	req.tv_nsec = 1000000000L;		/* invalid */
	CHECK(nanosleep(&req, NULL) == -1 && errno == EINVAL);
	CHECK(clock_gettime(12345, &a) == -1 && errno == EINVAL);
}

static void t_fork(void)
{
	int status = -1;
	pid_t child = fork(), w;

	if (child == 0)
		_exit(7);
	CHECK(child > 0);
	w = waitpid(child, &status, 0);
	CHECK(w == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	CHECK(waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD);

	child = fork();
	if (child == 0) {
		raise(SIGTERM);
		_exit(0);
	}
	w = wait(&status);
	CHECK(w == child && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
}

static volatile int got_usr1, got_info_signo, got_info_code;

static void on_usr1(int sig)
{
	got_usr1 += sig == SIGUSR1;
}

static void on_usr2(int sig, siginfo_t *info, void *uc)
{
	got_info_signo = info->si_signo;
	got_info_code = info->si_code;
}

static void t_signal(void)
{
	struct sigaction sa = { 0 }, old;
	sigset_t set, pend;

	sigemptyset(&set);
	CHECK(sigaddset(&set, SIGUSR1) == 0 && sigismember(&set, SIGUSR1) == 1);
	CHECK(sigismember(&set, SIGUSR2) == 0 && sigaddset(&set, 65) == -1);
	sigaddset(&set, 64);
	CHECK(set.sig[1] == 0x80000000ul && set.sig[0] == 1ul << (SIGUSR1 - 1));
	sigdelset(&set, 64);

	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, &old) == 0);
	CHECK(old.sa_handler == SIG_DFL);
	CHECK(raise(SIGUSR1) == 0);
	CHECK(got_usr1 == 1);			/* handler ran and returned */

	CHECK(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
	raise(SIGUSR1);
	CHECK(got_usr1 == 1);			/* blocked: pending */
	CHECK(sigpending(&pend) == 0 && sigismember(&pend, SIGUSR1) == 1);
	CHECK(sigprocmask(SIG_UNBLOCK, &set, NULL) == 0);
	CHECK(got_usr1 == 2);			/* delivered on unblock */

	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(got_info_signo == SIGUSR2 && got_info_code == SI_USER);
	CHECK(signal(SIGUSR1, SIG_DFL) == on_usr1);
	signal(SIGUSR2, SIG_DFL);
	CHECK(sigaction(SIGKILL, &sa, NULL) == -1 && errno == EINVAL);
}

static void t_timer(void)
{
	struct sigevent sev = { 0 };
	struct itimerspec its = { { 0, 0 }, { 0, 5000000 } }, cur;
	struct timespec timeout = { 2, 0 };
	siginfo_t info;
	sigset_t set;
	timer_t id = -1;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGALRM;
	sev.sigev_value.sival_int = 1234;
	CHECK(timer_create(CLOCK_MONOTONIC, &sev, &id) == 0);
	CHECK(timer_settime(id, 0, &its, NULL) == 0);
	CHECK(timer_gettime(id, &cur) == 0);
	sig = sigtimedwait(&set, &info, &timeout);
	CHECK(sig == SIGALRM);
	CHECK(info.si_code == SI_TIMER && info.si_value.sival_int == 1234);
	CHECK(timer_getoverrun(id) == 0);
	CHECK(timer_delete(id) == 0);
	CHECK(timer_delete(id) == -1 && errno == EINVAL);
	timeout.tv_sec = 0;
	timeout.tv_nsec = 1000000;
	CHECK(sigtimedwait(&set, &info, &timeout) == -1 && errno == EAGAIN);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static const struct {
	const char *name;
	void (*fn)(void);
} groups[] = {
	{ "string", t_string },
	{ "printf", t_printf },
	{ "strtol", t_strtol },
	{ "getopt", t_getopt },
	{ "malloc", t_malloc },
	{ "syscalls", t_syscalls },
	{ "time", t_time },
	{ "fork", t_fork },
	{ "signal", t_signal },
	{ "timer", t_timer },
};

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: ulibtest\nGranule's C library, checked from user space.\n");
	struct utsname u;
	unsigned int i;
	int a, ran;

	on_linux = uname(&u) == 0 && strcmp(u.sysname, "Linux") == 0;
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		ran = argc < 2;
		for (a = 1; a < argc; a++)
			ran |= strcmp(argv[a], groups[i].name) == 0;
		if (!ran)
			continue;
		group = groups[i].name;
		groups[i].fn();
	}
	printf("ulibtest: %d passed, %d failed\n", passed, failed);
	return failed > 100 ? 100 : failed;
}
