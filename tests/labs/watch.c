/*
 * tests/labs/watch.c - the touched-object counter of watch.h.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "watch.h"

static char *arena;
static size_t stride, count;
static unsigned char *touched;
static volatile int nr_touched;
static struct sigaction before;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	char *a = si->si_addr;
	size_t i;

	if (!arena || a < arena || a >= arena + count * stride) {
		sigaction(SIGSEGV, &before, NULL);	/* a real fault: as before */
		return;
	}
	i = (size_t)(a - arena) / stride;
	mprotect(arena + i * stride, stride, PROT_READ | PROT_WRITE);
	if (!touched[i]) {
		touched[i] = 1;
		nr_touched++;
	}
}

void watch_alloc(int n, size_t size)
{
	size_t page = (size_t)getpagesize();

	count = (size_t)n;
	stride = (size + page - 1) / page * page;
	arena = mmap(NULL, count * stride, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (arena == MAP_FAILED)
		abort();
	touched = calloc(count, 1);
}

void *watch_object(int i)
{
	return arena + (size_t)i * stride;
}

void watch_start(void)
{
	struct sigaction sa;

	memset(touched, 0, count);
	nr_touched = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, &before);
	mprotect(arena, count * stride, PROT_NONE);
}

int watch_stop(void)
{
	mprotect(arena, count * stride, PROT_READ | PROT_WRITE);
	sigaction(SIGSEGV, &before, NULL);
	return nr_touched;
}

static void (*on_abort)(void);

static void aborting(int sig)
{
	if (on_abort)
		on_abort();
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
}

void watch_on_abort(void (*fn)(void))
{
	on_abort = fn;
	signal(SIGABRT, aborting);
}

void watch_free(void)
{
	munmap(arena, count * stride);
	free(touched);
	arena = NULL;
}
