/*
 * tests/labs/main.c - the labs' check binary (tools/lab runs it):
 *	labs NAME CHECK	one check of lab NAME (how a failed one is rerun)
 *	labs NAME	lab NAME's checks (cmocka's "[       OK ] test_x" lines)
 *	labs		every lab's checks, as `make test` runs host tests
 * One binary per tree: the kernel's scheduler files are compiled once for
 * all labs.  Exit status: cmocka's failed count; 2 for an unknown lab or
 * check.
 */
#include <stdlib.h>
#include <string.h>
#include "lab.h"
#include "../host/sched/smp_fake.h"

/* UndefinedBehaviorSanitizer: abort (so that property.c can say which case
 * was running) and show where, as AddressSanitizer does */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "abort_on_error=1:print_stacktrace=1";
}

#define DECLARE(lab)	extern const struct lab_group lab_group_##lab;
LAB_NAMES(DECLARE)
#define ENTRY(lab)	&lab_group_##lab,
static const struct lab_group *const groups[] = { LAB_NAMES(ENTRY) };
#define NGROUPS		(sizeof(groups) / sizeof(groups[0]))

static int run(const struct lab_group *g, const char *only)
{
	char name[64];
	struct CMUnitTest one[1];

	snprintf(name, sizeof(name), "lab_%s", g->name);
	if (!only)
		return _cmocka_run_group_tests(name, g->tests, g->count, NULL, NULL);
	for (size_t i = 0; i < g->count; i++) {
		if (!strcmp(g->tests[i].name, only)) {
			one[0] = g->tests[i];
			return _cmocka_run_group_tests(name, one, 1, NULL, NULL);
		}
	}
	fprintf(stderr, "labs: lab %s has no check '%s'; its checks are:", g->name, only);
	for (size_t i = 0; i < g->count; i++)
		fprintf(stderr, " %s", g->tests[i].name);
	fprintf(stderr, "\n");
	return 2;
}

static int run_labs(int argc, char **argv)
{
	int failed = 0;

	/* cmocka's messages (stderr) beside the checks' lines (stdout) in one pipe */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* a valid current first: the sanitizers' exit path calls sched_yield(),
	 * which this binary's kernel/sched/core.c defines */
	sched_test_reset();
	if (argc > 3) {
		fprintf(stderr, "labs: a lab name and one check at most, got %d arguments\n",
			argc - 1);
		return 2;
	}
	for (size_t i = 0; i < NGROUPS; i++) {
		if (argc >= 2 && strcmp(argv[1], groups[i]->name))
			continue;
		if (argc >= 2)
			return run(groups[i], argc == 3 ? argv[2] : NULL);
		failed += run(groups[i], NULL);
	}
	if (argc >= 2) {
		fprintf(stderr, "labs: no lab '%s'; the labs are:", argv[1]);
		for (size_t i = 0; i < NGROUPS; i++)
			fprintf(stderr, " %s", groups[i]->name);
		fprintf(stderr, "\n");
		return 2;
	}
	return failed;
}

int main(int argc, char **argv)
{
	int ret;

	/* the SMP labs' four CPUs (smp_lab.c); the others run on CPU 0 alone */
	host_percpu_setup(SMP_NCPUS);
	ret = run_labs(argc, argv);
	host_percpu_teardown();
	return ret;
}
