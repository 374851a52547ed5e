# kernel/time - high-resolution timers and everything built on them.
KERNEL_C += kernel/time/hrtimer.c         # each CPU's hrtimer rbtree; one-shot (highres) or tick-driven expiry
KERNEL_C += kernel/time/tick_sched.c      # the tick emulated per CPU on its hrtimer queue (highres)
KERNEL_C += kernel/time/clock.c           # clock_gettime, nanosleep, clock_nanosleep
KERNEL_C += kernel/time/hrtick.c          # HRTICK on the kernel timer queue
KERNEL_C += kernel/time/posix_timers.c    # timer_create/settime/gettime/getoverrun/delete
KERNEL_C += kernel/time/itimer.c          # alarm, setitimer, getitimer (ITIMER_REAL)
