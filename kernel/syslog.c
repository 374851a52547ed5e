/*
 * kernel/syslog.c - syslog(2) (klogctl(3) in glibc; syscall 103): the
 * kernel log ring of kernel/printk.c read again from user space, as Linux
 * 2.6.35's do_syslog() (kernel/printk.c), so that busybox's dmesg shows
 * the boot's lines (the knob errors among them) after the fact.
 *
 * Positions count bytes logged since boot (printk_log_bounds).  Two marks:
 *   log_start   the next byte action READ consumes (Linux's log_start)
 *   clear_pos   where the last CLEAR left the log; READ_ALL and
 *               READ_CLEAR start no earlier (Linux's logged_chars count)
 * Actions (TYPE) and results:
 *   0 CLOSE, 1 OPEN        0
 *   2 READ                 up to LEN unread bytes, consumed; 0 if there
 *                          are none (Linux blocks until there are: a
 *                          deliberate difference - nothing here waits on
 *                          the log)
 *   3 READ_ALL             the newest min(LEN, retained since CLEAR) bytes
 *   4 READ_CLEAR           the same, then CLEAR
 *   5 CLEAR                0; the log keeps its bytes for READ
 *   6 CONSOLE_OFF, 7 CONSOLE_ON, 8 CONSOLE_LEVEL (LEN 1..8)
 *                          0: the level is recorded; every console
 *                          shows every line, as Granule's printk has no
 *                          levels
 *   9 SIZE_UNREAD          unread byte count
 *   10 SIZE_BUFFER         LOG_BUF_LEN (16384)
 * Errors as Linux: -EINVAL for an unknown TYPE, a NULL BUF or a negative
 * LEN on the read actions, and a CONSOLE_LEVEL outside 1..8; -EFAULT when
 * BUF is not writable for LEN bytes (checked before anything is
 * consumed).  Every caller is root (CAP_SYSLOG), so -EPERM cannot arise.
 */
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/sys.h>
#include <kernel/uaccess.h>

#define SYSLOG_ACTION_CLOSE		0
#define SYSLOG_ACTION_OPEN		1
#define SYSLOG_ACTION_READ		2
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_CLEAR		5
#define SYSLOG_ACTION_CONSOLE_OFF	6
#define SYSLOG_ACTION_CONSOLE_ON	7
#define SYSLOG_ACTION_CONSOLE_LEVEL	8
#define SYSLOG_ACTION_SIZE_UNREAD	9
#define SYSLOG_ACTION_SIZE_BUFFER	10

#define DEFAULT_CONSOLE_LOGLEVEL	7

static u32 log_start;		/* READ's next byte */
static u32 clear_pos;		/* READ_ALL's earliest byte */
static int console_loglevel = DEFAULT_CONSOLE_LOGLEVEL;
static int saved_console_loglevel = -1;

/* Copy log bytes [from, from + len) to UBUF in chunks; bytes copied or -EFAULT. */
static long copy_log_to_user(char *ubuf, u32 from, u32 len)
{
	char chunk[128];
	u32 done = 0;

	while (done < len) {
		u32 want = len - done < sizeof(chunk) ? len - done : sizeof(chunk);
		size_t n = printk_log_copy(chunk, from, want, &from);

		if (!n)
			break;
		if (copy_to_user(ubuf + done, chunk, n))
			return -EFAULT;
		done += (u32)n;
	}
	return done;
}

/* READ_ALL / READ_CLEAR: the newest bytes since clear_pos. */
static long syslog_read_all(char *ubuf, u32 len, int clear)
{
	u32 first, end, from;
	long ret;

	printk_log_bounds(&first, &end);
	from = (s32)(clear_pos - first) > 0 ? clear_pos : first;
	if (end - from > len)
		from = end - len;
	ret = copy_log_to_user(ubuf, from, end - from);
	if (ret >= 0 && clear)
		clear_pos = end;
	return ret;
}

/* READ: the unread bytes, consumed. */
static long syslog_read(char *ubuf, u32 len)
{
	u32 first, end, from;
	long ret;

	printk_log_bounds(&first, &end);
	from = (s32)(log_start - first) > 0 ? log_start : first;
	if (end - from < len)
		len = end - from;
	ret = copy_log_to_user(ubuf, from, len);
	if (ret > 0)
		log_start = from + (u32)ret;
	return ret;
}

long sys_syslog(int type, char *buf, int len)
{
	u32 first, end;

	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!buf || len < 0)
			return -EINVAL;
		if (!len)
			return 0;
		if (!access_ok((u32)(unsigned long)buf, (u32)len))
			return -EFAULT;
		if (type == SYSLOG_ACTION_READ)
			return syslog_read(buf, (u32)len);
		return syslog_read_all(buf, (u32)len, type == SYSLOG_ACTION_READ_CLEAR);
	case SYSLOG_ACTION_CLEAR:
		printk_log_bounds(&first, &end);
		clear_pos = end;
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:
		if (saved_console_loglevel == -1)
			saved_console_loglevel = console_loglevel;
		console_loglevel = 1;	/* minimum_console_loglevel */
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_console_loglevel != -1) {
			console_loglevel = saved_console_loglevel;
			saved_console_loglevel = -1;
		}
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > 8)
			return -EINVAL;
		console_loglevel = len;
		saved_console_loglevel = -1;
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD:
		printk_log_bounds(&first, &end);
		return (s32)(log_start - first) > 0 ? end - log_start : end - first;
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_LEN;
	default:
		return -EINVAL;
	}
}
