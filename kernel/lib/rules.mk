# kernel/lib - data structures and formatting with no kernel state
# (string.c and vsprintf.c are also built into the user libc).
KERNEL_C += kernel/lib/string.c           # mem*/str*, strlcpy, kstrto* number parsing
KERNEL_C += kernel/lib/vsprintf.c         # vsnprintf/snprintf (shared with user libc)
KERNEL_C += kernel/lib/rbtree.c           # red-black tree (the CFS timeline, hrtimers)
KERNEL_C += kernel/lib/ustar.c            # ustar initrd lookup/iteration
KERNEL_C += kernel/lib/ratelimit.c         # ___ratelimit (printk_ratelimit, as Linux's lib/ratelimit.c)
KERNEL_C += kernel/lib/rbtree_augmented.c # subtree values on rbtree.c (EEVDF min_vruntime)
