# kernel/fs - the file name space (no disk): the initrd's tree.
KERNEL_C += kernel/fs/initrd.c            # initrd index, path walk with directories and symlinks
KERNEL_C += kernel/fs/stat.c              # stat64, fstat64, fstatat64, statx (console fds, initrd files)
KERNEL_C += kernel/fs/namei.c             # path lookup (initrd + pseudo), readlink, access/faccessat, getcwd
KERNEL_C += kernel/fs/file.c              # open files, fd tables; read, write(v), close, lseek, dup*, fcntl64
KERNEL_C += kernel/fs/open.c              # open/openat over the name space, initrd files, getdents64
KERNEL_C += kernel/fs/pseudo.c            # /dev, /proc/sys/kernel/sched_*, /proc/sched_debug, /sys/.../sched_features
KERNEL_C += kernel/fs/sysctl_sd.c         # the /proc/sys/kernel/sched_domain/ tree: cpuN, domainM, files
KERNEL_C += kernel/fs/poll.c              # poll_wait(): files announce readiness changes (kernel/poll.h)
KERNEL_C += kernel/fs/select.c            # poll, ppoll, select, pselect6 (both time ABIs)
KERNEL_C += kernel/fs/pipe.c              # pipe, pipe2: a one-page ring with blocking ends
KERNEL_C += kernel/fs/tmpfs.c             # /tmp: files and directories in kernel memory, bounded
KERNEL_C += kernel/fs/dir.c               # unlink(at), rmdir, mkdir(at), rename(at), ftruncate(64)
KERNEL_C += kernel/fs/statfs.c            # the mount table: /proc/mounts, statfs(64), fstatfs(64)
KERNEL_C += kernel/fs/procfs.c            # /proc/PID/{stat,status,statm,cmdline,comm,sched}, /proc/self
KERNEL_C += kernel/fs/procfs_maps.c       # /proc/PID/maps
KERNEL_C += kernel/fs/procfs_stat.c       # /proc/{stat,loadavg,uptime,meminfo,vmstat}
