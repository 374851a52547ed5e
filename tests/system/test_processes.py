"""End-to-end process behaviour as seen on the serial console: a faulting
program's Linux-style segfault line, init's report of how each command
ended, and byte-identical output from two identical -icount runs."""
import re

from conftest import boot, check_clean

TS = re.compile(r"^\[\s*\d+\.\d+\] ", re.M)


def test_segfault_line_and_killed_by_signal():
    # usertests' kernmem forks children that touch kernel memory.
    r = boot('run="usertests kernmem"', timeout=60)
    check_clean(r, status=0)
    m = r.find(r"^usertests\[(\d+)\]: segfault at c0000000 ip (08[0-9a-f]{6}) sp (b[0-9a-f]{7}) error 5$")
    assert m, r.output[-2000:]
    assert int(m.group(1)) > 2          # a child, not init (1) or the runner (2)
    assert r.find(r"^usertests\[\d+\]: segfault at c0100000 ip 08[0-9a-f]{6} sp b[0-9a-f]{7} error 7$")
    assert r.has_line("init: usertests (pid 2) exited with status 0")


def test_init_reports_exit_status_and_signals():
    # --exit N is a helper mode of usertests; "notelf" cannot be executed.
    r = boot('run="usertests --exit 3; hello; notelf; usertests --exit 0"', timeout=60)
    check_clean(r, status=1)            # one command failed -> init powers off with 1
    assert r.has_line("init: usertests (pid 2) exited with status 3"), r.output[-2000:]
    assert r.has_line("init: hello (pid 3) exited with status 0")
    assert r.has_line("init: cannot run notelf: Exec format error"), r.output[-2000:]
    assert r.has_line("init: notelf (pid 4) exited with status 127")
    assert r.has_line("init: usertests (pid 5) exited with status 0")


def test_init_reports_a_killed_program():
    r = boot('run="usertests --exit 0; usertests kernmem"', timeout=60)
    check_clean(r, status=0)
    # The killed children belong to usertests; init itself only sees status 0 ...
    assert r.has_line("init: usertests (pid 3) exited with status 0")
    # ... while a program killed outright is reported with its signal.
    r = boot('run="usertests --segv"', timeout=60)
    check_clean(r, status=1)
    assert r.find(r"^usertests\[2\]: segfault at 0 ip 08[0-9a-f]{6} sp b[0-9a-f]{7} error 6$"), r.output[-2000:]
    assert r.has_line("init: usertests (pid 2) killed by signal 11"), r.output[-2000:]


def test_identical_runs_are_byte_identical():
    cmd = 'run="usertests ids cow exitwait zombies kernmem"'
    a, b = boot(cmd, timeout=60), boot(cmd, timeout=60)
    check_clean(a, status=0)
    check_clean(b, status=0)
    assert a.output == b.output
    assert TS.search(a.output)          # timestamps included: timing is identical too
