# boot - multiboot headers and the 32-bit entry that enables paging.
KERNEL_ASM += boot/multiboot.asm          # MB1+MB2 headers, boot page tables, _start -> kmain
