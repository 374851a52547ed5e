/*
 * tests/host/lib/capture.c - a console that records printk output.
 */
#include <string.h>
#include <kernel/printk.h>
#include "host_lib.h"

static char cap_buf[64 * 1024];
static size_t cap_len;
static int cap_writes;

static void cap_write(const char *s, size_t n)
{
	cap_writes++;
	if (n > sizeof(cap_buf) - 1 - cap_len)
		n = sizeof(cap_buf) - 1 - cap_len;
	memcpy(cap_buf + cap_len, s, n);
	cap_len += n;
	cap_buf[cap_len] = '\0';
}

static struct console capture_console = { .name = "capture", .write = cap_write };

void capture_register(void)
{
	register_console(&capture_console);
}

void capture_reset(void)
{
	cap_len = 0;
	cap_buf[0] = '\0';
	cap_writes = 0;
}

const char *capture_text(void) { return cap_buf; }
size_t capture_len(void) { return cap_len; }
int capture_writes(void) { return cap_writes; }
