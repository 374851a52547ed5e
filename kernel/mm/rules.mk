# kernel/mm - physical frames and the kernel heap (paging itself is arch/x86).
KERNEL_C += kernel/mm/pmm.c		# frame bitmap + struct page refcounts, alloc_pages(order)
KERNEL_C += kernel/mm/kmalloc.c		# kmalloc/kfree: 16..2048-byte slab classes, frames above
