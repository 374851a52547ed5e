/*
 * user/hello.c - the first user program: prints its arguments and a
 * greeting, exits 0.  Uses only Linux i386 system calls, so the same ELF
 * also runs on a Linux host (a handy smoke test of the toolchain).
 */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		printf("argv[%d] = \"%s\"\n", i, argv[i]);
	printf("hello from user space (pid %d)\n", getpid());
	return 0;
}
