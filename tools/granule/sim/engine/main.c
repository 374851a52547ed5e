/*
 * tools/granule/sim/engine/main.c - build/sim, the engine behind tools/sim: the real,
 * unchanged kernel/sched/ files (CFS of Linux 2.6.35 and EEVDF of Linux
 * 6.12) on the host, in milliseconds instead of a QEMU boot.
 *
 *   tasks       an OSTEP-style problem (tasks.c, on tests/host/sched/sim.c)
 *   experiment  the 2010 experiment (experiment.c, on machine.c + workload.c)
 *   rtapp       an rt-app workload (rtapp.c, on machine.c; tools/sim ... --rt-app FILE)
 * tools/sim itself runs sweep, replay and calibrate (Python front ends) and passes
 * the rest here.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"

static const char main_help[] =
"usage: tools/sim SUBCOMMAND [--help] ...\n"
"  tasks        an OSTEP-style scheduling problem on the real kernel/sched code\n"
"  experiment   the 2010 experiment simulated: seed lines, percentiles, RESULT\n"
"  sweep        a grid of experiments (tools/sim's front end)\n"
"  replay       a traced run rebuilt and run under the same or other knobs (tools/sim's front end)\n"
"  calibrate    measure the kernel's costs on the QEMU image (tools/sim's front end)\n"
"experiment and tasks take --rt-app FILE: an rt-app workload (docs/RTAPP.md).\n"
"Each takes --help.  A *_ns knob takes ns or a time (750us, 2ms); a refused value stops\n"
"the run with one line.  An experiment outside what was checked against QEMU warns.\n";

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(main_help, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "tasks"))
		return cmd_tasks(argc - 2, argv + 2);
	if (!strcmp(argv[1], "experiment"))
		return cmd_experiment(argc - 2, argv + 2);
	if (!strcmp(argv[1], "rtapp"))
		return cmd_rtapp(argc - 2, argv + 2);
	if (!strcmp(argv[1], "replay-script"))
		return cmd_replay(argc - 2, argv + 2);
	fprintf(stderr, "sim: unknown subcommand '%s' (expected: tasks, experiment, sweep, replay, calibrate)\n",
		argv[1]);
	return 2;
}
