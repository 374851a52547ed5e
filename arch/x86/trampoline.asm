; arch/x86/trampoline.asm - where a started CPU (an AP) begins: real mode
; to the kernel's C code (Linux 2.6.35's trampoline_32.S and head_32.S's
; startup_32_smp; xv6's entryother.S).
;
; A STARTUP IPI with vector VV starts the AP in real mode at VV00:0000, so
; the code below trampoline_data is copied at boot to a free page below
; 1 MiB (arch/x86/smpboot.c) and VV is that page's number.  Step by step:
;  1. real mode, at the copied page: DS = CS, interrupts off, write
;     0xA5A5A5A5 to trampoline_status (the boot CPU can tell "never ran"
;     from "ran and got stuck"); load a GDT with flat 32-bit code and data
;     (ap_boot_gdt, in the identity-linked .boot.text, so its physical
;     address is its link address) and set CR0.PE;
;  2. a far jump into 32-bit protected mode at startup_32_smp, still at a
;     physical address (paging off): load the data segments, CR4 (PSE, no
;     PGE yet), CR3 = smp_boot_pgdir (the kernel's directory plus an
;     identity mapping of the first 4 MiB, which holds the trampoline and
;     .boot), then the boot CPU's CR0 (paging, WP, caches on: INIT left
;     CD and NW set);
;  3. jump to the kernel's virtual addresses (secondary_startup_high):
;     load this CPU's own GDT (early_gdt_descr, set by the boot CPU for
;     each AP), reload CS and the data segments, %fs = __KERNEL_PERCPU (this
;     CPU's area from here on), the idle task's stack (stack_start), the
;     kernel's own page directory (the identity mapping goes; with CR4.PGE
;     still off that load flushes every translation), then CR4 with PGE;
;  4. call start_secondary() (smpboot.c), which never returns.
; The variables are written by the boot CPU before each STARTUP IPI and
; read only by the AP being started (one at a time).

KERNEL_VMA      equ 0xC0000000
BOOT_CS         equ 0x08                    ; ap_boot_gdt's selectors
BOOT_DS         equ 0x10
KERNEL_CS       equ 0x08                    ; arch/segment.h
KERNEL_DS       equ 0x10
KERNEL_PERCPU   equ 0x48

; ---- 1. real mode (copied below 1 MiB; every address CS-relative) ----
section .rodata
bits 16
align 16
global trampoline_data, trampoline_end, trampoline_status
trampoline_data:
r_base:
	wbinvd                              ; as Linux: harmless, needed by old NUMA boxes
	mov ax, cs
	mov ds, ax
	cli
	mov dword [trampoline_status - r_base], 0xA5A5A5A5
	o32 lidt [boot_idt_descr - r_base]  ; limit 0: nothing may interrupt us
	o32 lgdt [boot_gdt_descr - r_base]  ; o32: the whole 32-bit base
	mov eax, cr0
	or eax, 1                           ; PE
	mov cr0, eax
	jmp dword BOOT_CS:startup_32_smp    ; flush the prefetch, enter 32-bit code
align 4
boot_gdt_descr:
	dw ap_boot_gdt_end - ap_boot_gdt - 1
	dd ap_boot_gdt                      ; physical == link address (.boot)
boot_idt_descr:
	dw 0
	dd 0
trampoline_status:
	dd 0
trampoline_end:

; ---- 2. protected mode, paging off (identity-linked, like _start) ----
section .boot.text
bits 32
align 8
ap_boot_gdt:
	dq 0
	dq 0x00cf9b000000ffff               ; flat 4 GiB code, ring 0, accessed
	dq 0x00cf93000000ffff               ; flat 4 GiB data, ring 0, accessed
ap_boot_gdt_end:

startup_32_smp:
	cld
	mov eax, BOOT_DS
	mov ds, eax
	mov es, eax
	mov ss, eax
	mov fs, eax
	mov gs, eax
	mov eax, [smp_boot_cr4 - KERNEL_VMA]
	mov cr4, eax
	mov eax, [smp_boot_pgdir - KERNEL_VMA]
	mov cr3, eax
	mov eax, [smp_boot_cr0 - KERNEL_VMA] ; the boot CPU's: PG, WP, the FPU bits,
	mov cr0, eax                        ; and caches on (INIT left CD, NW set)
	mov eax, secondary_startup_high
	jmp eax

; ---- 3. the kernel's addresses ----
section .text
extern start_secondary, kernel_pgdir
secondary_startup_high:
	lgdt [early_gdt_descr]
	jmp KERNEL_CS:.reload
.reload:
	mov eax, KERNEL_DS
	mov ds, eax
	mov es, eax
	mov ss, eax
	mov gs, eax
	mov eax, KERNEL_PERCPU
	mov fs, eax
	mov esp, [stack_start]
	mov eax, [kernel_pgdir]
	mov cr3, eax
	mov eax, [smp_boot_cr4_full]
	mov cr4, eax
	xor ebp, ebp
	call start_secondary                ; 4. no return
.hang:
	cli
	hlt
	jmp .hang

section .data
global early_gdt_descr, stack_start, smp_boot_pgdir, smp_boot_cr0, smp_boot_cr4, smp_boot_cr4_full
align 4
stack_start:       dd 0                 ; the AP's first esp (its idle task's stack)
smp_boot_pgdir:    dd 0                 ; physical: kernel half + identity 0..4 MiB
smp_boot_cr0:      dd 0                 ; the boot CPU's CR0
smp_boot_cr4:      dd 0                 ; the boot CPU's CR4 without PGE
smp_boot_cr4_full: dd 0                 ; ... with it
	dw 0                                ; align the base of:
early_gdt_descr:   dw 0                 ; the AP's own GDT: limit
	dd 0                                ; ... and (virtual) base
