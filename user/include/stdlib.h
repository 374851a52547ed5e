/* stdlib.h - memory allocation, process exit, number conversion. */
#ifndef _STDLIB_H
#define _STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS	0
#define EXIT_FAILURE	1

/*
 * The heap lives above the program's .bss and grows with brk(); first fit
 * over an address-ordered free list, neighbours coalesced on free, blocks
 * 16-byte aligned (user/lib/malloc.c).  NULL + errno = ENOMEM when brk
 * refuses to grow.
 */
void *malloc(size_t size);
void free(void *ptr);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);

/* Heap statistics for tests: bytes in use / free / obtained from brk. */
struct malloc_stats {
	size_t in_use, free, heap;
	size_t blocks_in_use, blocks_free;
};
void malloc_get_stats(struct malloc_stats *st);

__attribute__((noreturn)) void exit(int status);	/* runs atexit handlers */
__attribute__((noreturn)) void abort(void);		/* SIGABRT to itself */
int atexit(void (*fn)(void));				/* up to 32 handlers */

int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
int abs(int v);
long labs(long v);

extern char **environ;
char *getenv(const char *name);
/* --help or -h as the first argument: print USAGE on stdout and exit(0), as every
 * Granule program does before anything else (Linux's convention). */
void help_exit(int argc, char **argv, const char *usage);

#endif
