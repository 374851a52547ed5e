/*
 * arch/x86/vdso.c - the vDSO: two pages every program gets at exec.
 *
 *	VDSO_DATA  struct vdso_data (arch/vdso.h): the TSC clock's base and
 *		   cyc2ns factor and CLOCK_REALTIME's offset, read-only to user
 *	VDSO_TEXT  the shared object arch/x86/vdso_vclock.c + vdso.lds
 *		   (__vdso_clock_gettime, __vdso_clock_gettime64,
 *		   __vdso_gettimeofday, __vdso_time, version LINUX_2.6)
 *
 * The frames are made on the first exec (after time_init and rtc_init have
 * fixed the clock) and the kernel keeps one reference on each, so a
 * process's unmap or exit never frees them, and a write after mprotect()
 * gets a private copy (mm_fault's copy-on-write, never the shared frame).
 * The clock is fixed once sched_clock() runs on the TSC: the data page is
 * written once, inside the seqcount, as Linux's update_vsyscall() would on
 * every change.  Without the TSC clock (clocksource=pit, no TSC) the mode
 * is VCLOCK_NONE and each vDSO call is the system call.  vdso=0 maps
 * nothing: no AT_SYSINFO_EHDR, and libc uses the system calls.
 */
#include <kernel/cmdline.h>
#include <kernel/elf.h>
#include <kernel/hrtimer.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/vm.h>
#include <arch/tsc.h>
#include <arch/vdso.h>

extern const u8 vdso_image_start[], vdso_image_end[];

static int vdso_enabled = 1;
DEFINE_KNOB_BOOL(vdso, vdso_enabled, 1, "map the vDSO (clock_gettime in user mode) into every program");

static phys_addr_t vdso_frames[2];	/* data, text; 0: not made yet */

static void update_vsyscall(struct vdso_data *vd)
{
	u64 base;
	u32 mult;

	vd->seq++;			/* odd: readers wait */
	__asm__ __volatile__("" ::: "memory");
	if (tsc_vclock(&base, &mult)) {
		vd->vclock_mode = VCLOCK_TSC;
		vd->tsc_base = base;
		vd->mult = mult;
	} else {
		vd->vclock_mode = VCLOCK_NONE;
	}
	vd->realtime_offset = boot_realtime_ns;
	__asm__ __volatile__("" ::: "memory");
	vd->seq++;
}

static int vdso_init(void)
{
	u32 size = (u32)(vdso_image_end - vdso_image_start);
	phys_addr_t data, text;

	if (size > PAGE_SIZE)
		panic("vdso: the image is %u bytes, more than a page", size);
	data = alloc_zeroed_frame();
	text = alloc_zeroed_frame();
	if (!data || !text) {
		if (data)
			free_frame(data);
		if (text)
			free_frame(text);
		return -1;
	}
	memcpy(__va(text), vdso_image_start, size);
	update_vsyscall(__va(data));
	vdso_frames[0] = data;
	vdso_frames[1] = text;
	return 0;
}

u32 arch_setup_additional_pages(struct mm *mm, u32 *sysinfo)
{
	if (!vdso_enabled)
		return 0;
	if (!vdso_frames[0] && vdso_init())
		return 0;
	if (mm_install_special(mm, VDSO_DATA, vdso_frames, 2, VM_READ | VM_EXEC))
		return 0;	/* the program's own segments are there: no vDSO */
	*sysinfo = VDSO_TEXT + ((const Elf32_Ehdr *)vdso_image_start)->e_entry;
	return mm->vdso = VDSO_TEXT;
}
