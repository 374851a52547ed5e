/*
 * kernel/compiler.h - small compiler helpers used everywhere.
 */
#ifndef KERNEL_COMPILER_H
#define KERNEL_COMPILER_H

#include <kernel/types.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __unused	__attribute__((unused))
#define __noreturn	__attribute__((noreturn))
#define __packed	__attribute__((packed))
#define __aligned(n)	__attribute__((aligned(n)))
#define __section(s)	__attribute__((section(s)))
#define __used		__attribute__((used))
/* Never inlined (Linux's noinline; spell the attribute __noinline__ where
 * this header is in scope).  A function kernel/trace/probes.c puts a kprobe
 * on must be entered through its own first byte at every call. */
#define noinline	__attribute__((__noinline__))
/* Always inlined (Linux's __always_inline): a body compiled into two copies
 * with a constant argument that picks its locking (kernel/mm/pmm.c). */
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has it too (host builds) */
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __printf(a, b)	__attribute__((format(printf, a, b)))
/*
 * Marks a function that only the host unit tests (tests/host/) call: the
 * kernel links it but never reaches it (a library API kept whole, or a
 * statistic only a test reads); it goes on the definition.  Expands to
 * nothing, so the image is unchanged; `git grep __host_test_only` lists them.
 */
#define __host_test_only

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)

#define ALIGN_UP(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))

#define barrier()	__asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#endif
