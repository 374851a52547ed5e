/* tests/host/shim/arch/barrier.h - the real header: builtins and "rep; nop" build on x86-64 too. */
#ifndef HOST_SHIM_ARCH_BARRIER_H
#define HOST_SHIM_ARCH_BARRIER_H
#include "../../../../arch/x86/include/arch/barrier.h"
#endif
