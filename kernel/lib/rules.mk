# kernel/lib + the portable kernel library (printk, cmdline).
KERNEL_C += kernel/lib/string.c		# mem*/str*, strlcpy, kstrto* number parsing
KERNEL_C += kernel/lib/vsprintf.c	# vsnprintf/snprintf (shared with user libc)
KERNEL_C += kernel/printk.c		# printk, consoles, 16 KiB log ring, panic
KERNEL_C += kernel/cmdline.c		# boot knob registry: parse, apply, print
