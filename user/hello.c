/*
 * user/hello.c - the first user program: prints its arguments and a
 * greeting, exits 0.  Uses only Linux i386 system calls, so the same ELF
 * also runs on a Linux host (a handy smoke test of the toolchain).
 */
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: hello [ARG...]\nPrints its arguments and its pid: the smallest program of the image.\n");
	int i;

	for (i = 0; i < argc; i++)
		printf("argv[%d] = \"%s\"\n", i, argv[i]);
	printf("hello from user space (pid %d)\n", getpid());
	return 0;
}
