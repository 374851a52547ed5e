"""The red-team pass (docs/ROBUSTNESS.md, "A red-team pass"): the hostile
usertests whose failure was a hang or memory corruption, each in a boot of
its own, and a boot line of bad values for the newer knobs.  Every boot
must end cleanly (no panic, no BUG, no timeout, power-off status 0)."""
from conftest import boot, boot_usertests, check_clean


def test_close_under_a_blocked_reader():
    # A thread's close() of a pipe's read end freed the struct file (and the
    # pipe's reader count) under another thread asleep in read() on it: the
    # writer got EPIPE and the sleeper woke on freed memory.
    names = ["hostile_close_blocked", "hostile_pipe_peer_killed"]
    r = boot_usertests(names, 'sched_verify=1', timeout=90)
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]


def test_futex_timeout_ends_the_wait():
    # FUTEX_WAIT ignored its timeout: a timed wait whose word never changed
    # slept forever (the boot timed out).
    names = ["hostile_bad_timeouts"]
    boot_usertests(names, timeout=60)


def test_orphaned_stopped_job_is_hung_up():
    # A job stopped when its session leader exited stayed stopped for ever
    # under init: its frames never came back (usertests: "lost 14 free
    # frames").  Now its orphaned group gets SIGHUP and SIGCONT.
    names = ["hostile_orphaned_stop", "hostile_stopped_reap"]
    r = boot_usertests(names, 'sched_verify=1', timeout=60)
    assert not r.find(r"lost \d+ free frames")


def test_deep_directories_and_exec_of_non_programs():
    # A directory fd kept 63 bytes of its path: a deeper /tmp directory was
    # listed and resolved as another one.  execve of an existing non-program
    # outside the initrd said ENOENT.
    names = ["hostile_deep_dirfd", "hostile_exec_nonprograms"]
    boot_usertests(names, timeout=60)


BAD = [
    ("hz", "4294967296"), ("hz", "-1"), ("hz", ""), ("hz", "0x3e8"), ("hz", "1000junk"),
    ("clockevent", "apic2"), ("clockevent", ""), ("highres", "1"),
    ("trace_buf_size", "4294967296"), ("trace_buf_size", "4G"), ("trace_buf_size", "-1"),
    ("trace_buf_size", "0x1000"), ("trace_buf_size", "4095"),
    ("trace_event", "sched:nosuch"), ("trace_event", "sched:*x"),
    ("sched_preset", "linux-6.12x"), ("sched_preset", ""),
    ("sched_nr_latency", "4294967297"), ("sched_latency_ns", "18446744073709551615"),
    ("sched_min_granularity_ns", "-1"), ("tp_printk", "2"), ("poweroff", "-0"),
    ("sched_verify", "01"), ("sched_debug", "endx"),
]


def test_bad_values_of_every_kind_get_one_line_each():
    line = " ".join(f"{k}={v}" for k, v in BAD) + " run=hello"
    r = boot(line, timeout=60)
    check_clean(r, status=0)
    for k, v in BAD:
        hits = [l for l in r.lines if l.startswith(f"cmdline: {k}={v}: ")]
        assert len(hits) == 1, (k, v, r.output[:4000])
        assert "expected" in hits[0] and "keeping" in hits[0], hits[0]
    assert r.has_line("init: hello (pid 2) exited with status 0"), r.output[-2000:]


def test_a_refused_run_runs_nothing_instead_of_the_shell():
    """run= too long for init's 512-byte buffer: one line, and the boot that
    asked for a run powers off instead of waiting in the login shell."""
    word = "hello;" * 90                     # 540 bytes
    r = boot(f'run="{word}"', timeout=60)
    check_clean(r, status=0)
    hits = [l for l in r.lines if l.startswith("cmdline: run=hello;hello;")]
    assert len(hits) == 1 and ": too long (expected a string of at most 511 characters)" in hits[0], \
        r.output[-3000:]
    assert not any("busybox" in l or "granule#" in l for l in r.lines), r.output[-2000:]
    assert r.has_line("init: run= is empty: nothing to run"), r.output[-2000:]


def test_signals_awaited_and_left_pending_are_not_lost():
    # A SIGCHLD (ignored by default) arriving during sigtimedwait was dropped
    # as ignored: "block SIGCHLD; fork; sigwaitinfo" slept for ever.  A kill()
    # queued on a thread that then exited was lost with it (and a periodic
    # timer's signal with it: the timer never fired again).  A 1 ns timer
    # from the epoch with a handler must cost its process alone.
    names = ["hostile_sigwait_ignored", "hostile_thread_exit_pending", "hostile_timer_edges"]
    r = boot_usertests(names, 'sched_verify=1', timeout=90)
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]
