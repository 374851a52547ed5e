# kernel/mm - physical frames, the kernel heap and user address spaces
# (the page tables themselves are arch/x86/paging.c).
KERNEL_C += kernel/mm/pmm.c               # frame bitmap + struct page refcounts, alloc_pages(order)
KERNEL_C += kernel/mm/kmalloc.c           # kmalloc/kfree: 16..2048-byte slab classes, frames above
KERNEL_C += kernel/mm/vm.c                # user address spaces: COW fork, demand faults, brk
KERNEL_C += kernel/mm/uaccess.c           # checked user copies (-EFAULT)
KERNEL_C += kernel/mm/mmap.c              # mmap2 (anonymous), munmap, mprotect: area splits
KERNEL_C += kernel/mm/tlb.c               # TLB shootdown: flush_tlb_mm/range/all on every CPU concerned
KERNEL_C += kernel/mm/madvise.c           # madvise: DONTNEED drops pages (glibc's thread stacks)
