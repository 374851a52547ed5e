/*
 * user/tests/ut_cmds.c - the system calls behind everyday commands, with
 * Linux's results and errnos: sync and reboot (poweroff, reboot: only the
 * calls that return are made here), syslog (dmesg), vfork (time CMD),
 * times, sched_getaffinity and sched_setaffinity (taskset -p), statfs and
 * /proc/mounts (df, mount), O_CREAT under /proc (sysctl -w of an unknown
 * key) and a /tmp file's times (the RTC's wall clock).
 */
#include <stdlib.h>
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
	/* USER_HZ = 100: 50 ms of CPU is 5 ticks (4..6 with the rounding),
	 * user and system together (the loop reads a CPU clock: system calls) */
	long used = b.utime + b.stime - a.utime - a.stime;
	CHECK(used >= 4 && used <= 6, "utime+stime %ld+%ld -> %ld+%ld ticks", a.utime, a.stime,
	      b.utime, b.stime);
	CHECK(t1 - t0 >= 4 && t1 - t0 <= 7, "times() %ld -> %ld ticks", t0, t1);
	CHECK(b.cutime == a.cutime && b.cstime == a.cstime, "no child was reaped: cutime %ld cstime %ld",
	      b.cutime, b.cstime);
	CHECK(sys_times(0) >= t1, "times(NULL)");
	EXPECT_RET(sys_times(BAD_PTR), -EFAULT);
}

/* This task's CPU: /proc/self/stat's processor, field 39 (task_cpu()). */
static long self_cpu(void)
{
	char buf[1024];

	return strtol(ut_stat_field("/proc/self/stat", 39, buf, sizeof(buf)), NULL, 10);
}

/*
 * 2.6.35's affinity calls at any CPU count: getaffinity gives the task's
 * mask and the online CPUs' (after a mask of every CPU, the online CPUs,
 * 0..N-1); a mask with no online CPU (empty, or only CPU 31, never up
 * here) is EINVAL.
 */
static void affinity_calls(void)
{
	unsigned long m[2] = { ~0ul, 0x5a5a5a5a }, online;

	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)m), 0);
	EXPECT_RET(sys_sched_getaffinity(0, sizeof(m), (long)m), 4);
	online = m[0];
	CHECK((online & 1) && !(online & (online + 1)) && m[1] == 0x5a5a5a5a,
	      "mask %lx %lx", m[0], m[1]);
	EXPECT_RET(sys_sched_getaffinity(getpid(), 4, (long)m), 4);
	EXPECT_RET(sys_sched_getaffinity(0, 0, (long)m), -EINVAL);
	EXPECT_RET(sys_sched_getaffinity(0, 3, (long)m), -EINVAL);
	EXPECT_RET(sys_sched_getaffinity(99999, 4, (long)m), -ESRCH);
	EXPECT_RET(sys_sched_getaffinity(-1, 4, (long)m), -ESRCH);
	EXPECT_RET(sys_sched_getaffinity(0, 4, BAD_PTR), -EFAULT);
	m[0] = 1;
	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)m), 0);
	m[0] = 3;					/* CPU 1 too, online or not */
	EXPECT_RET(sys_sched_setaffinity(1, 8, (long)m), 0);
	m[0] = 0x80000000ul;				/* CPU 31 alone: offline */
	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)m), -EINVAL);
	m[0] = 2;					/* CPU 1 alone */
	EXPECT_RET(sys_sched_setaffinity(0, 2, (long)m), online & 2 ? 0 : -EINVAL);
	m[0] = 1;
	EXPECT_RET(sys_sched_setaffinity(0, 1, (long)m), 0);		/* 1 byte names CPU 0 */
	EXPECT_RET(sys_sched_setaffinity(0, 0, (long)m), -EINVAL);	/* nothing read: empty */
	EXPECT_RET(sys_sched_setaffinity(99999, 4, (long)m), -ESRCH);
	EXPECT_RET(sys_sched_setaffinity(0, 4, BAD_PTR), -EFAULT);
	m[0] = ~0ul;					/* every CPU */
	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)m), 0);
	EXPECT_RET(sys_sched_getaffinity(0, 4, (long)m), 4);
	CHECK(m[0] == online, "mask %lx, online %lx", m[0], online);
	m[0] = 1;					/* back to init's, CPU 0 */
	EXPECT_RET(sys_sched_setaffinity(1, 4, (long)m), 0);
	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)m), 0);
}

/*
 * A running task whose CPU its new mask leaves out is moved at once (its
 * CPU's stopper, migration/N): on return it runs on the mask's CPU, and
 * stays there.  Only with a second CPU online.
 */
static void affinity_moves(void)
{
	unsigned long m = 0, all = ~0ul;

	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)&all), 0);
	EXPECT_RET(sys_sched_getaffinity(0, 4, (long)&m), 4);
	if (!(m & 2))
		return;
	for (int pass = 0; pass < 2; pass++) {
		long to = self_cpu() == 1 ? 0 : 1;	/* not the CPU it is on */

		m = 1ul << to;
		EXPECT_RET(sys_sched_setaffinity(0, 4, (long)&m), 0);
		CHECK(self_cpu() == to, "on CPU %ld, mask %lx", self_cpu(), m);
		for (volatile int i = 0; i < 200000; i++)
			;
		EXPECT_RET(sys_sched_yield(), 0);
		CHECK(self_cpu() == to, "on CPU %ld after a yield, mask %lx", self_cpu(), m);
	}
	m = 1;						/* back where it started */
	EXPECT_RET(sys_sched_setaffinity(0, 4, (long)&m), 0);
}

struct ut_statfs64 {
	uint32_t f_type, f_bsize;
	uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
} __attribute__((packed, aligned(4)));

struct ut_statfs32 {
	uint32_t f_type, f_bsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
};

#define O_WRONLY	1
#define O_CREAT		0100
#define O_TRUNC		01000

static void statfs_calls(void)
{
	struct ut_statfs64 s;
	struct ut_statfs32 s32;
	char buf[512];
	long fd, n;

	EXPECT_RET(sys_statfs64((long)"/tmp/", sizeof(s), (long)&s), 0);
	CHECK(s.f_type == 0x01021994 && s.f_bsize == 4096 && s.f_blocks == 256 &&
	      s.f_bfree <= 256 && s.f_files == 256 && s.f_namelen == 255,
	      "tmpfs: type %x bsize %u blocks %llu", s.f_type, s.f_bsize, s.f_blocks);
	EXPECT_RET(sys_statfs64((long)"/proc/self", sizeof(s), (long)&s), 0);
	CHECK(s.f_type == 0x9fa0 && s.f_blocks == 0 && (s.f_flags & 0xe) == 0xe, "proc: %x", s.f_type);
	EXPECT_RET(sys_statfs64((long)"/sys/kernel/debug/sched_features", sizeof(s), (long)&s), 0);
	CHECK(s.f_type == 0x64626720, "debugfs: %x", s.f_type);
	EXPECT_RET(sys_statfs64((long)"/bin/usertests", sizeof(s), (long)&s), 0);
	CHECK(s.f_type == 0x858458f6 && s.f_blocks > 0 && s.f_bfree == 0 && (s.f_flags & 1),
	      "rootfs: %x %llu", s.f_type, s.f_blocks);
	EXPECT_RET(sys_statfs((long)"/dev/null", (long)&s32), 0);
	CHECK(s32.f_type == 0x01021994 && s32.f_blocks == 0, "devtmpfs: %x", s32.f_type);
	EXPECT_RET(sys_statfs64((long)"/tmp", 64, (long)&s), -EINVAL);
	EXPECT_RET(sys_statfs64((long)"/nosuch", sizeof(s), (long)&s), -ENOENT);
	EXPECT_RET(sys_statfs64(BAD_PTR, sizeof(s), (long)&s), -EFAULT);
	EXPECT_RET(sys_statfs64((long)"/tmp", sizeof(s), BAD_PTR), -EFAULT);
	EXPECT_RET(sys_statfs(BAD_PTR, (long)&s32), -EFAULT);
	EXPECT_RET(sys_statfs((long)"/tmp", BAD_PTR), -EFAULT);
	fd = sys_open((long)"/proc/mounts", O_RDONLY, 0);
	CHECK(fd >= 0, "open /proc/mounts: %ld", fd);
	EXPECT_RET(sys_fstatfs64(fd, sizeof(s), (long)&s), 0);
	CHECK(s.f_type == 0x9fa0, "fstatfs64 of /proc/mounts: %x", s.f_type);
	EXPECT_RET(sys_fstatfs(fd, BAD_PTR), -EFAULT);
	EXPECT_RET(sys_fstatfs64(fd, 1, (long)&s), -EINVAL);
	n = sys_read(fd, (long)buf, sizeof(buf) - 1);
	CHECK(n > 0, "read /proc/mounts: %ld", n);
	buf[n] = '\0';
	CHECK(!strncmp(buf, "rootfs / rootfs ro 0 0\n", 23) &&
	      strstr(buf, "\nproc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n") &&
	      strstr(buf, "\ntmpfs /tmp tmpfs rw,relatime,size=1024k,nr_inodes=256 0 0\n"),
	      "/proc/mounts: %s", buf);
	sys_close(fd);
	EXPECT_RET(sys_fstatfs64(99, sizeof(s), (long)&s), -EBADF);
	EXPECT_RET(sys_fstatfs(-1, (long)&s32), -EBADF);
}

/* sysctl -w of an unknown key: Linux's proc lookup says ENOENT. */
static void proc_create(void)
{
	EXPECT_RET(sys_open((long)"/proc/sys/kernel/sched_nosuch", O_WRONLY | O_CREAT | O_TRUNC, 0666),
		   -ENOENT);
	EXPECT_RET(sys_open((long)"/proc/nosuch", O_WRONLY | O_CREAT, 0666), -ENOENT);
	EXPECT_RET(sys_open((long)"/bin/nosuch", O_WRONLY | O_CREAT, 0666), -EROFS);
}

struct ut_stat64t {
	uint64_t st_dev;
	uint8_t pad0[4];
	uint32_t st_ino32, st_mode, st_nlink, st_uid, st_gid;
	uint64_t st_rdev;
	uint8_t pad3[4];
	int64_t st_size;
	uint32_t st_blksize;
	uint64_t st_blocks;
	uint32_t st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	uint64_t st_ino;
} __attribute__((packed));

#define SEP_14_2010	1284465600u	/* 2010-09-14 12:00:00 UTC, QEMU's RTC */

/* A /tmp file's times are the wall clock (the RTC at boot + uptime). */
static void file_times(void)
{
	struct ut_stat64t st, st2;
	struct timespec now, pause = { 0, 20000000 };	/* 20 ms */
	long fd = sys_open((long)"/tmp/ut_times", O_WRONLY | O_CREAT | O_TRUNC, 0644);

	CHECK(fd >= 0, "create: %ld", fd);
	EXPECT_RET(sys_fstat64(fd, (long)&st), 0);
	sys_clock_gettime(CLOCK_REALTIME, (long)&now);
	CHECK(st.st_mtime >= SEP_14_2010 && st.st_mtime < SEP_14_2010 + 3600 &&
	      st.st_mtime <= (uint32_t)now.tv_sec && st.st_atime == st.st_mtime &&
	      st.st_ctime == st.st_mtime, "mtime %u, now %ld", st.st_mtime, (long)now.tv_sec);
	sys_nanosleep((long)&pause, 0);
	EXPECT_RET(sys_write(fd, (long)"x", 1), 1);
	EXPECT_RET(sys_stat64((long)"/tmp/ut_times", (long)&st2), 0);
	CHECK((uint64_t)st2.st_mtime * 1000000000u + st2.st_mtime_nsec >=
	      (uint64_t)st.st_mtime * 1000000000u + st.st_mtime_nsec + 20000000u,
	      "a write 20 ms later: %u.%09u -> %u.%09u", st.st_mtime, st.st_mtime_nsec,
	      st2.st_mtime, st2.st_mtime_nsec);
	EXPECT_RET(sys_stat64((long)"/proc/version", (long)&st2), 0);
	CHECK(st2.st_mtime >= SEP_14_2010 - 60 && st2.st_mtime <= (uint32_t)now.tv_sec,
	      "/proc made at boot: %u", st2.st_mtime);
	EXPECT_RET(sys_stat64((long)"/bin/usertests", (long)&st2), 0);
	CHECK(st2.st_mtime == 0, "the initrd's mtime: %u", st2.st_mtime);
	CHECK(st.st_dev != st2.st_dev, "/tmp and / share st_dev %llu", st.st_dev);
	sys_close(fd);
	EXPECT_RET(sys_unlink((long)"/tmp/ut_times"), 0);
}

const struct ut_test ut_cmds_tests[] = {
	{ reboot_calls, "reboot_calls" },
	{ syslog_calls, "syslog_calls" },
	{ vfork_calls, "vfork_calls" },
	{ times_calls, "times_calls" },
	{ affinity_calls, "affinity_calls" },
	{ affinity_moves, "affinity_moves" },
	{ statfs_calls, "statfs_calls" },
	{ proc_create, "proc_create" },
	{ file_times, "file_times" },
	{ NULL, NULL },
};
