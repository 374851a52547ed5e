/*
 * tests/host/exec/test_user_run.c - run the user programs built by
 * user/rules.mk directly on this Linux host.  They are static i386 ELFs that
 * use only the Linux int 0x80 ABI, so a host with 32-bit support runs them:
 * that checks crt0 (argc/argv/envp), the generated stubs, and the whole
 * user library (ulibtest's own checks) before Granule ever loads them.
 * On a host without 32-bit execution (execve fails with ENOEXEC) the
 * tests are skipped.
 *
 * USER_ELF_DIR is an absolute path given by tests/host/exec/rules.mk.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <setjmp.h>
#include <sys/wait.h>
#include <cmocka.h>

/* Run PROG with ARGV, capture stdout+stderr; returns the wait status. */
static int run(const char *prog, char *const argv[], char *out, size_t outlen)
{
	char path[512];
	int pipefd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s.elf", USER_ELF_DIR, prog);
	assert_int_equal(access(path, X_OK), 0);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *envp[] = { "GRANULE_TEST=1", NULL };

		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		execve(path, argv, envp);
		_exit(errno == ENOEXEC ? 200 : 201);
	}
	close(pipefd[1]);
	while (got + 1 < outlen && (n = read(pipefd[0], out + got, outlen - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 200)
		skip();		/* no 32-bit execution on this host */
	return status;
}

static void test_hello(void **state)
{
	char out[4096];
	char *argv[] = { "hello", "one", "two words", NULL };
	int status = run("hello", argv, out, sizeof(out));

	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(out, "argv[0] = \"hello\"\n"));
	assert_non_null(strstr(out, "argv[1] = \"one\"\n"));
	assert_non_null(strstr(out, "argv[2] = \"two words\"\n"));
	assert_null(strstr(out, "argv[3]"));
	assert_non_null(strstr(out, "hello from user space"));
}

static void test_ulibtest(void **state)
{
	char out[65536];
	char *argv[] = { "ulibtest", NULL };
	int status = run("ulibtest", argv, out, sizeof(out));
	int passed = -1, failed = -1;
	const char *summary = strstr(out, "ulibtest: ");

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("ulibtest status %#x, output:\n%s", status, out);
	assert_non_null(summary);
	assert_int_equal(sscanf(summary, "ulibtest: %d passed, %d failed", &passed, &failed), 2);
	assert_int_equal(failed, 0);
	assert_true(passed >= 100);
	assert_null(strstr(out, "FAIL"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello),
		cmocka_unit_test(test_ulibtest),
	};

	return cmocka_run_group_tests_name("exec_user_run", tests, NULL, NULL);
}
