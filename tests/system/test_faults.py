"""In-kernel faults (ktest=NAME): the Linux-style title, the register dump,
'Kernel panic - not syncing', and a failing power-off status (EXIT_PANIC = 2)
that the harness sees."""
import pytest

from conftest import boot, check_clean

EXIT_PANIC = 2

CASES = [
    ("ud2", r"^BUG: invalid opcode in c0[0-9a-f]{6}$", "Kernel panic - not syncing: Fatal exception"),
    ("nullderef", r"^BUG: unable to handle kernel NULL pointer dereference at 00000000$",
     "Kernel panic - not syncing: Fatal exception"),
    ("gpf", r"^general protection fault: 0058 \[#1\]$", "Kernel panic - not syncing: Fatal exception"),
    ("div0", r"^divide error: 0000 \[#1\]$", "Kernel panic - not syncing: Fatal exception"),
    ("bug", r"^Kernel panic - not syncing: kernel BUG at kernel/ktest\.c:\d+!$", None),
    ("panic", r"^Kernel panic - not syncing: ktest$", None),
]


@pytest.mark.parametrize("name,title,panic_line", CASES, ids=[c[0] for c in CASES])
def test_kernel_fault_is_reported_and_fails_the_run(name, title, panic_line):
    r = boot(f"ktest={name}")
    check_clean(r, status=EXIT_PANIC, panic=True, bug=True)
    assert r.find(title), r.output
    if panic_line:
        assert r.has_line(panic_line), r.output
        assert r.find(r"^EIP: 0008:\[<c0[0-9a-f]{6}>\] EFLAGS: [0-9a-f]{8} CPU: 0$"), r.output
        assert r.find(r"^EAX: [0-9a-f]{8} EBX: [0-9a-f]{8} ECX: [0-9a-f]{8} EDX: [0-9a-f]{8}$")
    assert not r.has_line("Boot complete")


def test_the_grader_catches_a_panic():
    """check_clean must fail on a panicking run: the harness can detect it."""
    r = boot("ktest=panic")
    with pytest.raises(AssertionError):
        check_clean(r)
