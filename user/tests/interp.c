/*
 * user/tests/interp.c - "ut-interp": an ELF interpreter that is an ET_EXEC
 * (interp.ld at 0x30000000) and has a PT_INTERP of its own.  Linux 2.6.35's
 * load_elf_interp takes an ET_EXEC interpreter at its own addresses (AT_BASE
 * 0) and never reads the interpreter's PT_INTERP.  No C library, no crt0:
 * _start hands the initial stack to interp_main(), which checks what the
 * kernel gave it and jumps to the program's entry (AT_ENTRY) with the stack
 * as it found it.  It leaves its verdict in the first byte of argv[1]: 'I'
 * if all was well, else 'A'-'D' for the first thing found wrong; the
 * program (interp_prog.c) checks it.
 */
#include <stdint.h>

#define AT_BASE		7
#define AT_ENTRY	9

/* Its own interpreter, which nobody must try to load. */
const char interp_path[] __attribute__((section(".interp"), used)) = "/bin/no-such-interpreter";
static volatile int data_word = 42;	/* a writable last file page, for padzero */
static volatile char bss[5000];		/* zeroed: padzero and the anonymous page after it */

void _start(void);
uint32_t interp_main(uint32_t *sp);

__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"\tmovl %esp, %eax\n"
	"\tpushl %eax\n"
	"\tcall interp_main\n"
	"\taddl $4, %esp\n"
	"\tjmp *%eax\n");

uint32_t interp_main(uint32_t *sp)
{
	uint32_t argc = sp[0], base = ~0u, entry = 0;
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1;
	char verdict = 'I';

	while (*envp)
		envp++;
	for (uint32_t *a = (uint32_t *)(envp + 1); a[0]; a += 2) {
		if (a[0] == AT_BASE)
			base = a[1];
		if (a[0] == AT_ENTRY)
			entry = a[1];
	}
	if (base != 0)
		verdict = 'A';		/* an ET_EXEC interpreter's AT_BASE is 0 */
	else if (!entry || entry == (uint32_t)_start)
		verdict = 'B';		/* AT_ENTRY is the program's */
	else if (data_word != 42)
		verdict = 'C';
	for (unsigned i = 0; i < sizeof(bss) && verdict == 'I'; i++)
		if (bss[i])
			verdict = 'D';
	if (argc >= 2)
		argv[1][0] = verdict;
	return entry;
}
