; arch/x86/entry.asm - interrupt, exception and syscall entry stubs.
;
; Every vector pushes (error code or 0) and its number, then jumps to
; common_entry, which completes a struct trap_frame (arch/segment.h):
;   pusha | gs fs es ds | vector error | eip cs eflags [useresp ss]
; and calls trap_dispatch(struct trap_frame *).  The C side decides about
; rescheduling and signal delivery before we return here (ret_from_trap).
;
; int $0x80 has a stub of its own (Linux 2.6.35's system_call): the same
; frame, with the syscall number as the error code (orig_eax), straight
; into do_syscall(), which also does the return-to-user work.

bits 32
section .text
extern trap_dispatch
extern do_syscall
extern do_syscall_smp

%define SYSCALL_VECTOR 0x80
%define KERNEL_DS 0x10
%define KERNEL_PERCPU 0x48                 ; __KERNEL_PERCPU, arch/segment.h

; Complete the trap frame below the vector and error words (Linux's
; SAVE_ALL): the user's selectors, then the general registers; load the
; kernel's segments and clear DF, which the C code assumes.  ds, es and gs
; get the flat kernel data segment (the kernel has no use for a user gs, and
; one whose TLS slot another task's switch emptied would fault when a nested
; trap's exit reloads it); fs gets __KERNEL_PERCPU, this CPU's per-CPU area
; (arch/percpu.h), as Linux i386 has since 2.6.20.  A kernel-mode trap's
; exit reloads whatever it saved.  The per-CPU segment costs one
; instruction per entry (the second "mov eax"): docs/FASTPATHS.md.
%macro SAVE_ALL 0
	push ds
	push es
	push fs
	push gs
	pusha                               ; now esp -> struct trap_frame
	mov eax, KERNEL_DS
	mov ds, eax
	mov es, eax
	mov gs, eax
	mov eax, KERNEL_PERCPU
	mov fs, eax
	cld
%endmacro

%macro VEC_NOERR 1
vec_%1:
	push dword 0
	push dword %1
	jmp common_entry
%endmacro

%macro VEC_ERR 1
vec_%1:
	push dword %1                       ; the CPU pushed an error code
	jmp common_entry
%endmacro

; Exceptions 8, 10-14, 17, 21, 29, 30 push an error code.
%assign i 0
%rep 256
%if i == 8 || (i >= 10 && i <= 14) || i == 17 || i == 21 || i == 29 || i == 30
	VEC_ERR i
%elif i == SYSCALL_VECTOR
	; below
%else
	VEC_NOERR i
%endif
%assign i i+1
%endrep

common_entry:
	SAVE_ALL
	push esp                            ; struct trap_frame *
	call trap_dispatch
	add esp, 4
	jmp ret_from_trap

; int $0x80 with more than one CPU online (arch_smp_syscall_gate): the same
; frame, into do_syscall_smp(), which holds the giant kernel lock around
; a call that needs it (kernel/syscall.c).
global system_call_smp
system_call_smp:
	push eax                            ; orig_eax
	push dword SYSCALL_VECTOR
	SAVE_ALL
	push esp                            ; struct trap_frame *
	call do_syscall_smp
	add esp, 4
	jmp ret_from_trap

; int $0x80, through a DPL-3 trap gate (idt.c): interrupts stay on, as on
; Linux.  eax = number, ebx ecx edx esi edi ebp = arguments; the frame keeps
; them all, and the number twice (eax becomes the result, orig_eax in the
; error slot lets a signal restart the call).  do_syscall(tf) returns with
; interrupts off, the result in the frame and the exit work done.
vec_128:
	push eax                            ; orig_eax
	push dword SYSCALL_VECTOR
	SAVE_ALL
	push esp                            ; struct trap_frame *
	call do_syscall
	add esp, 4
global ret_from_trap
ret_from_trap:
	popa
; From here to the iret, a user frame's selectors (user-controlled through
; sigreturn and set_thread_area) may fault in ring 0.  traps.c
; (fixup_user_return) tells from the faulting EIP which instruction it was
; and, as Linux 2.6.35's RESTORE_REGS/POP_GS exception-table fixups do:
;   pop gs / pop fs / pop es / pop ds: writes 0 (the null selector) into
;     that one saved selector, keeps the others, and runs the exit again -
;     silently, no signal; each retry nulls one more selector, and a null
;     data selector always loads, so this ends;
;   iret (bad cs or ss from a sigcontext): SIGILL, as Linux's iret_exc ->
;     do_iret_error.
; Either way it goes on at ret_from_bad_user_frame instead of oopsing.
global __ret_user_gs, __ret_user_fs, __ret_user_es, __ret_user_ds, __ret_user_iret
__ret_user_gs:
	pop gs
__ret_user_fs:
	pop fs
__ret_user_es:
	pop es
__ret_user_ds:
	pop ds
	add esp, 8                          ; vector, error
__ret_user_iret:
	iret

; void ret_from_bad_user_frame(struct trap_frame *utf), no return: utf is
; the current task's user frame (task_pt_regs), rebuilt by traps.c after
; its reload faulted (a selector nulled, or SIGILL queued).  Run the exit
; path again on it (exit_to_caller(utf, 1) delivers any pending signal)
; and return from it.
extern exit_to_caller
global ret_from_bad_user_frame
ret_from_bad_user_frame:
	mov eax, [esp + 4]
	mov esp, eax
	push dword 1
	push eax
	call exit_to_caller
	add esp, 8
	jmp ret_from_trap

; Table of the 256 stub addresses for idt_init().
section .rodata
global vector_stubs
vector_stubs:
%assign i 0
%rep 256
	dd vec_ %+ i
%assign i i+1
%endrep
