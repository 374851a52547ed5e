/*
 * user/bench/video-load.c - a video player's CPU pattern (interbench's "Video").
 *
 *   video-load [-f fps] [-b burst_ms] [-d duration_s] [-q]
 *
 * Frame k is due at T0 + k*F (F = 1 s / fps; default 25 fps = 40 ms).  The
 * player sleeps until the frame is due (clock_nanosleep TIMER_ABSTIME),
 * then decodes for burst_ms of its own CPU time (default 10 ms = 25 % of
 * a CPU at 25 fps).  A frame meets its deadline when the decode ends by
 * T0 + (k+1)*F (before the next frame is due).  If it ends later than
 * that, the frames whose due time has already passed are dropped, as a
 * player skips to the present.  Reports frames decoded, late, dropped,
 * "% deadlines met" (met / (decoded + dropped), interbench's definition
 * counting a dropped frame as missed) and the wakeup latency of the
 * player (now - due at wakeup: max and mean), and one RESULT line.
 */
#include <bench.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: video-load [-f fps] [-b burst_ms] [-d duration_s] [-q]\nA video-player-like load: a CPU burst per frame at FPS.\n");
	int fps = 25, duration = 15, quiet = 0, opt;
	int64_t burst = 10 * NSEC_PER_MSEC, frame, t0, end, max_wake = 0, sum_wake = 0;
	long decoded = 0, late = 0, dropped = 0, met = 0;
	struct jline jl;
	char b1[32], b2[32], b3[32];

	while ((opt = getopt(argc, argv, "f:b:d:q")) != -1) {
		switch (opt) {
		case 'f': fps = atoi(optarg); break;
		case 'b': burst = atol(optarg) * NSEC_PER_MSEC; break;
		case 'd': duration = atoi(optarg); break;
		case 'q': quiet = 1; break;
		default:
			fprintf(stderr, "usage: video-load [-f fps] [-b burst_ms] [-d duration_s] [-q]\n");
			return 2;
		}
	}
	if (fps < 1 || duration < 1 || burst < 0)
		return 2;
	frame = NSEC_PER_SEC / fps;
	if (!quiet)
		printf("video-load: %d fps, decode %lld ms per frame, %d s\n", fps,
		       (long long)(burst / NSEC_PER_MSEC), duration);
	t0 = mono_ns() + frame;
	end = t0 + (int64_t)duration * NSEC_PER_SEC;
	for (int64_t k = 0; t0 + k * frame < end;) {
		int64_t due = t0 + k * frame, now, wake;

		sleep_until_ns(due);
		wake = mono_ns() - due;
		if (wake > max_wake)
			max_wake = wake;
		sum_wake += wake;
		burn_cpu_ns(burst);
		decoded++;
		now = mono_ns();
		if (now <= due + frame) {
			met++;
			k++;
		} else {
			int64_t next = (now - t0) / frame + 1;	/* first frame still in the future */

			late++;
			dropped += next - k - 1;
			k = next;
		}
	}
	fmt_ratio(b1, met * 100, decoded + dropped ? decoded + dropped : 1, 1);
	if (!quiet)
		printf("video-load: %ld frames decoded, %ld late, %ld dropped, %s%% deadlines met, "
		       "wakeup max %s us avg %s us\n", decoded, late, dropped, b1, fmt_us1(b2, max_wake),
		       fmt_ratio(b3, sum_wake, decoded ? decoded * 1000 : 1, 1));
	jl_init(&jl);
	jl_str(&jl, "bench", "video-load");
	jl_int(&jl, "fps", fps);
	jl_int(&jl, "burst_ms", burst / NSEC_PER_MSEC);
	jl_int(&jl, "duration_s", duration);
	jl_int(&jl, "frames", decoded);
	jl_int(&jl, "late", late);
	jl_int(&jl, "dropped", dropped);
	jl_raw(&jl, "deadlines_met_pct", b1);
	jl_raw(&jl, "max_wake_us", b2);
	jl_raw(&jl, "avg_wake_us", b3);
	printf("RESULT %s\n", jl_end(&jl));
	return 0;
}
