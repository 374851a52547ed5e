/*
 * user/bench/chainjob.c - the stages of one kbuild job, for kbuild-load -P chain.
 *
 * Installed in the initrd under the names sh, gcc, cc1 and as in
 * KBUILD_CHAIN_DIR (/usr/lib/granule/kbuild/; one ELF, user/bench/rules.mk
 * USER_ALIASES), never in /bin, where sh is busybox's shell.  Each stage
 * execs the next by that full path with argv[0] the bare name.  What it
 * does depends on argv[0]:
 *
 *	sh  SEED I	burn 0.2 ms, fork + exec "gcc SEED I", wait, exit
 *	gcc SEED I	burn 0.5 ms, fork + exec "cc1 SEED I", wait; if job I has
 *			an assembler step, fork + exec "as SEED I", wait; exit
 *	cc1 SEED I	the job's compile: kjob_body (burn a, sleep s1, burn b,
 *			sleep s2, burn c)
 *	as  SEED I	burn the job's as_ns (1-5 ms), exit
 *
 * so make -> sh -> gcc -> cc1 (-> as) is a chain of fork + execve of
 * short-lived processes, as `make -j` produces.  The job parameters are
 * kbuild-load's (kjob_params(SEED, I)); the sh/gcc bursts are driver
 * overhead, not counted as useful work.  Exit status: 0, or 127 if a
 * stage cannot be executed, 2 on bad arguments.
 */
#include <bench.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SH_BURN_NS	(200 * NSEC_PER_USEC)
#define GCC_BURN_NS	(500 * NSEC_PER_USEC)

/* fork + exec KBUILD_CHAIN_DIR NAME SEED I, wait; the child's exit status. */
#define stage(name, seed, index) stage_path(KBUILD_CHAIN_DIR name, name, seed, index)
static int stage_path(const char *path, const char *name, char *seed, char *index)
{
	char *argv[] = { (char *)name, seed, index, NULL };
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execve(path, argv, environ);
		printf("chainjob: cannot exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: sh|gcc|cc1|as SEED INDEX\nOne stage of kbuild-load -P chain's job chain (run by kbuild-load, not by hand).\n");
	const char *me;
	struct kjob j;

	if (argc != 3)
		goto usage;
	me = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	kjob_params(strtoull(argv[1], NULL, 0), strtoull(argv[2], NULL, 0), &j);
	if (strcmp(me, "sh") == 0) {
		burn_cpu_ns(SH_BURN_NS);
		return stage("gcc", argv[1], argv[2]);
	}
	if (strcmp(me, "gcc") == 0) {
		int r;

		burn_cpu_ns(GCC_BURN_NS);
		r = stage("cc1", argv[1], argv[2]);
		if (r == 0 && j.as_ns)
			r = stage("as", argv[1], argv[2]);
		return r;
	}
	if (strcmp(me, "cc1") == 0) {
		kjob_body(&j);
		return 0;
	}
	if (strcmp(me, "as") == 0) {
		burn_cpu_ns(j.as_ns);
		return 0;
	}
usage:
	fprintf(stderr, "usage: sh|gcc|cc1|as SEED INDEX (chainjob, for kbuild-load -P chain)\n");
	return 2;
}
