/*
 * user/bench/kjob.h - kbuild-load's jobs, as numbers: the splitmix64
 * generator and job i's parameters.  Plain integer C (stdint only), so the
 * same file builds into the user programs (libbench.a) and into the host
 * simulator (tools/sim experiment), which must draw exactly the jobs the
 * image draws.
 */
#ifndef USER_BENCH_KJOB_H
#define USER_BENCH_KJOB_H

#include <stdint.h>

/*
 * splitmix64 (Steele, Lea, Flood 2014): state += 0x9E3779B97F4A7C15, then
 * two xor-shift-multiply rounds.  rng_for(seed, stream, i) gives item i of
 * a stream its own state, so job i's parameters depend on (seed, i) only.
 */
uint64_t splitmix64(uint64_t *state);
uint64_t rng_for(uint64_t seed, uint64_t stream, uint64_t i);
/* Uniform in [lo, hi] (inclusive): splitmix64 modulo the span. */
int64_t rng_range(uint64_t *state, int64_t lo, int64_t hi);

/*
 * Job i of seed S (ns): work = a + b + c uniform in [5, 60] ms, cut at two
 * uniform points; sleeps s1, s2 uniform in [0, 2] ms (µs steps); with
 * probability 1/2 an "as" grandchild of as_ns uniform in [1, 5] ms, else 0.
 */
struct kjob {
	int64_t work, a, b, c, s1, s2, as_ns;
};
void kjob_params(uint64_t seed, uint64_t index, struct kjob *j);

#endif
