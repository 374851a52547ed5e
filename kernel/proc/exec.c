/*
 * kernel/proc/exec.c - execve of programs embedded in the kernel image.
 *
 * The programs of user/ are static ELF32 files in a ustar archive linked
 * into the kernel (arch/x86/initrd.asm).  execve(path):
 *   1. copies path, argv and envp into the kernel (-EFAULT, -E2BIG,
 *      -ENAMETOOLONG) while the old image still exists;
 *   2. finds the file in the initrd's tree ("ls" names /bin/ls, which may be
 *      a link to busybox) (-ENOENT; -EACCES for a directory or a file
 *      elsewhere: only the initrd's programs run);
 *   3. builds a new address space with load_elf_binary() (exec_elf.c: the
 *      program, and for a dynamic one its interpreter, ld-linux.so.2;
 *      -ENOEXEC for a bad ELF, -ELIBBAD for a bad interpreter, -ENOMEM) -
 *      on any error so far the caller's image is untouched, and so are the
 *      other threads of its process;
 *   4. de_thread(): the other threads die and the caller becomes the
 *      process's only thread and its leader (pid = tgid);
 *   5. commits: switches to the new mm, drops the old one, resets signal
 *      handlers, closes the O_CLOEXEC fds (exec_files), names the task, lays out Linux's i386 initial stack
 *      (argc, argv[], NULL, envp[], NULL, the auxiliary vector, strings;
 *      setup_stack) and points the user frame at the ELF entry.
 */
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/initrd.h>
#include <kernel/itimer.h>
#include <kernel/ustar.h>
#include <kernel/kmalloc.h>
#include <kernel/posix_timers.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/random.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/irqflags.h>
#include <arch/process.h>
#include "exec.h"

#define ARG_MAX		(32 * 1024)	/* bytes of argv + envp strings */
#define ARGV_MAX	256		/* entries in argv (and in envp) */
#define PATH_MAX	256
#define USER_HZ		100		/* AT_CLKTCK: times() and /proc count in 1/100 s */
#define ELF_PLATFORM	"i686"		/* AT_PLATFORM, as uname's machine */

/* Auxiliary vector types (Linux include/uapi/linux/auxvec.h). */
#define AT_NULL		0
#define AT_PHDR		3
#define AT_PHENT	4
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_BASE		7
#define AT_FLAGS	8
#define AT_ENTRY	9
#define AT_UID		11
#define AT_EUID		12
#define AT_GID		13
#define AT_EGID		14
#define AT_PLATFORM	15
#define AT_HWCAP	16
#define AT_CLKTCK	17
#define AT_SECURE	23
#define AT_RANDOM	25
#define AT_EXECFN	31
#define AT_SYSINFO	32		/* __kernel_vsyscall, the vDSO's e_entry */
#define AT_SYSINFO_EHDR	33		/* the vDSO's ELF header (arch/x86/vdso.c) */
#define AUXV_PAIRS	18		/* the entries setup_stack writes, AT_NULL included */

/* The strings of argv and envp, packed, with their counts. */
struct exec_args {
	char *buf;		/* ARG_MAX bytes */
	u32 used;
	int argc, envc;
};

static int add_arg(struct exec_args *a, const char *s, int from_user)
{
	long n;

	if (from_user) {
		n = strncpy_from_user(a->buf + a->used, s, ARG_MAX - a->used);
		if (n == -ENAMETOOLONG)
			return -E2BIG;
		if (n < 0)
			return (int)n;
	} else {
		n = strlen(s);
		if (n >= (long)(ARG_MAX - a->used))
			return -E2BIG;
		memcpy(a->buf + a->used, s, n + 1);
	}
	a->used += n + 1;
	return 0;
}

/* Copy a NULL-terminated vector of strings (user or kernel). */
static int copy_strings(struct exec_args *a, char *const *vec, int from_user, int *count)
{
	for (int i = 0; vec; i++) {
		char *s;
		if (i >= ARGV_MAX)
			return -E2BIG;
		if (from_user) {
			if (get_user(s, &vec[i]))
				return -EFAULT;
		} else {
			s = vec[i];
		}
		if (!s)
			break;
		int err = add_arg(a, s, from_user);
		if (err)
			return err;
		(*count)++;
	}
	return 0;
}

/*
 * The file PATH names in the initrd's tree (symbolic links followed, as
 * /bin/sh -> busybox).  A bare name ("hello", no '/') names /bin/NAME:
 * run= and Granule's tests exec programs by name, with no PATH search (on
 * Linux it would name a file in the current directory); "dir/prog" is
 * relative to the current directory.  -ENOENT,
 * -ENOTDIR, -ELOOP, -ENAMETOOLONG; -EACCES for a directory or a file
 * outside the initrd (/tmp, /proc, /dev).
 */
int find_program(const char *path, const struct initrd_node **file)
{
	char full[PATH_MAX + 68];
	struct fs_node n;
	int err;

	if (!*path)
		return -ENOENT;
	if (!strchr(path, '/'))
		snprintf(full, sizeof(full), "bin/%s", path);
	else if (path[0] != '/' && current->files)	/* relative to the current directory */
		snprintf(full, sizeof(full), "%s/%s", current->files->cwd, path);
	else
		strlcpy(full, path, sizeof(full));
	/* The whole name space, so that a name that exists outside the initrd
	 * is EACCES (Linux's answer for a directory, a device, or a file on a
	 * noexec mount such as /proc), not ENOENT. */
	if ((err = fs_lookup(full, 1, &n)))
		return err;
	if (!n.in || n.in->type != USTAR_REG)
		return -EACCES;
	*file = n.in;
	return 0;
}

/* Copy N bytes of SRC just below *TOP (4-byte aligned); the user address. */
static u32 push_bytes(u32 *top, const void *src, u32 n, int *err)
{
	*top = (*top - n) & ~3u;
	*err |= copy_to_user((void *)*top, src, n);
	return *top;
}

/*
 * Lay out Linux's i386 initial stack (fs/binfmt_elf.c create_elf_tables)
 * in the (current, new) address space, from the top down:
 *   argv and envp strings; the execve path (AT_EXECFN); "i686"
 *   (AT_PLATFORM); 16 random bytes (AT_RANDOM); then, 16-byte aligned:
 *   sp -> argc, argv[0..argc-1], NULL, envp[0..envc-1], NULL,
 *         auxv: (type, value) pairs in Linux's order, ending AT_NULL.
 * glibc's static start-up reads the auxv (AT_PHDR for its TLS block,
 * AT_RANDOM for the stack guard, AT_PAGESZ, AT_HWCAP ...); Granule's own
 * crt0 only reads argc, argv and envp.
 */
static int setup_stack(struct exec_args *a, const struct exec_image *im, u32 *sp_out)
{
	u32 strings = STACK_TOP - ALIGN_UP(a->used, 16), top = strings;
	u8 random[16];
	int err = copy_to_user((void *)strings, a->buf, a->used);
	u32 execfn = push_bytes(&top, im->execfn, strlen(im->execfn) + 1, &err);
	u32 platform = push_bytes(&top, ELF_PLATFORM, sizeof(ELF_PLATFORM), &err);
	get_random_bytes(random, sizeof(random));
	u32 at_random = push_bytes(&top, random, sizeof(random), &err);
	u32 pairs = AUXV_PAIRS + 2 * (im->vdso != 0);
	u32 nwords = 1 + a->argc + 1 + a->envc + 1 + 2 * pairs;
	u32 sp = (top - nwords * 4) & ~15u;
	u32 *out = (u32 *)sp;
	const char *k = a->buf;
	u32 u = strings;

	err |= put_user((u32)a->argc, out++);
	if (a->argc == 0)
		err |= put_user(0u, out++);	/* empty argv */
	for (int i = 0; i < a->argc + a->envc; i++) {
		err |= put_user(u, out++);
		u32 len = strlen(k) + 1;
		k += len;
		u += len;
		if (i == a->argc - 1)
			err |= put_user(0u, out++);	/* end of argv */
	}
	err |= put_user(0u, out++);		/* end of envp */
	/* Linux's order: ARCH_DLINFO's AT_SYSINFO, AT_SYSINFO_EHDR first, when there is a vDSO. */
	if (im->vdso) {
		const u32 ehdr[4] = { AT_SYSINFO, im->sysinfo,
				      AT_SYSINFO_EHDR, im->vdso };
		err |= copy_to_user(out, ehdr, sizeof(ehdr));
		out += 4;
	}
	const u32 auxv[2 * AUXV_PAIRS] = {
		AT_HWCAP, elf_hwcap(),	AT_PAGESZ, PAGE_SIZE,	AT_CLKTCK, USER_HZ,
		AT_PHDR, im->phdr,	AT_PHENT, sizeof(Elf32_Phdr), AT_PHNUM, im->phnum,
		AT_BASE, im->base,	AT_FLAGS, 0,		AT_ENTRY, im->entry,
		AT_UID, 0,		AT_EUID, 0,		AT_GID, 0,
		AT_EGID, 0,		AT_SECURE, 0,		AT_RANDOM, at_random,
		AT_EXECFN, execfn,	AT_PLATFORM, platform,	AT_NULL, 0,
	};
	err |= copy_to_user(out, auxv, sizeof(auxv));
	*sp_out = sp;
	return err ? -EFAULT : 0;
}

/* --- de_thread --- */

/* SIGKILL to every thread of ME's process but ME (Linux's zap_other_threads). */
static void zap_other_threads(struct task *me)
{
	struct task *leader = me->group_leader, *t;

	if (leader != me)
		zap_thread(leader);	/* ignored if it is already a zombie */
	list_for_each_entry(t, &leader->thread_group, thread_group)
		if (t != me)
			zap_thread(t);
}

/*
 * Has every other thread of ME's process exited and left the CPU?  A
 * non-leader leaves the thread_group list in do_exit() right before its
 * last schedule(); an old leader (the list's head) stays, as a zombie.
 * Interrupts off.
 */
static int others_gone(struct task *me)
{
	struct task *leader = me->group_leader, *t;

	if (leader != me && (!leader->exit_state || leader->on_rq))
		return 0;
	list_for_each_entry(t, &leader->thread_group, thread_group)
		if (t != me)
			return 0;
	return 1;
}

/*
 * A signal that kills the process, pending for a live thread of ME's
 * process other than ME (it came before the exec: in Linux it would have
 * started the group exit already), or 0.  Interrupts off.
 */
static int others_killed(struct task *me)
{
	struct task *leader = me->group_leader, *t;
	int sig;

	if (leader != me && !leader->exit_state && (sig = fatal_signal_pending(leader)))
		return sig;
	list_for_each_entry(t, &leader->thread_group, thread_group)
		if (t != me && !t->exit_state && (sig = fatal_signal_pending(t)))
			return sig;
	return 0;
}

/*
 * The process dies of SIG while ME execs: the group exit starts with that
 * status (the other threads have SIGKILL already), and ME gets SIGKILL, so
 * that it ends on its way out of the failed execve, before anything else.
 * Interrupts off.
 */
static void exec_killed(struct task *me, int sig)
{
	group_exit_start(sig);
	zap_thread(me);
}

/*
 * ME, the last live thread, takes the place of LEADER (dead: a zombie, off
 * the CPU) as Linux's de_thread swaps the exec'ing thread into the leader's
 * pid and links.  Afterwards ME has pid == tgid (the pid the parent waits
 * for), is its own group_leader, sits where LEADER was in the parent's
 * children list, with LEADER's exit_signal, signal flags, start time, CPU
 * time and alarm (ITIMER_REAL), and LEADER's children (a thread's children
 * are the process's: they stay on the leader until the whole group is dead).  LEADER gets ME's
 * old tid and is released.  Interrupts off.
 */
static void take_leadership(struct task *me, struct task *leader)
{
	int tid = me->pid;

	list_del(&me->thread_group);	/* LEADER's list is now empty, ME heads its own */
	me->pid = leader->pid;
	leader->pid = tid;
	me->group_leader = me;
	leader->group_leader = me;
	me->parent = leader->parent;
	me->exit_signal = leader->exit_signal;
	leader->exit_signal = -1;
	me->signal_flags = leader->signal_flags;
	me->pgrp = leader->pgrp;
	me->session = leader->session;
	me->ctty = leader->ctty;
	memcpy(me->rlim, leader->rlim, sizeof(me->rlim));
	forget_original_parent(leader, me);
	me->start_time = leader->start_time;
	rusage_take_leadership(me, leader);		/* its CPU time and counts */
	itimer_real_move(leader, me);			/* the alarm survives exec */
	list_add(&me->sibling, &leader->sibling);	/* into LEADER's place ... */
	list_del(&leader->sibling);			/* ... among the parent's children */
	leader->exit_state = EXIT_DEAD;			/* nobody waits for it now */
	task_autoreap(leader);
}

/*
 * de_thread (Linux fs/exec.c, 2.6.35): make the exec'ing thread the only
 * thread of its process, and its leader.  Called once the new image is
 * built - a failing exec never gets here, the other threads are untouched -
 * and while the old mm is still current->mm, so the dying threads'
 * CLONE_CHILD_CLEARTID writes land in the old image.
 *
 *  0. A group exit under way (the process's, kept by its leader - not
 *     another process's: CLONE_SIGHAND without CLONE_THREAD shares the
 *     signal state, not the group exit) or another exec (group_exec_task
 *     is one per signal state, so possibly another process's) makes the
 *     exec fail; so does a fatal signal already pending for another thread
 *     (its group exit would kill current anyway).
 *  1. sig->group_exec_task = current marks the group action: a dying
 *     thread's do_group_exit() then just exits (it kills nobody, and sets
 *     no process status); do_exit() wakes current and moves the dying
 *     thread's process-directed pending signals to current.
 *  2. SIGKILL to every other thread (do_signal() takes it first: they run
 *     no user code again; zap_thread, which even init's SIGNAL_UNKILLABLE
 *     does not stop); current sleeps until all have exited.  On this
 *     uniprocessor, kernel code is not preempted and do_exit() runs to its
 *     last schedule() with interrupts off, so a thread seen exited while
 *     current runs is off the CPU: its mm, signal state and pending signals
 *     are dropped, its futex waits ended when SIGKILL woke it, and
 *     reap_dead_tasks() below frees its task and kernel stack.  A fatal
 *     signal for the process meanwhile goes to current (signal_target)
 *     and ends the wait, as in Linux's killable de_thread: the exec fails
 *     and current dies of it on its way out (exec_killed()).
 *  3. A non-leader current takes the old leader's place (take_leadership).
 *  4. The process's POSIX timers go, with their queued signals; the
 *     signal state is unshared if another process still shares it.
 * Returns 0; -EAGAIN if a group exit (or another exec) is under way -
 * nothing changed, the pending SIGKILL ends current on its way out (for
 * another process's exec: nothing is pending, try again); -EINTR if the
 * process was killed during the wait; or -ENOMEM if the signal state could
 * not be unshared (the other threads are gone by then, as in Linux).
 */
static int de_thread(void)
{
	struct task *me = current, *leader = me->group_leader;
	struct signal_state *s = me->sig;
	unsigned long flags;
	int sig;

	local_irq_save(flags);
	if (leader->group_exit || s->group_exec_task) {
		local_irq_restore(flags);
		return -EAGAIN;
	}
	if (leader != me || !list_empty(&leader->thread_group)) {
		if ((sig = others_killed(me))) {
			exec_killed(me, sig);
			local_irq_restore(flags);
			return -EAGAIN;
		}
		s->group_exec_task = me;
		zap_other_threads(me);
		while (!others_gone(me)) {
			if ((sig = fatal_signal_pending(me))) {
				s->group_exec_task = NULL;
				exec_killed(me, sig);
				local_irq_restore(flags);
				return -EINTR;
			}
			/* do_exit() wakes us, and so does a fatal signal */
			me->state = TASK_UNINTERRUPTIBLE;
			schedule();
		}
		s->group_exec_task = NULL;
	}
	local_irq_restore(flags);

	exit_itimers(s, leader);	/* LEADER is still the timers' owner */
	if (leader != me) {
		local_irq_save(flags);
		take_leadership(me, leader);
		local_irq_restore(flags);
	}
	reap_dead_tasks();		/* the killed threads and the old leader */

	if (s->count > 1) {		/* CLONE_SIGHAND without CLONE_THREAD */
		struct signal_state *ns = signal_state_alloc(s);
		if (!ns)
			return -ENOMEM;
		me->sig = ns;
		signal_state_put(s);
	}
	return 0;
}

static long exec_common(const char *path, char *const *argv, char *const *envp, int from_user)
{
	struct exec_args a = { 0 };
	char kpath[PATH_MAX];
	const struct initrd_node *file;
	struct exec_image im = { .execfn = kpath };
	u32 sp;
	struct mm *mm, *old;
	long err;

	if (from_user) {
		err = strncpy_from_user(kpath, path, sizeof(kpath));
		if (err < 0)
			return err;
	} else {
		strlcpy(kpath, path, sizeof(kpath));
	}
	a.buf = kmalloc(ARG_MAX);
	if (!a.buf)
		return -ENOMEM;
	err = copy_strings(&a, argv, from_user, &a.argc);
	u32 argv_bytes = a.used;		/* argv's strings come first */
	if (!err)
		err = copy_strings(&a, envp, from_user, &a.envc);
	if (!err)
		err = find_program(kpath, &file);
	if (err)
		goto out;
	sched_exec();			/* 2.6.35: after open_exec(), before the mm */
	mm = mm_create();
	if (!mm) {
		err = -ENOMEM;
		goto out;
	}
	err = load_elf_binary(file, mm, &im);
	if (!err)
		im.vdso = arch_setup_additional_pages(mm, &im.sysinfo);
	if (!err)
		err = de_thread();
	if (err) {
		mm_put(mm);
		goto out;
	}

	/* Point of no return (de_thread made us the process's only thread):
	 * the old image goes away.  Its tid word is cleared and woken first,
	 * while it is still current, if the old mm lives on (a CLONE_VM
	 * child that is not a thread: its parent may wait on the word). */
	old = current->mm;
	if (old) {
		rusage_mm_gone(current, old);	/* exec_mmap: ru_maxrss keeps its peak */
		mm_release(current, old);
	}
	mm->cmdline_len = min(argv_bytes, (u32)MM_CMDLINE_MAX);
	memcpy(mm->cmdline, a.buf, mm->cmdline_len);
	current->mm = mm;
	arch_set_pgdir(current, mm->pgdir);
	if (old)
		mm_put(old);
	flush_signal_handlers(current);
	current->group_leader->did_exec = 1;
	if (exec_files()) {			/* O_CLOEXEC fds; init's console */
		kfree(a.buf);
		do_exit(SIGKILL);
	}
	const char *base = strrchr(kpath, '/');
	strlcpy(current->comm, base ? base + 1 : kpath, sizeof(current->comm));
	if (setup_stack(&a, &im, &sp)) {
		kfree(a.buf);
		do_exit(SIGSEGV);	/* no memory for the stack: like Linux, kill it */
	}
	mm->start_stack = sp;			/* bprm->p after create_elf_tables */
	arch_exec_regs(task_pt_regs(current), im.start, sp);
	err = 0;
out:
	kfree(a.buf);
	return err;
}

long sys_execve(const char *path, char *const *argv, char *const *envp)
{
	return exec_common(path, argv, envp, 1);
}

long kernel_execve(const char *path, char *const *argv, char *const *envp)
{
	return exec_common(path, argv, envp, 0);
}
