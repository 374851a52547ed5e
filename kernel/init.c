/*
 * kernel/init.c - starting user space, and the idle loop.
 *
 * Linux's rest_init() in miniature: kernel_thread() makes pid 1, which
 * execs the init program (init=, default "init") with the run= string as
 * its argv[1] and the command line's unknown key=value words as its
 * environment (Linux passes unknown parameters to init the same way).  The
 * boot context becomes the idle task (pid 0).
 *
 * A boot line without run= gives init no argv[1] (the built-in init then
 * starts the login shell); an explicitly empty run= gives it "" (init runs
 * nothing and powers off), and so does a run= whose value the registry
 * refused (too long: one line says so): a boot that asked for a run must
 * not wait in an interactive shell, which on a headless machine nobody
 * will ever type into.  The knob's ->check hook, which sees every run=
 * word before its value is parsed, tells the cases apart.
 *
 * A bad init= never stops the boot: as Linux 2.6.35's init_post(), a
 * program that cannot be executed is reported ("Failed to execute X.
 * Attempting defaults...") and the default, the built-in "init", runs
 * instead.  Only when that fails too is there nothing left to run (panic).
 */
#include <kernel/cmdline.h>
#include <kernel/arch.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/string.h>
#include <arch/irqflags.h>
#include <arch/process.h>

#define INIT_ENV_MAX	32
#define DEFAULT_INIT	"init"

static char init_prog[64];
DEFINE_KNOB_STRING(init, init_prog, DEFAULT_INIT, "program run as pid 1");
static char run_cmd[512];
/* run= was on the boot line, even empty or refused.  In .data: a new .bss
 * variable could move the page-aligned end of .bss and every frame after it. */
static int run_given __attribute__((section(".data")));

/* Every run= word, before its value is parsed: it never refuses. */
static int run_named(const struct knob *k)
{
	run_given = 1;
	return 0;
}

__KNOB(run) = {
	.name = "run", .type = KNOB_STRING, .ptr = run_cmd, .def_str = "",
	.max = sizeof(run_cmd), .check = run_named,
	.help = "what init runs: 'prog args; prog args ...' (none: the login shell)",
};

static void init_thread(void *unused)
{
	char *argv[] = { init_prog, run_cmd, NULL };
	char *envp[INIT_ENV_MAX + 1];
	const char **unknown;
	int n = cmdline_unknown(&unknown), e = 0;

	lock_kernel();	/* a new task holds no giant lock; exec needs it */

	/* init can run on any CPU (2.6.35 kernel_init()): it was forked by the
	 * boot CPU's thread, allowed CPU 0 alone, and every process inherits
	 * init's mask.  Nothing moves at one CPU: CPU 0 stays in the mask. */
	set_cpus_allowed_ptr(current, cpu_all_mask);
	for (int i = 0; i < n; i++) {
		if (!strchr(unknown[i], '='))
			continue;
		if (e < INIT_ENV_MAX)
			envp[e++] = (char *)unknown[i];
		else	/* Linux 2.6.35: "Too many boot env vars" */
			printk("init: too many boot environment variables (limit %d): '%s' not passed\n",
			       INIT_ENV_MAX, unknown[i]);
	}
	envp[e] = NULL;
	if (!run_given)
		argv[1] = NULL;		/* init's default: the login shell */
	long err = kernel_execve(init_prog, argv, envp);
	if (err && strcmp(init_prog, DEFAULT_INIT)) {
		printk("Failed to execute %s.  Attempting defaults...\n", init_prog);
		argv[0] = DEFAULT_INIT;
		err = kernel_execve(DEFAULT_INIT, argv, envp);
	}
	if (err)
		panic("No working init found: %s (error %ld)", argv[0], err);
	arch_enter_user(current);
}

void start_init(void)
{
	int pid = kernel_thread("init", init_thread, NULL);

	if (pid != 1)
		panic("cannot create init (error %d)", pid);
	init_task = find_task_by_pid(1);
	/* As Linux's init_post(): pid 1 gets no signal it has no handler for
	 * (kill(1, SIGKILL) included), so no process can take the system down
	 * by killing it (kernel/signal.c). */
	init_task->signal_flags |= SIGNAL_UNKILLABLE;
}

/* Halt until an interrupt, unless a switch is asked for already. */
static inline void idle_wait(void)
{
	local_irq_disable();
	if (!current->need_resched)
		arch_idle();		/* sti; hlt - no wakeup lost in between */
	local_irq_enable();
}

/*
 * The idle loop of every CPU while more than one is online: 2.6.35's
 * cpu_idle(), which halts while nothing asks for a switch (its tick, IPIs and a
 * wakeup's need_resched wake it) and only then calls schedule().  It holds
 * the giant kernel lock only around the reaping (the task list, the frames
 * of the dead): the lock belongs to the task, so the task switched to takes
 * it back itself if it held it, and a halted CPU must let the others in.
 */
__attribute__((noreturn)) void cpu_idle_smp(void)
{
	unlock_kernel();	/* the boot CPU comes here from kernel code */
	for (;;) {
		while (!current->need_resched)
			idle_wait();
		schedule();
		lock_kernel();
		reap_dead_tasks();
		unlock_kernel();
	}
}

/*
 * The boot CPU's idle task: sleep until an interrupt, run whatever became
 * runnable.  With more than one CPU online it is cpu_idle_smp(); at one,
 * unlike 2.6.35's cpu_idle(), it calls schedule() after every interrupt,
 * need_resched or not (the uniprocessor kernel's loop, kept so that the
 * -smp 1 figures stay).
 */
__attribute__((noreturn)) void cpu_idle(void)
{
	if (static_key_enabled(&smp_key))
		cpu_idle_smp();
	for (;;) {
		idle_wait();
		schedule();
		reap_dead_tasks();
	}
}
