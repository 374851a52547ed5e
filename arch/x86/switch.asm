; arch/x86/switch.asm - kernel stack switch and the first steps of new tasks.
;
; A switched-out task's kernel stack holds, at thread.esp:
;   edi esi ebx ebp | return address
; (the callee-saved registers of the System V i386 ABI).  A new task gets a
; hand-made frame of the same shape whose return address is one of the
; entry points below.

bits 32
section .text
extern ret_from_trap
extern schedule_tail

; void __switch_stacks(u32 *prev_esp, u32 next_esp)
global __switch_stacks
__switch_stacks:
	mov eax, [esp + 4]
	mov edx, [esp + 8]
	push ebp
	push ebx
	push esi
	push edi
	mov [eax], esp
	mov esp, edx
	pop edi
	pop esi
	pop ebx
	pop ebp
	ret

; First run of a fork/clone child: esp now points at its copied user trap
; frame (arch_fork_child put it right above the switch frame).
extern fork_child_tail
global ret_from_fork
ret_from_fork:
	call schedule_tail                  ; finish the switch (Linux's ret_from_fork)
	call fork_child_tail                ; CLONE_CHILD_SETTID (kernel/proc/fork.c)
	jmp ret_from_trap

; First run of a kernel thread: [esp] = fn, [esp+4] = arg.
global kthread_trampoline
kthread_trampoline:
	call schedule_tail                  ; finish the switch
	sti
	pop eax
	call eax                            ; fn(arg); fn never returns
	ud2

; void __enter_user(struct trap_frame *tf)
global __enter_user
__enter_user:
	mov esp, [esp + 4]
	jmp ret_from_trap
