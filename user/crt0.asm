; user/crt0.asm - the entry point of every Granule user program.
;
; The kernel (like Linux's execve on i386) starts the program with
;   [esp]            argc
;   [esp + 4]        argv[0] ... argv[argc - 1], NULL
;   then             envp[0] ... NULL, then the auxiliary vector
; and every other register unspecified.  _start decodes that, aligns the
; stack to 16 bytes (the i386 SysV ABI as gcc assumes it) and calls
; __libc_start(argc, argv, envp) (user/lib/stdlib.c), which runs main and
; exit()s with its result; it never returns.

bits 32
section .text
global _start:function (_start.end - _start)
extern __libc_start

_start:
	xor ebp, ebp                    ; outermost frame for backtraces
	mov eax, [esp]                  ; argc
	lea ebx, [esp + 4]              ; argv
	lea ecx, [ebx + eax * 4 + 4]    ; envp: past argv's NULL
	and esp, -16
	sub esp, 4                      ; 3 pushes + 4 = 16: aligned at the call
	push ecx
	push ebx
	push eax
	call __libc_start
	ud2                             ; not reached
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
