/*
 * user/tests/bigbss.c - "ut-bigbss": a program with a 64 MiB bss, half the
 * machine's memory.  Linux maps a bss as anonymous memory that appears at
 * its first touch (set_brk), so several of these run at once on a machine
 * that could not hold two of them filled in.  It touches a few pages at
 * both ends and in the middle, checks they read zero and take writes, then
 * with "hold" says so on fd 1 (one byte) and waits for fd 0 to close before
 * it exits; exit 0, or 2-3 (usertests exec_big_bss).
 */
#include <unistd.h>

#define BIG	(64u << 20)

static char big[BIG];

int main(int argc, char **argv)
{
	static const unsigned at[] = { 0, 4096, BIG / 2, BIG - 4096, BIG - 1 };
	char c;

	for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		if (big[at[i]])
			return 2;
		big[at[i]] = (char)(i + 1);
	}
	for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		if (big[at[i]] != (char)(i + 1))
			return 3;
	if (argc > 1) {
		write(1, "r", 1);
		while (read(0, &c, 1) > 0)
			;
	}
	return 0;
}
