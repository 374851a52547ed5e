/*
 * kernel/printk.h - formatted output, panic and assertions.
 *
 * printk() prefixes each new line with a Linux-style timestamp taken from
 * local_clock(): "[    0.123456] ".  Supported conversions: %d %i %u %x %X
 * %o %s %c %p %% with the l/ll/z/h modifiers, '-' '0' '+' ' ' flags, widths
 * and precisions (including '*').
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <stdarg.h>
#include <kernel/types.h>
#include <kernel/compiler.h>

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* A console receives every byte printk emits (serial, screen ...). */
struct console {
	const char *name;
	void (*write)(const char *s, size_t n);
	struct console *next;
};
void register_console(struct console *con);

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
/* Write raw text with no timestamp processing (used by tables and dumps). */
void console_write(const char *s, size_t n);
/* A program's output: to every console, not to the log (dmesg shows the kernel's lines). */
void console_write_user(const char *s, size_t n);
/* The same to the console named NAME only ("serial"), not the log buffer. */
void console_write_only(const char *name, const char *s, size_t n);
/* The same, formatted (at most 511 bytes a call): tables and dumps. */
int console_printf(const char *fmt, ...) __printf(1, 2);
int console_vprintf(const char *fmt, va_list ap);

/*
 * printk_ratelimit(): 1 if a message a user can provoke at will may be
 * printed now (10 per 5 s of kernel time, shared), 0 if suppressed.
 */
int __printk_ratelimit(const char *func);
#define printk_ratelimit()	__printk_ratelimit(__func__)

/* Timestamp source for printk, nanoseconds; returns 0 until set. */
void printk_set_clock(u64 (*clock)(void));

/* The log ring by position, bytes logged since boot (for syslog(2)):
 * the oldest retained position and the end; a copy from a position. */
#define LOG_BUF_LEN	(16 * 1024)	/* power of two */
void printk_log_bounds(u32 *first, u32 *end);
size_t printk_log_copy(char *buf, u32 from, size_t len, u32 *next);

__noreturn void panic(const char *fmt, ...) __printf(1, 2);

#define BUG() panic("kernel BUG at %s:%d!", __FILE__, __LINE__)
#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)
#define WARN_ON(cond) ({ \
	int __w = !!(cond); \
	if (unlikely(__w)) \
		printk("WARNING: at %s:%d %s()\n", __FILE__, __LINE__, __func__); \
	unlikely(__w); })

#endif
