/* tests/host/shim/arch/linkage.h - host stand-in for arch/linkage.h: the
 * host's own calling convention (x86-64 passes arguments in registers). */
#ifndef ARCH_LINKAGE_H
#define ARCH_LINKAGE_H

#define __regparm3

#endif
