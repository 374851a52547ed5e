/*
 * user/tests/frames.c - print the free physical frames: "frames: N free".
 *
 *	frames [MS]
 *
 * Sleeps MS milliseconds first (default 200), so that init has reaped the
 * orphans of whatever ran before and their frames are back.  tools/soak runs
 * it before and after a long experiment ("run=...; frames; experiment ...;
 * frames") and compares the two counts: the same program at the same point,
 * so any difference is a leak.
 */
#include <granule.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: frames [MS]\nPrints the free frame count after MS ms (default 200) of quiet.\n");
	long ms = argc > 1 ? atol(argv[1]) : 200;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	long n;

	nanosleep(&ts, NULL);
	n = granule_frames();
	if (n < 0) {
		printf("frames: unknown (not Granule)\n");
		return 1;
	}
	printf("frames: %ld free\n", n);
	return 0;
}
