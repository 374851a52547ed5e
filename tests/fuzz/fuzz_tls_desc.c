/*
 * tests/fuzz/fuzz_tls_desc.c - libFuzzer target: the user_desc <->
 * descriptor conversion (arch/x86/tls_desc.c, unchanged).
 *
 * Every accepted user_desc must give a descriptor that converts back to a
 * user_desc that converts to the same descriptor again (the round trip
 * set_thread_area / get_thread_area relies on), and an accepted non-empty
 * descriptor is always a user one: DPL 3, a code/data (S = 1) segment.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <arch/tls.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct user_desc u, back;
	struct desc_struct d, d2;

	if (size < sizeof(u))
		return 0;
	memcpy(&u, data, sizeof(u));
	(void)tls_user_desc_empty(&u);
	if (tls_desc_from_user(&u, &d))
		return 0;
	if (!tls_desc_is_empty(&d) && (((d.b >> 13) & 3) != 3 || !(d.b & (1u << 12))))
		abort();
	tls_desc_to_user(&d, u.entry_number, &back);
	if (tls_desc_from_user(&back, &d2) || d2.a != d.a || d2.b != d.b)
		abort();
	return 0;
}
