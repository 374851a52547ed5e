; arch/x86/vdso_image.asm - the vDSO shared object (build/arch/x86/vdso.so,
; from vdso_vclock.c and vdso.lds) inside the kernel image; arch/x86/vdso.c
; copies it into a page of its own at boot.

section .rodata
align 16
global vdso_image_start, vdso_image_end
vdso_image_start:
	incbin "arch/x86/vdso.so"	; $(BUILD)/arch/x86/..., through nasm -I$(BUILD)/
vdso_image_end:
