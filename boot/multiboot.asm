; boot/multiboot.asm - multiboot1 + multiboot2 headers and the 32-bit entry.
;
; GRUB (multiboot2, the real path) and QEMU's -kernel (which knows only
; multiboot1) both enter _start in 32-bit protected mode, paging off, with
;   eax = magic (0x36d76289 for MB2, 0x2BADB002 for MB1), ebx = info (phys).
; _start builds a boot page directory that maps the first BOOT_MAP_MB of RAM
; twice - identity (so the next instruction still runs) and at 0xC0000000
; (the kernel's link address) - turns paging on, jumps high, and calls
; kmain(magic, info_phys).  The identity half is removed by paging_init().
; 4 KiB page tables only: no PSE assumed this early.

KERNEL_VMA   equ 0xC0000000
BOOT_MAP_MB  equ 64                     ; RAM mapped by the boot tables
BOOT_TABLES  equ BOOT_MAP_MB / 4        ; one page table maps 4 MiB

; ---- multiboot1 header (must lie in the first 8 KiB, 4-byte aligned) ----
MB1_MAGIC    equ 0x1BADB002
MB1_FLAGS    equ 0x00000003             ; bit0: page-align modules, bit1: memory map

section .multiboot
align 4
mb1_header:
	dd MB1_MAGIC
	dd MB1_FLAGS
	dd -(MB1_MAGIC + MB1_FLAGS)

; ---- multiboot2 header (first 32 KiB, 8-byte aligned, tags 8-aligned) ----
MB2_MAGIC    equ 0xE85250D6
MB2_ARCH     equ 0                      ; i386 protected mode
align 8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH + (mb2_header_end - mb2_header))
	; information request: cmdline(1), loader name(2), mmap(6), framebuffer(8), ACPI(14/15)
	align 8
	dw 1, 1                             ; type 1, flags 1 = optional
	dd 8 + 6*4
	dd 1, 2, 6, 8, 14, 15
	align 8
	; framebuffer request (type 5), optional: under UEFI GRUB hands over the
	; firmware's linear framebuffer (arch/x86/fbcon.c); under BIOS grub.cfg
	; sets gfxpayload=text and we get EGA text at 0xB8000 (arch/x86/vga.c).
	; width = height = depth = 0: no preference.  GRUB's multiboot2 command
	; sets gfxpayload from this tag, so grub.cfg sets gfxpayload=text after
	; it (tools/mkiso), not before.
	dw 5, 1                             ; type 5, flags 1 = optional
	dd 20
	dd 0, 0, 0
	align 8
	; end tag
	dw 0, 0
	dd 8
mb2_header_end:

; ---- boot page tables (physical addresses, in .bss via the boot section) ----
section .boot.data nobits
align 4096
boot_pgdir:    resb 4096
boot_pgtables: resb 4096 * BOOT_TABLES

section .boot.text
bits 32
global _start
extern kmain
extern __bss_start, __bss_end
_start:
	cli
	mov esi, eax                        ; keep magic
	mov edi, ebx                        ; keep info pointer

	; Clear .bss (linked high: convert to physical).
	mov ecx, __bss_end
	sub ecx, __bss_start
	mov edx, edi
	mov edi, __bss_start - KERNEL_VMA
	xor eax, eax
	rep stosb
	mov edi, edx

	; Fill BOOT_TABLES page tables: entry i maps physical i*4096, present|writable.
	mov ecx, BOOT_TABLES * 1024
	mov ebx, boot_pgtables
	mov eax, 0x003
.fill_pt:
	mov [ebx], eax
	add eax, 4096
	add ebx, 4
	loop .fill_pt

	; Point PDE 0.. and PDE 768.. (0xC0000000 >> 22) at the same tables.
	mov ecx, BOOT_TABLES
	mov ebx, boot_pgtables + 0x003
	xor edx, edx
.fill_pd:
	mov [boot_pgdir + edx*4], ebx
	mov [boot_pgdir + 768*4 + edx*4], ebx
	add ebx, 4096
	inc edx
	loop .fill_pd

	mov eax, boot_pgdir
	mov cr3, eax
	mov eax, cr0
	or eax, 0x80010000                  ; PG | WP (ring-0 honours read-only pages)
	mov cr0, eax
	lea eax, [.high]
	jmp eax

section .text
.high:
	mov esp, boot_stack_top
	xor ebp, ebp
	push edi                            ; info (physical)
	push esi                            ; magic
	call kmain
.hang:
	cli
	hlt
	jmp .hang

; The boot task's kernel stack (becomes the idle task's stack).
section .bss
align 4096
global boot_stack_bottom, boot_stack_top, boot_pgdir_phys
boot_stack_bottom:
	resb 16384
boot_stack_top:

section .rodata
boot_pgdir_phys: dd boot_pgdir
