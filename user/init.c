/*
 * user/init.c - process 1.
 *
 * The kernel starts it as  init [RUN]  where RUN is the run= boot parameter:
 * commands separated by ';', words by blanks, e.g.
 *	run="usertests; hello a b"
 * and, as in a shell, single quotes make one word of what they enclose
 * (blanks and ';' included): run="busybox sh -c 'echo hi > /dev/null'".
 * init forks and execs each command in turn, reports how it ended, then
 * reaps any orphans it inherited and powers the machine off with status 0
 * if every command exited 0, else 1.  Like any Unix init it also reaps
 * orphaned zombies while it waits.  The environment (the kernel passes the
 * command line's unknown key=value words) goes to every command.
 *
 * What runs when the boot line says nothing:
 *	no run= at all		the login shell (below), then power off
 *	run= (empty)		nothing: one line, power off with status 0
 *	run=shell		the login shell, as a command like any other
 * The login shell is Debian's busybox, `/bin/busybox sh -l`, started the
 * way getty and login would: in a new session (setsid) whose controlling
 * terminal is the console (TIOCSCTTY), with PS1, PATH, HOME and TERM set;
 * `exit` ends it and init powers off.  Without busybox in the image
 * (BUSYBOX=0) init says so in one line and goes on: with no run= that
 * means it powers off at once, as there is nothing else to run.
 *
 * Like busybox's init, init takes the requests of busybox's poweroff,
 * reboot and halt (without -f they signal pid 1): SIGUSR2 powers off,
 * SIGTERM reboots, SIGUSR1 halts.  init then says so in one line, kills
 * every other process (SIGKILL), reaps them, syncs and calls reboot(2)
 * (a power-off goes through init's usual last call, so the end-of-run
 * reports still print).
 */
#include <errno.h>
#include <granule.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gen/user_syscalls.h>
#include <stdlib.h>

#define MAX_ARGS 32

extern char **environ;

/*
 * The next token of *S ended by a character of DELIMS outside single
 * quotes (NUL-terminated in place; *S moves past it), or NULL at the end.
 * With UNQUOTE the quotes are removed (words); without, they are kept
 * (commands, split again into words).
 */
static char *next_token(char **s, const char *delims, int unquote)
{
	char *p = *s, *out, *tok;
	int quoted = 0;

	while (*p && strchr(delims, *p))
		p++;
	if (!*p)
		return NULL;
	tok = out = p;
	for (; *p && (quoted || !strchr(delims, *p)); p++) {
		if (*p == '\'')
			quoted = !quoted;
		if (*p != '\'' || !unquote)
			*out++ = *p;
	}
	*s = *p ? p + 1 : p;
	*out = '\0';
	return tok;
}

#define BUSYBOX		"/bin/busybox"
#define TIOCSCTTY	0x540E

static char *const shell_argv[] = { "sh", "-l", NULL };
static char *const shell_envp[] = {
	"PS1=granule# ", "PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/", "TERM=vt100", NULL,
};

/* The child's side of "shell": a session of its own on the console. */
static void exec_shell(void)
{
	sys_setsid();
	sys_ioctl(0, TIOCSCTTY, 0);
	execve(BUSYBOX, shell_argv, shell_envp);
	printf("init: cannot run %s: %s\n", BUSYBOX, strerror(errno));
	_exit(127);
}

static int have_busybox(void)
{
	return sys_access((long)BUSYBOX, 1 /* X_OK */) == 0;
}

/*
 * A bare name that is no program: say which there are.  Granule's own programs
 * are /bin's regular files; busybox's applets are links to /bin/busybox.
 */
static void list_programs(void)
{
	struct dirent64 { uint64_t ino; int64_t off; uint16_t reclen; uint8_t type; char name[]; };
	static char buf[4096];
	long fd = sys_open((long)"/bin", 0200000 /* O_DIRECTORY */, 0), n;
	int col = 0;

	if (fd < 0)
		return;
	printf("init: the programs are:");
	while ((n = sys_getdents64(fd, (long)buf, sizeof(buf))) > 0)
		for (long off = 0; off < n; off += ((struct dirent64 *)(buf + off))->reclen) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			if (d->type != 8 /* DT_REG */ || strcmp(d->name, "busybox") == 0)
				continue;
			if (col > 64) {
				printf("\n ");
				col = 0;
			}
			printf(" %s", d->name);
			col += 1 + (int)strlen(d->name);
		}
	sys_close(fd);
	printf("\n  and busybox's applets%s\n", have_busybox() ? " (busybox --list)" : " (not in this image)");
}

/* Run one command; returns 0 if it exited 0. */
static int run(char *cmd)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0, status;
	pid_t pid, w;
	char *tok;

	while (argc < MAX_ARGS && (tok = next_token(&cmd, " \t", 1)))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (!argc)
		return 0;
	int shell = argc == 1 && !strcmp(argv[0], "shell");
	if (shell && !have_busybox()) {
		printf("init: no %s in this image (built with BUSYBOX=0): no shell\n", BUSYBOX);
		return 0;
	}
	pid = fork();
	if (pid < 0) {
		printf("init: fork failed: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		if (shell)
			exec_shell();
		execve(argv[0], argv, environ);
		printf("init: cannot run %s: %s\n", argv[0], strerror(errno));
		if (errno == ENOENT && !strchr(argv[0], '/'))
			list_programs();
		_exit(127);
	}
	while ((w = waitpid(-1, &status, 0)) != pid)	/* reap orphans on the way */
		if (w < 0)
			return 1;
	if (WIFEXITED(status)) {
		printf("init: %s (pid %d) exited with status %d\n", argv[0], pid, WEXITSTATUS(status));
		return WEXITSTATUS(status) != 0;
	}
	printf("init: %s (pid %d) killed by signal %d\n", argv[0], pid, WTERMSIG(status));
	return 1;
}

#define LINUX_REBOOT_MAGIC1	0xfee1deadL
#define LINUX_REBOOT_MAGIC2	672274793L
#define LINUX_REBOOT_CMD_RESTART 0x01234567L
#define LINUX_REBOOT_CMD_HALT	0xcdef0123L

/* SIGUSR2 (poweroff), SIGTERM (reboot), SIGUSR1 (halt): busybox init's meaning. */
static void shutdown_signal(int sig)
{
	const char *what = sig == SIGUSR2 ? "power off" : sig == SIGTERM ? "reboot" : "halt";

	if (getpid() != 1)		/* a child between fork and exec: the default action */
		_exit(128 + sig);
	printf("init: %s requested: stopping every process\n", what);
	sys_kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0)
		;
	sys_sync();
	if (sig == SIGUSR2)
		granule_poweroff(0);
	sys_reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		   sig == SIGTERM ? LINUX_REBOOT_CMD_RESTART : LINUX_REBOOT_CMD_HALT, 0);
	_exit(1);
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: init [COMMAND [ARG...]] [; COMMAND ...]\nPid 1: runs the boot line's run= commands one after another, then powers off;\nwithout run=, busybox's login shell (README, 'Passing parameters').\n");
	int failed = 0;

	signal(SIGUSR2, shutdown_signal);
	signal(SIGTERM, shutdown_signal);
	signal(SIGUSR1, shutdown_signal);

	if (argc < 2 && !have_busybox()) {
		printf("init: no run= on the boot line and no %s in this image (built with "
		       "BUSYBOX=0) for the login shell: nothing to run\n", BUSYBOX);
	} else if (argc < 2) {
		char shell[] = "shell";
		printf("init: no run= on the boot line: starting the login shell (exit powers off)\n");
		failed = run(shell);
	} else if (!argv[1][0]) {
		printf("init: run= is empty: nothing to run\n");
	} else {
		char *cmds = argv[1], *c;
		while ((c = next_token(&cmds, ";", 0)))
			failed |= run(c);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	granule_poweroff(failed ? 1 : 0);
	return 0;
}
