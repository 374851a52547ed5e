/*
 * user/tests/interp_prog.c - "ut-interp-prog": a static program whose
 * PT_INTERP (interp.ld) names /bin/ut-interp, an ET_EXEC interpreter.  Run
 * as "ut-interp-prog x": the interpreter ran and found all well if argv[1]
 * now starts with 'I' (interp.c); exit 0, else 2 (not run by it) or the
 * interpreter's verdict letter.
 */
const char interp_path[] __attribute__((section(".interp"), used)) = "/bin/ut-interp";

int main(int argc, char **argv)
{
	if (argc != 2)
		return 1;
	if (argv[1][0] == 'x')
		return 2;		/* the interpreter never ran */
	return argv[1][0] == 'I' ? 0 : argv[1][0];
}
