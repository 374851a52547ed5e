/*
 * kernel/smp_copies.h - a function compiled twice, once without its leaf
 * lock and once with it, and the uniprocessor copy redirected to the other
 * when more than one CPU is possible.
 *
 * A lock costs nothing at one CPU only if the code that takes it is not
 * there.  So an entry point that takes a leaf lock (zone->lock, a kmalloc
 * cache's list_lock, logbuf_lock) is written once, as
 *
 *	static __always_inline void *kmalloc_body(size_t size, int smp)
 *
 * where SMP, a constant in each copy, picks the locking, and
 *
 *	SMP_COPIES(void *, kmalloc, (size_t size), size)
 *
 * makes of it:
 *   - kmalloc, noinline: the body with smp = 0, the symbol every caller
 *     calls (noinline: every call, in its own file too, enters through it);
 *   - kmalloc_smp, static: the body with smp = 1;
 *   - the pair {kmalloc, kmalloc_smp} in the section smp_copies.
 * When more than one CPU is possible, smp_prepare_cpus() walks that table
 * once, before the others start, with interrupts off (smp_copies_redirect):
 * each uniprocessor copy's first instruction becomes a jump to its _smp
 * copy (text_redirect(), as Linux's SMP alternatives patch the kernel
 * once at boot).  A -smp 1 boot never patches anything and runs the
 * instructions it always ran.  SMP_COPIES_VOID is the same for a function
 * that returns nothing.
 *
 * The tracer's objects have their sections renamed (.trace.*), so its
 * pairs are a table of its own, given to smp_copies_redirect() directly.
 */
#ifndef KERNEL_SMP_COPIES_H
#define KERNEL_SMP_COPIES_H

#include <kernel/compiler.h>

struct smp_copy {
	void *up;		/* the uniprocessor copy, which callers call */
	void *smp;		/* the copy it jumps to at more than one CPU */
};

#define SMP_COPY(name)	{ (void *)name, (void *)name##_smp }

#define __SMP_COPY_ENTRY(name)							\
	static const struct smp_copy __smp_copy_##name				\
		__used __section("smp_copies") __aligned(4) = SMP_COPY(name);

#ifdef HOST_TEST	/* tests/host: no patchable text, one CPU: the first copy only */
#define SMP_COPIES(ret, name, params, ...)					\
	ret name params { return name##_body(__VA_ARGS__ __VA_OPT__(,) 0); }
#define SMP_COPIES_VOID(name, params, ...)					\
	void name params { name##_body(__VA_ARGS__ __VA_OPT__(,) 0); }
#else
/* NAME(PARAMS), its body NAME_body(ARGS..., smp); see the top of the file. */
#define SMP_COPIES(ret, name, params, ...)					\
	noinline ret name params							\
	{ return name##_body(__VA_ARGS__ __VA_OPT__(,) 0); }			\
	static ret name##_smp params							\
	{ return name##_body(__VA_ARGS__ __VA_OPT__(,) 1); }			\
	__SMP_COPY_ENTRY(name)

#define SMP_COPIES_VOID(name, params, ...)					\
	noinline void name params							\
	{ name##_body(__VA_ARGS__ __VA_OPT__(,) 0); }				\
	static void name##_smp params							\
	{ name##_body(__VA_ARGS__ __VA_OPT__(,) 1); }				\
	__SMP_COPY_ENTRY(name)
#endif

/* Redirect each pair of [START, END) (kernel/cpu.c: the section's). */
void smp_copies_redirect(const struct smp_copy *start, const struct smp_copy *end);

#endif
