/*
 * tests/host/shim/arch/process.h - host stand-in for arch/process.h: the
 * real header holds only declarations, so it is used as it is; a host test
 * that links kernel/proc/fork.c defines the hooks (tests/host/sched/test_fork.c).
 */
#ifndef HOST_SHIM_ARCH_PROCESS_H
#define HOST_SHIM_ARCH_PROCESS_H
#include "../../../../arch/x86/include/arch/process.h"
#endif
