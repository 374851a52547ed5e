/*
 * user/tests/ut_cmds.c - the system calls behind everyday commands, with
 * Linux's results and errnos: sync and reboot (poweroff, reboot: only the
 * calls that return are made here), syslog (dmesg), vfork (time CMD),
 * times, sched_getaffinity and sched_setaffinity (taskset -p).
 */
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ut.h"

#define BAD_PTR		0xC0000000L	/* kernel memory: -EFAULT */
#define MAGIC1		0xfee1deadL
#define MAGIC2		672274793L

static void reboot_calls(void)
{
	EXPECT_RET(sys_sync(), 0);
	EXPECT_RET(sys_reboot(0, MAGIC2, 0x89abcdef, 0), -EINVAL);	/* bad magic1 */
	EXPECT_RET(sys_reboot(MAGIC1, 12345, 0x89abcdef, 0), -EINVAL);	/* bad magic2 */
	EXPECT_RET(sys_reboot(MAGIC1, MAGIC2, 0x12345678, 0), -EINVAL);	/* no such cmd */
	EXPECT_RET(sys_reboot(MAGIC1, MAGIC2, 0x89abcdef, 0), 0);	/* CAD_ON */
	EXPECT_RET(sys_reboot(MAGIC1, 0x20112000, 0, 0), 0);		/* CAD_OFF, magic2C */
	EXPECT_RET(sys_reboot(MAGIC1, MAGIC2, 0x89abcdef, 0), 0);
	EXPECT_RET(sys_reboot(MAGIC1, MAGIC2, 0xa1b2c3d4, BAD_PTR), -EFAULT);	/* RESTART2 */
}

static void syslog_calls(void)
{
	static char buf[16384 + 64];
	long n, all, size = sys_syslog(10, 0, 0);	/* SIZE_BUFFER */

	CHECK(size == 16384, "SIZE_BUFFER %ld", size);
	all = sys_syslog(3, (long)buf, sizeof(buf));	/* READ_ALL */
	CHECK(all > 0 && all <= size, "READ_ALL %ld", all);
	buf[all] = '\0';
	CHECK(strstr(buf, "] Granule ") && strstr(buf, "booting\n"), "no boot banner in the log");
	n = sys_syslog(3, (long)buf, 20);			/* the newest 20 bytes */
	CHECK(n == 20, "READ_ALL of 20: %ld", n);
	EXPECT_RET(sys_syslog(3, 0, 10), -EINVAL);
	EXPECT_RET(sys_syslog(3, (long)buf, -1), -EINVAL);
	EXPECT_RET(sys_syslog(3, (long)buf, 0), 0);
	EXPECT_RET(sys_syslog(3, BAD_PTR, 10), -EFAULT);
	EXPECT_RET(sys_syslog(2, BAD_PTR, 10), -EFAULT);
	EXPECT_RET(sys_syslog(4, BAD_PTR, 10), -EFAULT);
	EXPECT_RET(sys_syslog(11, (long)buf, 10), -EINVAL);
	EXPECT_RET(sys_syslog(-1, (long)buf, 10), -EINVAL);
	EXPECT_RET(sys_syslog(8, 0, 0), -EINVAL);		/* CONSOLE_LEVEL 1..8 */
	EXPECT_RET(sys_syslog(8, 0, 9), -EINVAL);
	EXPECT_RET(sys_syslog(8, 0, 7), 0);
	EXPECT_RET(sys_syslog(6, 0, 0), 0);			/* CONSOLE_OFF, ON */
	EXPECT_RET(sys_syslog(7, 0, 0), 0);
	EXPECT_RET(sys_syslog(0, 0, 0), 0);			/* CLOSE, OPEN */
	EXPECT_RET(sys_syslog(1, 0, 0), 0);
	/* READ consumes: what it read is no longer unread */
	n = sys_syslog(9, 0, 0);				/* SIZE_UNREAD */
	CHECK(n > 0, "SIZE_UNREAD %ld", n);
	while (sys_syslog(9, 0, 0) > 0)
		CHECK(sys_syslog(2, (long)buf, 4096) > 0, "READ gave nothing with bytes unread");
	EXPECT_RET(sys_syslog(2, (long)buf, 10), 0);
	/* READ_CLEAR then READ_ALL: only what was logged since */
	CHECK(sys_syslog(4, (long)buf, sizeof(buf)) > 0, "READ_CLEAR");
	EXPECT_RET(sys_syslog(3, (long)buf, sizeof(buf)), 0);
	EXPECT_RET(sys_syslog(5, 0, 0), 0);			/* CLEAR */
}

/* vfork without the libc: the return address leaves the shared stack
 * before the call (the child would overwrite it), as glibc's vfork. */
long ut_vfork(void);
__asm__(".text\n.globl ut_vfork\n.type ut_vfork, @function\nut_vfork:\n"
	"	popl %ecx\n	movl $190, %eax\n	int $0x80\n	pushl %ecx\n	ret\n"
	".size ut_vfork, . - ut_vfork\n");

static volatile int shared;

static void vfork_calls(void)
{
	static char *const argv[] = { "usertests", "--exit", "5", NULL };
	static char *const envp[] = { NULL };
	struct timespec pause = { 0, 5000000 };		/* 5 ms */
	long pid;

	/* the parent sleeps until the child exits; their memory is one */
	shared = 0;
	pid = ut_vfork();
	if (pid == 0) {
		sys_nanosleep((long)&pause, 0);
		shared = 1;
		sys_exit(3);
	}
	CHECK(pid > 0, "vfork: %ld", pid);
	CHECK(shared == 1, "the parent ran before its vfork child exited");
	CHECK(ut_wait(pid) == 3 << 8, "vfork child's status");
	/* ... or execs */
	pid = ut_vfork();
	if (pid == 0) {
		sys_nanosleep((long)&pause, 0);
		shared = 2;
		sys_execve((long)"usertests", (long)argv, (long)envp);
		sys_exit(127);
	}
	CHECK(pid > 0, "vfork: %ld", pid);
	CHECK(shared == 2, "the parent ran before its vfork child exec'd");
	CHECK(ut_wait(pid) == 5 << 8, "the exec'd child's status");
}

struct tms32 { long utime, stime, cutime, cstime; };

static void times_calls(void)
{
	struct tms32 a, b;
	long t0 = sys_times((long)&a), t1;
	long long end = ut_cpu_ns(CLOCK_PROCESS_CPUTIME_ID) + 50000000;	/* 50 ms */

	while (ut_cpu_ns(CLOCK_PROCESS_CPUTIME_ID) < end)
		;
	t1 = sys_times((long)&b);
	/* USER_HZ = 100: 50 ms of CPU is 5 ticks (4..6 with the rounding) */
	CHECK(b.utime - a.utime >= 4 && b.utime - a.utime <= 6, "utime %ld -> %ld ticks",
	      a.utime, b.utime);
	CHECK(t1 - t0 >= 4 && t1 - t0 <= 7, "times() %ld -> %ld ticks", t0, t1);
	CHECK(b.stime == 0 && b.cstime == 0, "stime %ld cstime %ld", b.stime, b.cstime);
	CHECK(sys_times(0) >= t1, "times(NULL)");
	EXPECT_RET(sys_times(BAD_PTR), -EFAULT);
}

static void affinity_calls(void)
{
	unsigned long m[2] = { 0, 0x5a5a5a5a };

	EXPECT_RET(sys_sched_getaffinity(0, sizeof(m), (long)m), 4);
	CHECK(m[0] == 1 && m[1] == 0x5a5a5a5a, "mask %lx %lx", m[0], m[1]);
	EXPECT_RET(sys_sched_getaffinity(getpid(), 4, (long)m), 4);
	EXPECT_RET(sys_sched_getaffinity(0, 0, (long)m), -EINVAL);
	EXPECT_RET(sys_sched_getaffinity(0, 3, (long)m), -EINVAL);
	EXPECT_RET(sys_sched_getaffinity(99999, 4, (long)m), -ESRCH);
	EXPECT_RET(sys_sched_getaffinity(-1, 4, (long)m), -ESRCH);
	EXPECT_RET(sys_sched_getaffinity(0, 4, BAD_PTR), -EFAULT);
	m[0] = 1;
	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)m), 0);
	m[0] = 3;						/* CPU 1 too: it does not exist */
	EXPECT_RET(sys_sched_setaffinity(1, 8, (long)m), 0);
	m[0] = 2;						/* no CPU 0 */
	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)m), -EINVAL);
	EXPECT_RET(sys_sched_setaffinity(0, 2, (long)m), -EINVAL);	/* too short: empty */
	EXPECT_RET(sys_sched_setaffinity(99999, 4, (long)m), -ESRCH);
	EXPECT_RET(sys_sched_setaffinity(0, 4, BAD_PTR), -EFAULT);
}

const struct ut_test ut_cmds_tests[] = {
	{ reboot_calls, "reboot_calls" },
	{ syslog_calls, "syslog_calls" },
	{ vfork_calls, "vfork_calls" },
	{ times_calls, "times_calls" },
	{ affinity_calls, "affinity_calls" },
	{ NULL, NULL },
};
