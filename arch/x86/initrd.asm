; arch/x86/initrd.asm - the user programs, as a ustar archive inside the
; kernel image (one file boots everything, also with QEMU -kernel).
; build/initrd.tar is made by tools/mkinitrd from user/ (see user/rules.mk).

section .initrd
align 16
global initrd_start, initrd_end
initrd_start:
	incbin "build/initrd.tar"
initrd_end:
