# kernel - the portable core's top level (no ports, no registers).
# Each subdirectory (proc, mm, time, sched, lib) has a rules.mk of its own.
KERNEL_C += kernel/main.c                 # kmain: one init call per line
KERNEL_C += kernel/init.c                 # pid 1 (init=, run=) and the idle loop
KERNEL_C += kernel/entry.c                # user faults, return-to-user work (resched, signals)
KERNEL_C += kernel/syscall.c              # the syscall table (Linux i386 numbers)
KERNEL_C += kernel/sys.c                  # small syscalls: ids, nice, uname, kill, poweroff
KERNEL_C += kernel/signal.c               # sending signals, default actions
KERNEL_C += kernel/signal_syscalls.c      # rt_sigaction/procmask/pending/suspend/timedwait
KERNEL_C += kernel/jobctl.c               # stop signals' default action, SIGCONT, parent notification
KERNEL_C += kernel/tty.c                  # fds 0/1/2 on the console, termios and job control ioctls
KERNEL_C += kernel/n_tty.c                # the line discipline: canonical editing, echo, ISIG, VMIN/VTIME
KERNEL_C += kernel/tick.c                 # jiffies, timers, scheduler_tick at HZ
KERNEL_C += kernel/stop_machine.c         # cpu_stop: migration/N, the per-CPU stopper threads
KERNEL_C += kernel/softirq.c              # softirqs: raised by handlers, run at irq_exit (SCHED_SOFTIRQ)
KERNEL_C += kernel/ktest.c                # ktest=NAME in-kernel fault tests
KERNEL_C += kernel/ktest_lockdep.c        # ktest=lockdep: each lock validator report, provoked at boot
KERNEL_C += kernel/ktest_smp.c            # ktest=smp: cross calls, IPIs, TLB shootdown on every CPU
KERNEL_C += kernel/ktest_leaf_locks.c     # ktest=smp: frames, kmalloc and printk from two CPUs at once
KERNEL_C += kernel/cpu.c                  # CPU masks, maxcpus=/nosmp, smp_init: bring the CPUs up
KERNEL_C += kernel/smp_lock.c             # the giant kernel lock (kernel_flag), at more than one CPU
KERNEL_C += kernel/lockdep.c              # the lock validator's graph (pure; host-tested)
KERNEL_C += kernel/lockdep_hooks.c        # lockdep=1, the spinlock and hard-irq hooks, /proc/lockdep_stats
KERNEL_C += kernel/smp.c                  # cross calls: smp_call_function_single/many, on_each_cpu
KERNEL_C += kernel/printk.c               # printk, consoles, 16 KiB log ring, panic
KERNEL_C += kernel/syslog.c               # syslog(2): dmesg reads the log ring again
KERNEL_C += kernel/reboot.c               # sync(2), reboot(2): poweroff, reboot, halt
KERNEL_C += kernel/cmdline.c              # boot knob registry: parse, apply, print
KERNEL_C += kernel/cmdline_suggest.c      # "did you mean KNOB?" for a near-miss boot word
KERNEL_C += kernel/random.c               # get_random_bytes (AT_RANDOM), getrandom
