/*
 * user/lib/tls.h - the thread control block (i386 TLS variant II) and
 * the libc's TLS setup; internal to the library.
 *
 * Every thread's %gs selects a TLS segment (struct user_desc in the
 * kernel's GDT) whose base is its struct tcb, so %gs:0 = tcb->self = the
 * TCB's own linear address.  The main thread's TCB is static (tls.c); a
 * thread_create'd thread's is the first member of its struct thread.
 */
#ifndef USER_LIB_TLS_H
#define USER_LIB_TLS_H

struct thread;

/* Layout fixed: self must be at offset 0 (read as %gs:0). */
struct tcb {
	struct tcb *self;		/* %gs:0 */
	int errno_val;			/* this thread's errno */
	struct thread *thread;		/* thread_create's handle; NULL in main */
};

/* Linux struct user_desc (asm/ldt.h). */
struct user_desc {
	unsigned int entry_number;
	unsigned int base_addr;
	unsigned int limit;
	unsigned int seg_32bit:1;
	unsigned int contents:2;
	unsigned int read_exec_only:1;
	unsigned int limit_in_pages:1;
	unsigned int seg_not_present:1;
	unsigned int useable:1;
};

/* The GDT entry of every thread's TLS segment, or -1: no TLS (the kernel
 * refused set_thread_area), so errno is process-wide and threads start
 * without CLONE_SETTLS. */
extern int __tls_entry;

/* Startup (__libc_start): the main thread's TCB and %gs. */
void __libc_tls_init(void);
/* Make *TCB a fresh TCB of thread T and fill *U for clone(CLONE_SETTLS). */
void __tls_init_tcb(struct tcb *tcb, struct thread *t, struct user_desc *u);

#endif
