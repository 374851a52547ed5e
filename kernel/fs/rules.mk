# kernel/fs - the file name space (no disk): the initrd's tree.
KERNEL_C += kernel/fs/initrd.c            # initrd index, path walk with directories and symlinks
KERNEL_C += kernel/fs/stat.c              # stat64, fstat64, fstatat64, statx (console fds, initrd files)
KERNEL_C += kernel/fs/namei.c             # readlink, access/faccessat, getcwd
