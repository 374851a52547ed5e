# kernel - portable core (no ports, no registers).
KERNEL_C += kernel/main.c                 # kmain: one init call per line
KERNEL_C += kernel/entry.c                # portable trap exit: user faults, syscalls, resched
KERNEL_C += kernel/tick.c                 # jiffies + scheduler_tick at HZ
KERNEL_C += kernel/ktest.c                # ktest=NAME in-kernel fault tests
