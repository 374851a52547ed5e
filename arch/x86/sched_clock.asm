; arch/x86/sched_clock.asm - u64 sched_clock(void): ns since boot.
;
; With the TSC (use_tsc, set by time_init):
;	ns = (rdtsc() - tsc_base) * cyc2ns_mult >> 22
; on the 96-bit product, exactly as mul_u64_u32_shr() (kernel/math64.h) and
; the vDSO compute it: with d = dh * 2^32 + dl,
;	ns = ((dl * mult) >> 22) + ((dh * mult) << 10)	(mod 2^64)
; Written here because the scheduler reads the clock twice per switch and
; the compiled C spent 39 instructions on it (a wrapper, a frame, three
; saved registers); this is 19.  Without the TSC: sched_clock_pit()
; (arch/x86/time.c), the jiffies + PIT interpolation.

bits 32
section .text
extern use_tsc, tsc_base, cyc2ns_mult, sched_clock_pit

%define CYC2NS_SHIFT 22                     ; arch/x86/tsc.c

global sched_clock:function (sched_clock.end - sched_clock)
sched_clock:
	cmp dword [use_tsc], 0
	je sched_clock_pit
	push ebx
	rdtsc
	sub eax, [tsc_base]
	sbb edx, [tsc_base + 4]                 ; edx:eax = d
	mov ecx, edx                            ; dh
	mul dword [cyc2ns_mult]                 ; edx:eax = dl * mult
	shrd eax, edx, CYC2NS_SHIFT
	shr edx, CYC2NS_SHIFT                   ; (dl * mult) >> 22
	mov ebx, edx
	xchg eax, ecx                           ; ecx = its low word, eax = dh
	mul dword [cyc2ns_mult]                 ; edx:eax = dh * mult
	shld edx, eax, 32 - CYC2NS_SHIFT
	shl eax, 32 - CYC2NS_SHIFT              ; (dh * mult) << 10
	add eax, ecx
	adc edx, ebx
	pop ebx
	ret
.end:
