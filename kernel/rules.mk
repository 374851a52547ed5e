# kernel - portable core (no ports, no registers).
KERNEL_C += kernel/main.c                 # kmain: one init call per line
KERNEL_C += kernel/init.c                 # pid 1 (init=, run=) and the idle loop
KERNEL_C += kernel/entry.c                # user faults, return-to-user work (resched, signals)
KERNEL_C += kernel/syscall.c              # the syscall table (Linux i386 numbers)
KERNEL_C += kernel/sys.c                  # small syscalls: ids, nice, uname, kill, poweroff
KERNEL_C += kernel/signal.c               # sending signals, default actions
KERNEL_C += kernel/tty.c                  # fds 0/1/2 on the console
KERNEL_C += kernel/tick.c                 # jiffies, timers, scheduler_tick at HZ
KERNEL_C += kernel/ktest.c                # ktest=NAME in-kernel fault tests
KERNEL_C += kernel/time/hrtimer.c         # hrtimer rbtree; one-shot (highres) or tick-driven expiry
KERNEL_C += kernel/time/clock.c           # clock_gettime, nanosleep, clock_nanosleep
KERNEL_C += kernel/proc/task.c            # task table, pids, guarded kernel stacks
KERNEL_C += kernel/proc/fork.c            # fork, clone, kernel threads
KERNEL_C += kernel/proc/exit.c            # exit, exit_group, wait4, reparenting
KERNEL_C += kernel/proc/exec.c            # execve from the initrd, initial user stack
KERNEL_C += kernel/proc/wait.c            # wait queues
KERNEL_C += kernel/proc/futex.c           # FUTEX_WAIT/WAKE for thread join
KERNEL_C += kernel/proc/rusage.c          # process CPU time: wait4's rusage, getrusage
KERNEL_C += kernel/mm/vm.c                # user address spaces: COW fork, demand faults, brk
KERNEL_C += kernel/mm/uaccess.c           # checked user copies (-EFAULT)
KERNEL_C += kernel/time/hrtick.c          # HRTICK on the kernel timer queue
KERNEL_C += kernel/time/posix_timers.c    # timer_create/settime/gettime/getoverrun/delete
