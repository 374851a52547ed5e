/*
 * tests/labs/watch.h - count the objects a piece of code touches (the
 * labs' complexity check, eevdf_visits.c).  N objects each get their own
 * pages of one mapping; between watch_start() and watch_stop() the pages
 * are inaccessible, and the first access to each object faults once: a
 * SIGSEGV handler counts it and opens the object's pages, and the access
 * is retried.  Any other fault goes to the handler that was there before
 * (the sanitizers' report).  Kept apart from the kernel's headers, whose
 * signal names clash with the C library's (so watch_on_abort() is here too).
 */
#ifndef TESTS_LABS_WATCH_H
#define TESTS_LABS_WATCH_H

#include <stddef.h>

/* N objects of SIZE bytes, zeroed; object i is at watch_object(i). */
void watch_alloc(int n, size_t size);
void *watch_object(int i);
void watch_start(void);
/* the number of objects touched since watch_start() */
int watch_stop(void);
void watch_free(void);

/* Call FN when the binary aborts (a sanitizer's report, with main.c's
 * __ubsan_default_options abort_on_error=1), before it dies: the property
 * tests say which case was running. */
void watch_on_abort(void (*fn)(void));

#endif
