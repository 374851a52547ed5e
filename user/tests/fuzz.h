/*
 * user/tests/fuzz.h - the random system-call fuzzer's shared pieces
 * (user/tests/fuzz.c drives the batches, fuzz_gen.c makes and issues the
 * calls).  See docs/ROBUSTNESS.md.
 *
 * Every batch's workers share the driver's memory (CLONE_VM), so the
 * counters below are plain memory the driver reads after reaping them; the
 * driver re-executes itself between batches, so no batch inherits another's
 * heap, signal handlers or timers.
 */
#ifndef USER_FUZZ_H
#define USER_FUZZ_H

#include <gen/syscall_nr.h>
#include <stdint.h>

/* splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): a 64-bit state advanced by the golden gamma;
 * every seed, even 0, gives a full-period stream. */
static inline uint64_t fuzz_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniform value in [0, n) (n > 0; the modulo bias is irrelevant here). */
static inline uint32_t fuzz_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(fuzz_rand(s) >> 32) % n;
}

/* Outcome buckets of one call.  FUZZ_NORETURN is derived: calls - the
 * sum of the others (exit, a successful execve, a kill mid-call ...). */
enum fuzz_outcome {
	FUZZ_OK,		/* result >= 0, or not in the -errno range */
	FUZZ_EFAULT,
	FUZZ_EINVAL,
	FUZZ_ENOSYS,
	FUZZ_ESRCH,
	FUZZ_EAGAIN,
	FUZZ_ENOMEM,
	FUZZ_OTHER,		/* any other -errno */
	FUZZ_NOUTCOMES
};

/* Counter slots per called number: one per listed call (SYSCALL_LIST and
 * GRANULE_SYSCALL_LIST order), then "unknown number". */
#define FUZZ_NR_LINUX		(0 SYSCALL_LIST(FUZZ_COUNT_ONE))
#define FUZZ_NR_PRIVATE		(0 GRANULE_SYSCALL_LIST(FUZZ_COUNT_ONE))
#define FUZZ_COUNT_ONE(a, b, c)	+ 1
#define FUZZ_SLOT_UNKNOWN	(FUZZ_NR_LINUX + FUZZ_NR_PRIVATE)
#define FUZZ_NSLOTS		(FUZZ_SLOT_UNKNOWN + 1)

/* Workers in a batch: one process (with up to FUZZ_MAX_THREADS threads)
 * and up to FUZZ_MAX_VMPROCS more CLONE_VM processes. */
#define FUZZ_MAX_THREADS	2
#define FUZZ_MAX_VMPROCS	2
#define FUZZ_MAX_WORKERS	(1 + FUZZ_MAX_THREADS + FUZZ_MAX_VMPROCS)
#define FUZZ_STACK_SIZE		(16 * 1024)
#define FUZZ_SCRATCH_SIZE	(8 * 1024)

struct fuzz_worker {
	uint64_t rng;			/* this worker's own stream */
	int ncalls;			/* calls to make */
	int nthreads;			/* worker 0 only: threads it starts */
	volatile int pid;		/* tid, set by the worker itself */
	volatile int tgid;
	volatile int ctid;		/* CLONE_CHILD_CLEARTID word of a thread */
	/* Written by the worker, summed by the driver. */
	volatile uint32_t calls;
	volatile uint32_t outcome[FUZZ_NOUTCOMES];
	volatile uint32_t per_slot[FUZZ_NSLOTS];
	/* The worker's "own buffers": valid pointers point here. */
	unsigned char scratch[FUZZ_SCRATCH_SIZE] __attribute__((aligned(4096)));
	unsigned char stack[FUZZ_STACK_SIZE] __attribute__((aligned(16)));
};

/* Pids a worker must never signal or renice: init and the driver. */
extern int fuzz_protected_pid[2];
extern struct fuzz_worker fuzz_workers[FUZZ_MAX_WORKERS];
extern int fuzz_nworkers;
extern int fuzz_verbose;		/* -v: print every call */

/* Name of counter slot I ("unknown" for the last). */
const char *fuzz_slot_name(int i);
/*
 * Start worker I on its own stack as a clone child with FLAGS (CLONE_VM
 * | ...; exit signal in the low byte).  Returns clone's raw result.
 */
long fuzz_start_worker(int i, unsigned long flags);

#endif
