"""Limits that keep one program or one boot line from taking the kernel
down: each case used to panic, hang or silently mangle input.  Every boot
must end cleanly (no panic, no timeout, the expected power-off status) with
the expected message."""
import re

import pytest

from conftest import boot, boot_usertests, check_clean


def test_ldt_selectors_in_sigreturn_do_not_panic():
    # A TI=1 selector in a sigcontext used to fault at the NULL page inside
    # the return path (LDTR from reset: base 0) and panic.
    names = ["sig_ldtsegs"]
    r = boot_usertests(names, timeout=60)
    assert r.find(r"^usertests\[\d+\] general protection ip:[0-9a-f]+ sp:[0-9a-f]+ error:4$")
    assert not r.find(r"BUG: unable to handle")


@pytest.mark.parametrize("mode", ["", "highres=off"])
def test_1ns_timers_do_not_hang_the_machine(mode):
    # A 1 ns periodic timer used to hang the machine (one interrupt per
    # expiry).  Now it costs its own process's time; overruns are counted.
    # Also with timers run from the periodic tick.
    names = ["timer_1ns_hog", "timer_1ns_overrun", "timer_1ns_ignored"]
    r = boot_usertests(names, mode, timeout=90)
    assert not r.find(r"^hrtimer: interrupt took")


def test_sigpending_limit_and_killable_console_write():
    names = ["sigpending_limit", "tty_bigwrite"]
    boot_usertests(names, timeout=90)


def test_bad_init_falls_back_to_the_default():
    # Linux 2.6.35 init_post(): a bad init= is reported and the defaults run.
    r = boot('init=nosuch run=hello', timeout=60)
    check_clean(r, status=0)
    assert r.has_line("Failed to execute nosuch.  Attempting defaults..."), r.output[-2000:]
    assert not r.find("No working init found")
    assert r.find(r"^hello from user space \(pid \d+\)$"), r.output[-2000:]


def test_boot_line_too_long_drops_the_cut_word():
    # 40 unknown env words (more than init's 32), then a knob whose value
    # straddles the 1023-byte limit: it must not be applied with digits lost.
    words = [f"pad{i:02d}={'x' * 14}" for i in range(40)]     # 24 bytes each with the blank
    head = "run=hello " + " ".join(words) + " "
    fill = "y" * (1023 - len(head) - len("sched_latency_ns=600000") - 1)
    line = head + fill + " sched_latency_ns=6000000 poweroff=1"
    assert line[:1023].endswith(" sched_latency_ns=600000"), line[1000:1023]
    r = boot(line, timeout=60)
    check_clean(r, status=0)
    m = r.find(r"^cmdline: boot line too long \((\d+) bytes, limit 1023\): dropped the cut word "
               r"'sched_latency_ns=600000' and the (\d+) bytes after it$")
    assert m, r.output[-3000:]
    assert int(m.group(1)) == len(line) and int(m.group(2)) == len(line) - 1023
    assert not r.find(r"sched_latency_ns = 600000$"), r.output[-3000:]   # the cut value is not applied
    assert r.has_line("cmdline: more than 32 unknown words: 'pad32=xxxxxxxxxxxxxx' and later ones are not passed to init")
    assert r.find(r"^hello from user space")


def test_out_of_memory_fault_in_init_does_not_panic():
    # pid 1 faults with no free frame left: it waits for memory (a child
    # holding it exits) instead of being killed ("Attempted to kill init!").
    r = boot("init=usertests run=--oom-init", timeout=60)
    check_clean(r, status=0)
    waits = [l for l in r.lines if re.match(r"^Out of memory: init \(pid 1\) waits for memory \(fault at [0-9a-f]+\)$", l)]
    assert 1 <= len(waits) <= 10, r.output[-2000:]      # rate-limited
    assert r.has_line("oom-init: pid 1 survived; the hog exited with status 0"), r.output[-2000:]
    assert not r.find("Attempted to kill init")


def test_user_trap_log_is_rate_limited():
    # printk_ratelimit: 10 lines per 5 s of kernel time, then one line saying
    # how many were suppressed (Linux's ___ratelimit).  26 faults: 25 at
    # once, the last after 5.1 s.
    r = boot('run="usertests --trap-flood"', timeout=120)
    check_clean(r, status=0)
    segv = [i for i, l in enumerate(r.lines) if re.match(r"^usertests\[\d+\]: segfault at 0 ip [0-9a-f]{8} ", l)]
    assert len(segv) == 11, r.output[-3000:]
    sup = r.lines.index("user_exception: 15 callbacks suppressed")
    assert segv[9] < sup < segv[10] == sup + 1
    assert r.has_line("init: usertests (pid 2) exited with status 0")
