/*
 * tests/host/lib/host_lib.h - helpers shared by the tests/host/lib tests.
 *
 * Naming on the host (HOST_TEST): the kernel's vsnprintf/snprintf are
 * compiled as kvsnprintf/ksnprintf (kernel/lib/vsprintf.c), and the
 * <kernel/string.h> functions as kmemcpy, kstrlen ...; the plain names stay
 * libc's, which these tests use as the reference.
 */
#ifndef TESTS_HOST_LIB_H
#define TESTS_HOST_LIB_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <kernel/types.h>
#include <kernel/compiler.h>

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* kernel/printk.c: the dmesg reader (not yet in <kernel/printk.h>). */
size_t printk_log_read(char *buf, size_t len);

/*
 * fake_machine.c: machine_power_off()/machine_halt() record the call and
 * longjmp to *fake_machine_jmp (value 1 = power off, 2 = halt) when it is
 * set; otherwise they abort() the test binary.
 */
extern jmp_buf *fake_machine_jmp;
extern int fake_power_off_calls, fake_power_off_status, fake_halt_calls;

/*
 * capture.c: a console that appends everything it receives to a buffer.
 * capture_register() registers it (once); capture_reset() empties it.
 */
void capture_register(void);
void capture_reset(void);
const char *capture_text(void);	/* NUL-terminated */
size_t capture_len(void);
int capture_writes(void);	/* ->write calls since the last reset */

#endif
