# kernel/proc - processes and threads: their lifetime, images and waits.
KERNEL_C += kernel/proc/task.c            # task table, pids, guarded kernel stacks
KERNEL_C += kernel/proc/fork.c            # fork, clone, kernel threads
KERNEL_C += kernel/proc/vfork.c           # CLONE_VFORK: the parent waits for the child's exec or exit
KERNEL_C += kernel/proc/exit.c            # exit, exit_group, wait4, reparenting
KERNEL_C += kernel/proc/exec.c            # execve from the initrd, initial user stack
KERNEL_C += kernel/proc/exec_elf.c        # load_elf_binary: the program, a PIE's bias, its PT_INTERP
KERNEL_C += kernel/proc/elf.c             # ELF32 i386 validation, one map_segment call per PT_LOAD
KERNEL_C += kernel/proc/wait.c            # wait queues
KERNEL_C += kernel/proc/pgrp.c            # process groups, sessions, kill to a group
KERNEL_C += kernel/proc/futex.c           # FUTEX_WAIT/WAKE for thread join
KERNEL_C += kernel/proc/futex_pi.c        # PI futexes: LOCK_PI, UNLOCK_PI, TRYLOCK_PI, exit hand-on
KERNEL_C += kernel/proc/futex_robust.c    # the robust list at exit, get_robust_list
KERNEL_C += kernel/proc/rtmutex_lock.c    # rt_mutex_timed_lock: sleep for a PI lock
KERNEL_C += kernel/proc/rusage.c          # process CPU time: wait4's rusage, getrusage
KERNEL_C += kernel/proc/creds.c           # uid/gid (root), set_tid_address, robust list, rseq
KERNEL_C += kernel/proc/rlimit.c          # resource limits: init's, getrlimit, setrlimit (prlimit64)
