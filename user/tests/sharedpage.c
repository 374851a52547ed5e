/*
 * user/tests/sharedpage.c - "ut-sharedpage", linked with sharedpage.ld: its
 * code and its data share a page.  It checks that both came in whole (the
 * code runs, the initialised data have their values, the bss is zero) and
 * that the shared page takes writes; exit 0, or 2-6 for the first thing
 * found wrong (usertests exec_shared_page).
 */
#include <string.h>

static const char text[] = "read-only data beside the code";
int counter = 0x12345678;
char words[] = "initialised data on the shared page";
static char zeros[3 * 4096 + 100];	/* the bss: its first bytes on the shared page */

int main(void)
{
	if (counter != 0x12345678)
		return 2;
	if (strcmp(words, "initialised data on the shared page"))
		return 3;
	for (unsigned i = 0; i < sizeof(zeros); i++)
		if (zeros[i])
			return 4;
	counter++;
	words[0] = 'I';
	zeros[0] = zeros[sizeof(zeros) - 1] = 1;
	if (counter != 0x12345679 || words[0] != 'I' || zeros[0] != 1)
		return 5;
	return strcmp(text, "read-only data beside the code") ? 6 : 0;
}
