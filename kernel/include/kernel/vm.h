/*
 * kernel/vm.h - user address spaces.
 *
 * Layout of a process (Linux i386 conventions):
 *	0x08048000  text, data, bss          (areas from the ELF PT_LOADs)
 *	start_brk   heap, grows up with brk() (demand-zero pages)
 *	   ...      mmap2 regions, placed top-down from MMAP_TOP (demand-zero)
 *	   ...      unmapped gap (at least STACK_GAP)
 *	STACK_TOP - STACK_LIMIT .. STACK_TOP  the stack window: pages appear on
 *	            first touch, so the stack "grows on fault" up to 8 MiB;
 *	            below it nothing is mapped, so a runaway recursion faults
 * Frames are reference counted (kernel/pmm.h); fork shares every writable
 * page read-only with PTE_COW and copies on the first write.
 */
#ifndef KERNEL_VM_H
#define KERNEL_VM_H

#include <kernel/types.h>
#include <kernel/cpumask.h>
#include <kernel/mm.h>

struct initrd_node;

#define STACK_TOP	TASK_SIZE		/* 0xC0000000 */
#define STACK_LIMIT	(8u << 20)		/* RLIMIT_STACK default: 8 MiB */
#define STACK_GAP	(1u << 20)		/* heap may not come closer */
#define MM_PT_WORDS	((TASK_SIZE >> 22) / 32)	/* 24: a bit per user PDE */
#define MM_INLINE_AREAS	32		/* areas in struct mm itself: a static program's */
#define MM_MAX_AREAS	1024		/* ELF segments + mmap regions (Linux: 65530); a
					 * dynamic program's libraries and each thread's
					 * stack and guard page take more than the inline 32 */
#define NOSYS_WORDS	(1024 / 32 + 1)	/* a bit per Linux number, one for the rest */

#define VM_READ		0x1
#define VM_WRITE	0x2
#define VM_EXEC		0x4
#define VM_ACCESS	(VM_READ | VM_WRITE | VM_EXEC)	/* what mprotect changes */
#define VM_FILE		0x8		/* a file's pages (the ELF segments, mmap2 of a file):
					 * Linux's vma->vm_file, what vm_stat_account counts */
#define VM_LOCKED	0x2000		/* mlock'ed (Linux's value) */
#define VM_DONTEXPAND	0x40000		/* a special mapping (the vDSO): mlock leaves it alone */

struct vm_area {
	u32 start, end;		/* page aligned, [start, end) */
	u32 flags;		/* VM_* */
	/* A private file mapping (mmap2 of an initrd file, whose bytes stay in
	 * the kernel image): page P of the area faults in a copy of the file's
	 * page pgoff + (P - start) / PAGE_SIZE (Linux's vm_pgoff, in pages, so
	 * that no offset wraps), zero-filled past file_size; a page wholly past
	 * file_size is SIGBUS, as Linux's filemap_fault.  NULL: anonymous. */
	const u8 *file;
	u32 pgoff, file_size;
	/* The initrd file whose bytes the area shows, exec's segments included
	 * (Linux's vm_file), for /proc/PID/maps; NULL: anonymous.  pgoff is
	 * its page offset there too.  Initrd files never go away. */
	const struct initrd_node *vm_file;
};

#define MM_CMDLINE_MAX	128

struct mm {
	u32 pgdir;			/* physical page directory */
	int users;			/* tasks sharing it (CLONE_VM threads) */
	int nr_areas, max_areas;
	struct vm_area *areas;		/* ELF segments, mmap regions; unsorted: area_inline,
					 * or a kmalloc'd array once more are needed */
	struct vm_area area_inline[MM_INLINE_AREAS];
	u32 start_brk, brk;		/* heap [start_brk, brk) */
	u32 nr_pages;			/* user pages mapped (RSS) */
	u32 hiwater_rss;		/* nr_pages before its last drop, if higher (Linux's) */
	u32 hiwater_vm;			/* total_vm before its last drop, if higher (Linux's):
					 * VmPeak; a fork's child starts from its own total */
	u32 nosys_seen[NOSYS_WORDS];	/* unknown syscalls logged (kernel/syscall.c) */
	/* Bit i: user PDE i may have a page table.  Every user page table is
	 * made by kernel/mm/vm.c's mm_pte_alloc(), which sets it; fork, exit
	 * and exec walk these 24 words instead of 768 PDEs. */
	u32 pt_map[MM_PT_WORDS];
	/* argv as exec got it, NUL-separated, for /proc/PID/cmdline; cut at
	 * MM_CMDLINE_MAX bytes (Linux reads the live stack, up to a page). */
	u32 cmdline_len;
	char cmdline[MM_CMDLINE_MAX];
	/* What exec set, as 2.6.35's load_elf_binary: the lowest PT_LOAD address
	 * and the end of the file part of the highest executable one (biased),
	 * and the first stack pointer (argc's address). */
	u32 start_code, end_code, start_stack;
	u32 vdso;			/* the vDSO's address, 0: none (Linux's mm->context.vdso) */
	/* Locked memory (kernel/mm/mlock.c): def_flags is VM_LOCKED after
	 * mlockall(MCL_FUTURE), as Linux's; the heap and the stack window are
	 * not areas here, so each is locked or not as a whole. */
	u32 def_flags;
	u8 heap_locked, stack_locked;
	/* The CPUs that may cache this mm's translations (2.6.35's
	 * cpu_vm_mask): set by switch_mm() on the CPU that loads the page
	 * directory, cleared when it switches to another or leave_mm()s it
	 * (<arch/mmu_context.h>); a TLB shootdown IPIs these.  Kept while
	 * more than one CPU is online. */
	struct cpumask cpu_vm_mask;
};

static inline struct cpumask *mm_cpumask(struct mm *mm)
{
	return &mm->cpu_vm_mask;
}

/*
 * 2.6.35's mm_struct counters, in pages, computed when asked (/proc reads
 * them; nothing on the fault or mmap paths keeps them): total_vm (the areas,
 * the heap and the stack), shared_vm (file mappings: vm_stat_account counts
 * private ones too), exec_vm (file mappings executable and not writable),
 * stack_vm, locked_vm (VM_LOCKED), nr_ptes (page tables).
 */
struct mm_counters {
	u32 total_vm, shared_vm, exec_vm, stack_vm, locked_vm, nr_ptes;
};
void mm_get_counters(struct mm *mm, struct mm_counters *c);
/* Pages of the stack window from its lowest present page up (Linux's stack
 * vma, which grows down to the lowest fault and never shrinks). */
u32 mm_stack_pages(struct mm *mm);
/* User page tables MM has (Linux's nr_ptes). */
u32 mm_nr_ptes(struct mm *mm);
/* update_hiwater_vm(), called before total_vm drops (munmap, a lower brk):
 * AREA_PAGES is what the areas hold now; the heap and stack are added. */
void mm_update_hiwater_vm(struct mm *mm, u32 area_pages);

struct mm *mm_create(void);		/* empty address space; NULL: -ENOMEM */
struct mm *mm_dup(struct mm *old);	/* fork: copy-on-write copy */
void mm_get(struct mm *mm);
void mm_put(struct mm *mm);		/* last user frees every frame */

/* A new area slot at the end of mm->areas (the array grows up to
 * MM_MAX_AREAS), zeroed; NULL when full or out of memory (-ENOMEM). */
struct vm_area *mm_new_area(struct mm *mm);

/*
 * The loader's three steps (kernel/proc/exec_elf.c, after Linux's
 * fs/binfmt_elf.c), each replacing what [start, end) held, as MAP_FIXED:
 *   mm_elf_map  Linux's elf_map(), copied now: the pages of [start, end)
 *               become one area of VMFLAGS, each holding what a private
 *               mapping of FILE at OFF would show there: byte x is
 *               FILE[OFF + (x - start)], zero before the file's start or
 *               past its end (SIZE bytes);
 *   mm_brk_area Linux's do_brk(): [start, end) anonymous, readable and
 *               writable, each page zeroed at its first touch (a bss);
 *   mm_padzero  Linux's padzero()/clear_user(): LEN bytes at ADDR zeroed,
 *               as a user write would (-EFAULT where it would fault).
 * 0, or -ENOMEM (-EFAULT for mm_padzero).
 */
int mm_elf_map(struct mm *mm, u32 start, u32 end, const struct initrd_node *file, s64 off, u32 vmflags);
int mm_brk_area(struct mm *mm, u32 start, u32 end);
int mm_padzero(struct mm *mm, u32 addr, u32 len);

/*
 * Resolve a fault at ADDR (write if WRITE): demand-zero, stack growth,
 * copy-on-write.  0 = mapped now; -EFAULT = no such mapping or access
 * not allowed (SIGSEGV); -EIO = a file mapping's page wholly past the
 * file's end (SIGBUS, Linux's VM_FAULT_SIGBUS); -ENOMEM = out of frames.
 */
int mm_fault(struct mm *mm, u32 addr, int write);
/* The area holding ADDR, or NULL: Linux's find_vma() with its vm_start check
 * (the heap and the stack window are not areas here; see mm->brk). */
struct vm_area *find_area(struct mm *mm, u32 addr);
/* Faults handled since boot, all CPUs (/proc/vmstat's pgfault). */
u64 vm_events_pgfault(void);

long sys_brk(u32 brk);

/* kernel/mm/mmap.c */
#define MMAP_TOP	(STACK_TOP - STACK_LIMIT - STACK_GAP)	/* mmap_base */
void mm_unmap_pages(struct mm *mm, u32 start, u32 end);	/* drop the frames, keep the areas */
int mm_range_used(struct mm *mm, u32 start, u32 end);
/* Split the areas that straddle START or END, so that each area is wholly
 * inside or wholly outside [start, end); 0 or -ENOMEM. */
int mm_split_range(struct mm *mm, u32 start, u32 end);
/* Linux's mmap_region() at a fixed place: whatever [start, end) (page aligned)
 * held goes, and one area of VMFLAGS takes its place (FILE, SIZE and PGOFF as
 * in struct vm_area; FILE NULL: anonymous); its new area, or NULL (-ENOMEM). */
struct vm_area *mm_map_fixed(struct mm *mm, u32 start, u32 end, u32 vmflags, const u8 *file,
			     u32 size, u32 pgoff);
/* Where mmap would put LEN bytes (page multiple) now: the highest free range
 * below MMAP_TOP and above the heap (Linux's top-down get_unmapped_area); 0: none. */
u32 mm_get_unmapped_area(struct mm *mm, u32 len);
/* Map N shared kernel FRAMES read-only at START as one area (the vDSO; Linux's
 * _install_special_mapping): 0, -EEXIST if the range is used, -ENOMEM. */
int mm_install_special(struct mm *mm, u32 start, const phys_addr_t *frames, u32 n, u32 vmflags);
/* arch: map the vDSO into MM at exec; its address (AT_SYSINFO_EHDR) or 0,
 * and *SYSINFO = its __kernel_vsyscall (AT_SYSINFO). */
u32 arch_setup_additional_pages(struct mm *mm, u32 *sysinfo);
long sys_mmap2(u32 addr, u32 len, u32 prot, u32 flags, int fd, u32 pgoff);
long sys_munmap(u32 addr, u32 len);
long sys_mprotect(u32 addr, u32 len, u32 prot);
/* kernel/mm/mlock.c */
long sys_mlock(u32 addr, u32 len);
long sys_munlock(u32 addr, u32 len);
long sys_mlockall(u32 flags);
long sys_munlockall(void);
long sys_madvise(u32 start, u32 len_in, int behavior);

#endif
