/*
 * tests/fuzz/fuzz_acpi_s5.c - libFuzzer target: the AML \_S5 parser
 * (arch/x86/acpi_s5.c, unchanged) on arbitrary DSDT bodies.  It promises
 * to read only AML[0..LEN): the input is an exact-size heap copy, so ASan
 * sees any read past it.  Outputs are written only on success.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <arch/acpi.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *aml = malloc(size ? size : 1);
	u8 a = 0xaa, b = 0xbb;
	int ret;

	memcpy(aml, data, size);
	ret = acpi_parse_s5(aml, (u32)size, &a, &b);
	if (ret != 0 && ret != -1)
		abort();
	if (ret != 0 && (a != 0xaa || b != 0xbb))
		abort();
	free(aml);
	return 0;
}
