/*
 * kernel/random.c - get_random_bytes() and getrandom(2); see
 * kernel/random.h for what the bytes are (and are not).
 */
#include <kernel/errno.h>
#include <kernel/random.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>

#define GRND_NONBLOCK	0x1
#define GRND_RANDOM	0x2
#define GRND_INSECURE	0x4
#define MAX_RW_COUNT	0x7ffff000u	/* Linux: INT_MAX & PAGE_MASK */

static u64 state;

/* splitmix64 (Steele, Lea, Flood 2014): state += golden ratio, then mix. */
static u64 next64(void)
{
	u64 z = (state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void get_random_bytes(void *buf, size_t n)
{
	u8 *p = buf;

	state ^= sched_clock();
	while (n) {
		u64 r = next64();
		size_t k = min(n, sizeof(r));
		memcpy(p, &r, k);
		p += k;
		n -= k;
	}
}

/*
 * Linux's getrandom: unknown flags or GRND_INSECURE|GRND_RANDOM together
 * are -EINVAL; the pool is always "initialised" here, so it never blocks
 * and GRND_NONBLOCK changes nothing.  Returns COUNT (at most MAX_RW_COUNT),
 * or -EFAULT with nothing copied if the buffer is bad.
 */
long sys_getrandom(void *ubuf, u32 count, u32 flags)
{
	u8 chunk[64];
	u32 done = 0;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
		return -EINVAL;
	count = min(count, MAX_RW_COUNT);
	if (!access_ok((u32)ubuf, count))
		return -EFAULT;
	while (done < count) {
		u32 n = min(count - done, (u32)sizeof(chunk));
		get_random_bytes(chunk, n);
		if (copy_to_user((u8 *)ubuf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return done;
}
