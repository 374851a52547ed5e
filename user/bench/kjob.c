/*
 * user/bench/kjob.c - splitmix64 and kbuild-load's job parameters (see
 * kjob.h).  Shared by the image's programs and the host simulator.
 */
#include "kjob.h"

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_MSEC	1000000LL

uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

uint64_t rng_for(uint64_t seed, uint64_t stream, uint64_t i)
{
	uint64_t s = seed ^ (stream * 0xD1B54A32D192ED03ull);

	s ^= splitmix64(&s) + i * 0x9E3779B97F4A7C15ull;
	splitmix64(&s);
	return s;
}

int64_t rng_range(uint64_t *state, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)(hi - lo) + 1, r = splitmix64(state);

	return lo + (int64_t)(r % span);	/* modulo bias < span / 2^64: negligible */
}

void kjob_params(uint64_t seed, uint64_t index, struct kjob *j)
{
	uint64_t st = rng_for(seed, 1 /* the kbuild stream */, index);
	int64_t u1, u2, t;

	j->work = rng_range(&st, 5 * NSEC_PER_MSEC, 60 * NSEC_PER_MSEC);
	u1 = rng_range(&st, 0, j->work);
	u2 = rng_range(&st, 0, j->work);
	if (u1 > u2) {
		t = u1;
		u1 = u2;
		u2 = t;
	}
	j->a = u1;
	j->b = u2 - u1;
	j->c = j->work - u2;
	j->s1 = rng_range(&st, 0, 2000) * NSEC_PER_USEC;
	j->s2 = rng_range(&st, 0, 2000) * NSEC_PER_USEC;
	j->as_ns = rng_range(&st, 0, 1) ? rng_range(&st, 1 * NSEC_PER_MSEC, 5 * NSEC_PER_MSEC) : 0;
}

