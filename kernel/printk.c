/*
 * kernel/printk.c - printk, the console list, the log ring buffer, panic.
 *
 * Every byte printk emits goes to the log ring buffer and to every
 * registered console.  Each new line starts with a Linux-style timestamp
 *	"[%5lu.%06lu] "		seconds . microseconds
 * from the clock installed by printk_set_clock() (nanoseconds; the stamp
 * reads 0.000000 until a clock is set).  Example: "[    1.000250] hello".
 *
 * The ring buffer (LOG_BUF_LEN = 16 KiB) keeps the newest bytes, for
 * dmesg: syslog(2) (kernel/syslog.c) reads it by position with
 * printk_log_copy().  Nothing is lost before the first
 * console exists: register_console() replays the retained log to the first
 * console registered (later consoles only see new output).
 *
 * Concurrency: printk disables interrupts while it formats into its
 * static buffer and writes out, so an interrupt handler may printk.  At
 * more than one CPU it also holds logbuf_lock (2.6.35's, irq-safe) for
 * the same span: the format buffer, the ring, new_line and the console
 * list are under it, and so is the console write, so two CPUs' lines never
 * mix, on a console or in the log.  2.6.35 lets logbuf_lock go before the
 * consoles and has one CPU print the ring out under console_sem while the
 * others only append (release_console_sem()); here the other CPU waits,
 * with interrupts off, while a line goes out (docs/ARCHITECTURE.md,
 * "Locking").  A console's ->write must not printk itself (it would reuse
 * the static buffer; at more than one CPU the message is dropped, or,
 * during a panic, the lock passed by, as 2.6.35's vprintk() does when
 * printk_cpu is this CPU).
 *
 * Each entry point is compiled twice from one body (SMP a constant), as in
 * kernel/mm/pmm.c: the uniprocessor copy has no lock site, and at more than
 * one possible CPU it jumps to the _smp copy (SMP_COPIES,
 * <kernel/smp_copies.h>).
 *
 * Only arch dependency: <arch/irqflags.h>; panic() ends in machine.h.
 */
#include <kernel/host_test.h>	/* first: HOST_TEST renames vsnprintf/snprintf */

#include <kernel/printk.h>
#include <kernel/machine.h>
#include <kernel/math64.h>
#include <kernel/ratelimit.h>
#include <kernel/time.h>
#include <kernel/compiler.h>
#include <kernel/smp_copies.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <arch/irqflags.h>

#define PRINTK_BUF_LEN	1024		/* longest single printk (Linux: 1024) */

static char log_buf[LOG_BUF_LEN];
static u32 log_end;		/* bytes ever logged; next index = log_end % LEN */

static struct console *console_drivers;	/* registration order */
static u64 (*printk_clock)(void);
static bool new_line = true;	/* the next byte starts a line: stamp it */
static char printk_buf[PRINTK_BUF_LEN];
static int panicking;		/* panic() depth */

/* All of the above but the clock and panicking, at more than one CPU. */
static DEFINE_SPINLOCK(logbuf_lock);
static int printk_cpu = -1;	/* the CPU holding logbuf_lock (2.6.35's printk_cpu) */

/*
 * Interrupts off and, if SMP, logbuf_lock held.  The answer says what to
 * do: LOGBUF_LOCKED or LOGBUF_UP (one CPU) go on; if this CPU holds the
 * lock already, a printk from under printk (a console's ->write, or the
 * validator reporting logbuf_lock itself) that would wait for itself for
 * ever, LOGBUF_DROP (interrupts as they were): the message is lost, as
 * 2.6.35's vprintk() drops it when printk_cpu is this CPU; during a panic
 * LOGBUF_ZAPPED goes on without the lock (2.6.35's zap_locks()), so the
 * panic line still comes out.
 */
enum { LOGBUF_DROP, LOGBUF_UP, LOGBUF_LOCKED, LOGBUF_ZAPPED };

static __always_inline int logbuf_lock_irqsave(unsigned long *flags, int smp)
{
	local_irq_save(*flags);
	if (!smp)
		return LOGBUF_UP;
	if (printk_cpu == (int)smp_processor_id()) {
		if (panicking)
			return LOGBUF_ZAPPED;
		local_irq_restore(*flags);
		return LOGBUF_DROP;
	}
	spin_lock(&logbuf_lock);
	printk_cpu = (int)smp_processor_id();
	return LOGBUF_LOCKED;
}

static __always_inline void logbuf_unlock_irqrestore(unsigned long flags, int how)
{
	if (how == LOGBUF_LOCKED) {
		printk_cpu = -1;
		spin_unlock(&logbuf_lock);
	}
	local_irq_restore(flags);
}

/* Append to the ring and hand to every console.  Interrupts are off. */
static void emit(const char *s, size_t n)
{
	struct console *con;

	for (size_t i = 0; i < n; i++)
		log_buf[log_end++ % LOG_BUF_LEN] = s[i];
	for (con = console_drivers; con; con = con->next)
		con->write(s, n);
}

void printk_set_clock(u64 (*clock)(void))
{
	printk_clock = clock;
}

/*
 * printk_ratelimit(): Linux's one shared state for messages a user can
 * provoke at will (2.6.35 kernel/printk.c): 10 lines per 5 s of kernel
 * time (the printk clock), then "FUNC: N callbacks suppressed".
 */
static DEFINE_RATELIMIT_STATE(printk_ratelimit_state, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

int __printk_ratelimit(const char *func)
{
	unsigned long flags;
	int ret;

	local_irq_save(flags);
	ret = ___ratelimit(&printk_ratelimit_state, printk_clock ? printk_clock() : 0, func);
	local_irq_restore(flags);
	return ret;
}

/* Format "[%5lu.%06lu] " for the time NS into BUF; returns its length. */
static int format_timestamp(char *buf, size_t len, u64 ns)
{
	u32 rem_ns;
	u64 sec = div_u64_rem(ns, (u32)NSEC_PER_SEC, &rem_ns);

	return snprintf(buf, len, "[%5lu.%06lu] ", (unsigned long)sec,
			(unsigned long)(rem_ns / (u32)NSEC_PER_USEC));
}

/*
 * Returns the number of bytes emitted, timestamps included (as Linux
 * 2.6.35's printed_len).  Output longer than PRINTK_BUF_LEN-1 is cut, and
 * its last byte becomes a newline: a cut line still ends, so the next
 * printk starts a fresh stamped line instead of running on.
 */
static __always_inline int vprintk_body(const char *fmt, va_list ap, int smp)
{
	unsigned long flags;
	char stamp[32];
	int stamp_len = -1;	/* formatted lazily, once per call */
	int n, total = 0, how;
	const char *p, *end;

	how = logbuf_lock_irqsave(&flags, smp);
	if (how == LOGBUF_DROP)
		return 0;
	n = vsnprintf(printk_buf, sizeof(printk_buf), fmt, ap);
	if (n > (int)sizeof(printk_buf) - 1) {
		n = (int)sizeof(printk_buf) - 1;
		printk_buf[n - 1] = '\n';
	}

	for (p = printk_buf, end = printk_buf + n; p < end;) {
		const char *q = p;

		if (new_line) {
			if (stamp_len < 0)
				stamp_len = format_timestamp(stamp, sizeof(stamp),
					printk_clock ? printk_clock() : 0);
			emit(stamp, (size_t)stamp_len);
			total += stamp_len;
			new_line = false;
		}
		while (q < end && *q != '\n')
			q++;
		if (q < end) {		/* include the newline */
			q++;
			new_line = true;
		}
		emit(p, (size_t)(q - p));
		total += (int)(q - p);
		p = q;
	}
	logbuf_unlock_irqrestore(flags, how);
	return total;
}

SMP_COPIES(int, vprintk, (const char *fmt, va_list ap), fmt, ap)

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

/* Raw output: logged and sent to the consoles, never stamped. */
static __always_inline void console_write_body(const char *s, size_t n, int smp)
{
	unsigned long flags;
	int how;

	if (!n)
		return;
	how = logbuf_lock_irqsave(&flags, smp);
	if (how == LOGBUF_DROP)
		return;
	emit(s, n);
	new_line = s[n - 1] == '\n';
	logbuf_unlock_irqrestore(flags, how);
}

SMP_COPIES_VOID(console_write, (const char *s, size_t n), s, n)

/* A program's output (tty writes): to every console, never stamped and not
 * logged - the log, like Linux's, holds the kernel's lines only, so dmesg
 * still shows the boot after any amount of shell output. */
static __always_inline void console_write_user_body(const char *s, size_t n, int smp)
{
	struct console *con;
	unsigned long flags;
	int how;

	if (!n)
		return;
	how = logbuf_lock_irqsave(&flags, smp);
	if (how == LOGBUF_DROP)
		return;
	for (con = console_drivers; con; con = con->next)
		con->write(s, n);
	new_line = s[n - 1] == '\n';
	logbuf_unlock_irqrestore(flags, how);
}

SMP_COPIES_VOID(console_write_user, (const char *s, size_t n), s, n)

/* Raw text to the console named NAME only, not the log: bulk output (the
 * trace dump) that a screen cannot hold and would only slowly scroll. */
static __always_inline void console_write_only_body(const char *name, const char *s,
						    size_t n, int smp)
{
	struct console *con;
	unsigned long flags;
	int how;

	how = logbuf_lock_irqsave(&flags, smp);
	if (how == LOGBUF_DROP)
		return;
	for (con = console_drivers; con; con = con->next) {
		const char *a = con->name, *b = name;

		while (*a && *a == *b)
			a++, b++;
		if (*a == *b)
			con->write(s, n);
	}
	logbuf_unlock_irqrestore(flags, how);
}

SMP_COPIES_VOID(console_write_only, (const char *name, const char *s, size_t n), name, s, n)

/* Formatted raw output (tables, dumps): one line of at most 511 bytes. */
int console_vprintf(const char *fmt, va_list ap)
{
	char line[512];
	int n = vsnprintf(line, sizeof(line), fmt, ap);

	if (n > (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 1;
	console_write(line, (size_t)n);
	return n;
}

int console_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = console_vprintf(fmt, ap);
	va_end(ap);
	return n;
}

/* Write the retained part of the ring, oldest byte first, to CON. */
static __always_inline void replay_log(struct console *con)
{
	u32 kept = log_end < LOG_BUF_LEN ? log_end : LOG_BUF_LEN;
	u32 start = (log_end - kept) % LOG_BUF_LEN;
	u32 first = kept < LOG_BUF_LEN - start ? kept : LOG_BUF_LEN - start;

	if (first)
		con->write(log_buf + start, first);
	if (kept > first)
		con->write(log_buf, kept - first);
}

static __always_inline void register_console_body(struct console *con, int smp)
{
	unsigned long flags;
	struct console **pp;
	int how;

	how = logbuf_lock_irqsave(&flags, smp);
	if (how == LOGBUF_DROP)
		return;
	for (pp = &console_drivers; *pp; pp = &(*pp)->next)
		if (*pp == con)
			goto out;	/* already registered */
	con->next = NULL;
	if (!console_drivers)
		replay_log(con);	/* everything so far was unseen */
	*pp = con;
out:
	logbuf_unlock_irqrestore(flags, how);
}

SMP_COPIES_VOID(register_console, (struct console *con), con)

/*
 * The log by position (bytes logged since boot): *FIRST the oldest byte
 * the ring still holds, *END the next byte to be logged.
 */
static __always_inline void printk_log_bounds_body(u32 *first, u32 *end, int smp)
{
	unsigned long flags;
	int how;

	how = logbuf_lock_irqsave(&flags, smp);
	*end = log_end;		/* even from under printk: a read of one word */
	*first = log_end < LOG_BUF_LEN ? 0 : log_end - LOG_BUF_LEN;
	logbuf_unlock_irqrestore(flags, how);
}

SMP_COPIES_VOID(printk_log_bounds, (u32 *first, u32 *end), first, end)

/*
 * Copy up to LEN bytes from position FROM into BUF (no NUL added).  FROM
 * is moved up to the oldest retained byte if the ring has overwritten it;
 * the copy stops at the log's end.  Returns the byte count and sets *NEXT
 * to the position after the last byte copied.
 */
static __always_inline size_t printk_log_copy_body(char *buf, u32 from, size_t len,
						   u32 *next, int smp)
{
	unsigned long flags;
	u32 first, n;
	int how;

	how = logbuf_lock_irqsave(&flags, smp);
	if (how == LOGBUF_DROP) {
		*next = from;
		return 0;
	}
	first = log_end < LOG_BUF_LEN ? 0 : log_end - LOG_BUF_LEN;
	if ((s32)(from - first) < 0)
		from = first;
	n = log_end - from;
	if (n > len)
		n = (u32)len;
	for (u32 i = 0; i < n; i++)
		buf[i] = log_buf[(from + i) % LOG_BUF_LEN];
	*next = from + n;
	logbuf_unlock_irqrestore(flags, how);
	return n;
}

SMP_COPIES(size_t, printk_log_copy, (char *buf, u32 from, size_t len, u32 *next), buf, from, len, next)


/*
 * panic: interrupts off, one line
 *	"Kernel panic - not syncing: <message>"
 * (started on a fresh line), then machine_power_off(EXIT_PANIC).
 * A panic while panicking (e.g. from a console) just halts.
 */
void panic(const char *fmt, ...)
{
	static char msg[256];
	va_list ap;

	local_irq_disable();
	if (panicking++)
		machine_halt();

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!new_line)
		printk("\n");
	printk("Kernel panic - not syncing: %s\n", msg);
	machine_power_off(EXIT_PANIC);
}
