# kernel/exec - turning an initrd member into a runnable image (no paging here).
KERNEL_C += kernel/exec/elf.c		# ELF32 i386 validation, one map_segment call per PT_LOAD
KERNEL_C += kernel/lib/ustar.c		# ustar initrd lookup/iteration (listed here, not in kernel/lib)
