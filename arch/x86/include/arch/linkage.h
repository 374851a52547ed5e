/*
 * arch/linkage.h - calling conventions the portable code may ask for.
 *
 * __regparm3: the first three integer arguments travel in eax, edx, ecx
 * (GCC's regparm(3), the calling convention of Linux's i386 kernel, which
 * builds everything with -mregparm=3).  Granule builds with the stack
 * convention and asks for this one per function, where a tail jump should
 * hand over what the caller already holds in registers.
 */
#ifndef ARCH_LINKAGE_H
#define ARCH_LINKAGE_H

#define __regparm3	__attribute__((regparm(3)))

#endif
