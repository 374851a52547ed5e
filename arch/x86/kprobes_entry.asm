; arch/x86/kprobes_entry.asm - the int3 gate and the return trampoline of
; kprobes (<kernel/kprobes.h>).  Assembled into .trace.text: the tracer's
; own part of the image (see linker.ld), free memory when tracing is off.
;
; kprobe_int3_entry: installed on vector 3 only once a probe exists.  From
; ring 3, or for a breakpoint that is not a probe, it continues into the
; ordinary vector 3 stub (SIGTRAP, or the kernel's oops).  Otherwise it
; calls kprobe_int3_handler(regs) with pushad's frame under the iret frame
; (eip, cs, eflags: a ring-0 trap pushes no esp/ss, so the probed code's
; stack starts right above eflags) and irets to the eip it set.
;
; kretprobe_trampoline: a probed function "returns" here; the handler gives
; back the real return address, which the final ret uses.  eax/edx (the
; return value) are preserved by pushad/popad.

extern kprobe_int3_handler
extern kretprobe_handler
extern vector_stubs

global kprobe_int3_entry
global kretprobe_trampoline
global kprobe_insn_slots

section .trace.text progbits alloc exec nowrite align=16
align 16
kprobe_int3_entry:
	test dword [esp + 4], 3		; cs: from user mode?
	jnz .chain
	pushad
	mov eax, esp
	push eax
	call kprobe_int3_handler
	add esp, 4
	test eax, eax
	popad				; does not touch the flags
	jz .chain
	iretd
.chain:
	jmp [vector_stubs + 3 * 4]

align 16
kretprobe_trampoline:
	push 0				; becomes the real return address
	pushfd
	cli
	pushad
	mov eax, esp
	push eax
	call kretprobe_handler		; eax = the return address
	add esp, 4
	mov [esp + 36], eax		; over the 0 pushed first
	popad
	popfd
	ret

; The out-of-line "first instruction; jmp to the second" of each probe (16
; bytes each, one per KPROBES_MAX in kprobes.c).  They live with the code, not with the
; probes' data: QEMU retranslates a page of code at every store into it,
; and the data (the return instances) is written at every probe hit.
align 16
kprobe_insn_slots:
	times 32 * 16 db 0xcc
