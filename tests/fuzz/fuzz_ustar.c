/*
 * tests/fuzz/fuzz_ustar.c - libFuzzer target: the ustar reader
 * (kernel/lib/ustar.c, unchanged) on arbitrary archives.
 *
 * Asserted besides ASan/UBSan: every member's data lies inside the
 * archive, its name is NUL-terminated within USTAR_NAME_MAX, the iterator
 * always moves forward (so it ends), and ustar_find() of each member's
 * name finds that member or an earlier one of the same name.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kernel/ustar.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *ar = malloc(size ? size : 1);
	struct ustar_iter it;
	struct ustar_entry e;
	size_t last = 0;
	int ret, n = 0;

	memcpy(ar, data, size);
	ustar_iter_init(&it, ar, size);
	while ((ret = ustar_next(&it, &e)) == 1) {
		const uint8_t *d = e.data;
		const void *fd;
		size_t fsize;

		if (e.size && (d < ar || d + e.size > ar + size))
			abort();
		if (!memchr(e.name, 0, sizeof(e.name)))
			abort();
		if (it.off <= last && it.off != it.len)
			abort();
		last = it.off;
		if (e.type == USTAR_REG && e.name[0] &&
		    ustar_find(ar, size, e.name, &fd, &fsize) == 0 &&
		    ((const uint8_t *)fd > d || (fsize && (const uint8_t *)fd + fsize > ar + size)))
			abort();
		if (++n > (int)(size / USTAR_BLOCK) + 1)
			abort();	/* more members than blocks: no progress */
	}
	if (ret != 0 && ret != -22)	/* -EINVAL */
		abort();
	{
		const void *fd;
		size_t fsize;

		ustar_find(ar, size, "/bin/hello", &fd, &fsize);
	}
	free(ar);
	return 0;
}
