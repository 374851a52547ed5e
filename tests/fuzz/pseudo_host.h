/*
 * tests/fuzz/pseudo_host.h - the /proc and /sys targets' way into
 * kernel/fs/pseudo.c (pseudo_host.c): a path opened, written or read
 * whole, and closed, as open(2), write(2)/read(2) and close(2) do it.
 */
#ifndef FUZZ_PSEUDO_HOST_H
#define FUZZ_PSEUDO_HOST_H

#include <stddef.h>

#include <kernel/types.h>

/* Open PATH (no leading '/') with FLAGS, make one write of the LEN bytes
 * at DATA (from an exact-size copy: ASan sees a read past them), close:
 * the write's result, or the lookup's or open's -errno. */
long pseudo_write(const char *path, u32 flags, const void *data, size_t len);

/* Open PATH read-only, read it whole into BUF (SIZE bytes, the text
 * NUL-terminated), close: its length, or -errno. */
long pseudo_read(const char *path, char *buf, size_t size);

/* Write every blank-separated word of TEXT to PATH, one write each (as
 * Linux's sched_features and set_event take one name a write): 0 if
 * every write took its whole word, else -1. */
int pseudo_write_words(const char *path, const char *text);

#endif
