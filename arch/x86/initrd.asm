; arch/x86/initrd.asm - the user programs, as a ustar archive inside the
; kernel image (one file boots everything, also with QEMU -kernel).
; $(BUILD)/initrd.tar is made by tools/mkinitrd from user/ (see user/rules.mk).

section .initrd
align 16
global initrd_start, initrd_end
initrd_start:
	incbin "initrd.tar"		; $(BUILD)/initrd.tar, through nasm -I$(BUILD)/
initrd_end:
