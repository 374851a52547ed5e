/*
 * kernel/limits.h - kernel limits user-space tests must agree with.
 * No includes: user/tests/ut.h (the usertests) includes it too, so a test of a
 * limit can never drift from the kernel's value.
 */
#ifndef KERNEL_LIMITS_H
#define KERNEL_LIMITS_H

#define TASK_MAX	1024	/* task table limit: fork/clone beyond it -> -EAGAIN */

#endif
