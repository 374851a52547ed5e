# arch/x86 - everything that touches i686 registers, ports and tables.
KERNEL_ASM += arch/x86/entry.asm          # 256 trap stubs -> struct trap_frame -> trap_dispatch
KERNEL_C   += arch/x86/setup.c            # arch bring-up order for kmain
KERNEL_C   += arch/x86/gdt.c              # GDT (flat ring 0/3 segments) + TSS esp0
KERNEL_C   += arch/x86/idt.c              # IDT gates (0x80 callable from ring 3)
KERNEL_C   += arch/x86/traps.c            # exception titles, register dump, IRQ dispatch
KERNEL_C   += arch/x86/pic.c              # 8259A pair, remap, EOI, spurious IRQ 7/15
KERNEL_C   += arch/x86/serial.c           # 16550 COM1 console + RX ring buffer
KERNEL_C   += arch/x86/cpuid.c            # CPU identification and feature flags
KERNEL_C   += arch/x86/pit.c              # 8254: periodic tick, channel-2 calibration gate
KERNEL_C   += arch/x86/tsc.c              # TSC calibration, sched_clock in ns
KERNEL_C   += arch/x86/apic.c             # local APIC + its timer
KERNEL_C   += arch/x86/ioremap.c          # uncached device mappings (fixmap PDE 1023)
KERNEL_C   += arch/x86/time.c             # clock source / clock event choice, hz= knob
KERNEL_C   += arch/x86/multiboot.c        # multiboot1/2 info -> struct boot_info
KERNEL_C   += arch/x86/syscall.c          # int 0x80 register convention
KERNEL_C   += arch/x86/power.c            # isa-debug-exit / ACPI power off, halt
KERNEL_C   += arch/x86/paging.c           # kernel page directory, per-process directories, PTE lookup
KERNEL_C   += arch/x86/process.c          # arch_switch_to, fork/kthread/exec stack frames
KERNEL_ASM += arch/x86/switch.asm         # stack switch, ret_from_fork, kthread trampoline
KERNEL_ASM += arch/x86/initrd.asm         # build/initrd.tar (user programs) linked into the image
KERNEL_C   += arch/x86/signal.c           # i386 signal frames, sigreturn, syscall restart
KERNEL_C   += arch/x86/rtc.c              # CMOS RTC -> CLOCK_REALTIME at boot
