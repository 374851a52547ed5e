; arch/x86/string.asm - the kernel's memcpy and memset with the string
; instructions, as Linux i386's __memcpy and __memset do: the bulk in 32-bit
; words (rep movsd / rep stosd), then the 0-3 byte tail.
;
; They override kernel/lib/string.c's weak C versions (still used by the
; host tests and by user space).  Under QEMU -icount each iteration of a
; rep instruction is one instruction, so a copy of N bytes costs ~N/4 + 14
; instead of the C word loop's ~13 per 16 bytes plus its set-up: the
; 128-byte siginfo of every signal, the one-byte pipe transfers and the
; FPU frame of every handler all go through here.  The direction flag is
; clear in the kernel (common_entry's cld; nothing sets it).

bits 32
section .text

; void *memcpy(void *dst, const void *src, size_t n)
global memcpy
memcpy:
	push edi
	push esi
	mov edi, [esp + 12]
	mov esi, [esp + 16]
	mov ecx, [esp + 20]
	mov eax, edi                        ; the return value
	mov edx, ecx
	shr ecx, 2
	rep movsd
	mov ecx, edx
	and ecx, 3
	rep movsb
	pop esi
	pop edi
	ret

; void *memset(void *dst, int c, size_t n)
global memset
memset:
	push edi
	mov edi, [esp + 8]
	movzx eax, byte [esp + 12]
	imul eax, eax, 0x01010101           ; the byte in all four lanes
	mov ecx, [esp + 16]
	mov edx, ecx
	shr ecx, 2
	rep stosd
	mov ecx, edx
	and ecx, 3
	rep stosb
	mov eax, [esp + 8]
	pop edi
	ret
