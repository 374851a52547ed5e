/*
 * tests/host/trace/test_kprobes_insn.c - the first instructions a kprobe
 * may displace (arch/x86/kprobes_insn.h): each accepted form gets its exact
 * length, and its neighbours in the opcode map (other registers, other
 * ModRM forms, control transfers, EIP-relative loads) are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../../arch/x86/kprobes_insn.h"

#define LEN(...) kprobe_insn_length((const u8[]){ __VA_ARGS__, 0, 0, 0, 0, 0, 0 })

static void test_accepted_prologues(void **state)
{
	for (u8 r = 0; r < 8; r++) {
		assert_int_equal(LEN(0x50 + r), 1);			/* push r32 */
		assert_int_equal(LEN(0x8b, 0x44 + 8 * r, 0x24, 0x04), 4);	/* mov 4(%esp),r32 */
	}
	assert_int_equal(LEN(0x83, 0xec, 0x1c), 3);			/* sub $0x1c,%esp */
	assert_int_equal(LEN(0x81, 0xec, 0xcc, 0x00, 0x00, 0x00), 6);	/* sub $0xcc,%esp */
}

static void test_refused_neighbours(void **state)
{
	assert_int_equal(LEN(0x58), 0);			/* pop %eax */
	assert_int_equal(LEN(0x4f), 0);			/* dec %edi */
	assert_int_equal(LEN(0x83, 0xc4, 0x1c), 0);	/* add $0x1c,%esp */
	assert_int_equal(LEN(0x83, 0xed, 0x1c), 0);	/* sub $0x1c,%ebp */
	assert_int_equal(LEN(0x81, 0xc4, 0, 1, 0, 0), 0);	/* add $0x100,%esp */
	assert_int_equal(LEN(0x8b, 0x45, 0x08), 0);	/* mov 8(%ebp),%eax */
	assert_int_equal(LEN(0x8b, 0x44, 0x25, 0x04), 0);	/* SIB base ebp, not esp */
	assert_int_equal(LEN(0x8b, 0x84, 0x24, 0, 1, 0, 0), 0);	/* disp32 form */
	assert_int_equal(LEN(0x8b, 0x04, 0x24), 0);	/* no displacement */
	assert_int_equal(LEN(0x8b, 0x05, 0, 0, 0, 0), 0);	/* absolute load */
	assert_int_equal(LEN(0xe8, 0, 0, 0, 0), 0);	/* call rel32 */
	assert_int_equal(LEN(0xe9, 0, 0, 0, 0), 0);	/* jmp rel32 */
	assert_int_equal(LEN(0xeb, 0), 0);		/* jmp rel8 */
	assert_int_equal(LEN(0xc3), 0);			/* ret */
	assert_int_equal(LEN(0xcc), 0);			/* int3 */
	assert_int_equal(LEN(0x0f, 0x0b), 0);		/* ud2 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted_prologues),
		cmocka_unit_test(test_refused_neighbours),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
