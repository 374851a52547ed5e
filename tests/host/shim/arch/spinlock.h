/* tests/host/shim/arch/spinlock.h - the real ticket lock: its xaddw/cmpxchgw build on x86-64 too. */
#ifndef HOST_SHIM_ARCH_SPINLOCK_H
#define HOST_SHIM_ARCH_SPINLOCK_H
#include "../../../../arch/x86/include/arch/spinlock.h"
#endif
