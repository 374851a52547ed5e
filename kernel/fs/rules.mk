# kernel/fs - the file name space (no disk): the initrd's tree.
KERNEL_C += kernel/fs/initrd.c            # initrd index, path walk with directories and symlinks
