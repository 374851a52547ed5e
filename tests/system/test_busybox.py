"""Debian's busybox-static (i386, glibc 2.36) runs unchanged on Granule's Linux
system-call ABI: applets run non-interactively through run= (init's ';' and
single quotes), and their output is checked line by line.  Each command ends
with init's "init: busybox (pid N) exited with status S" line, which splits the
transcript into one block per command.  No applet here may hit an unknown
system call (the kernel would log "busybox[N]: unknown syscall NR").

Skipped when the image was built without busybox (make BUSYBOX=0)."""
import os
import re
import tarfile

import pytest

from conftest import boot, check_clean

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EXIT_RE = re.compile(r"^init: busybox \(pid \d+\) exited with status (\d+)$")


def have_busybox():
    try:
        with tarfile.open(os.path.join(ROOT, "build", "initrd.tar")) as t:
            return "bin/busybox" in t.getnames()
    except (OSError, tarfile.TarError):
        return False


pytestmark = pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")


def blocks(run):
    """[(output lines, exit status)] per command, after "Boot complete"."""
    lines = run.lines[run.lines.index("Boot complete") + 1:]
    out, cur = [], []
    for l in lines:
        m = EXIT_RE.match(l)
        if m:
            out.append((cur, int(m.group(1))))
            cur = []
        else:
            cur.append(l)
    return out


def no_unknown_syscalls(run):
    assert not run.find(r"busybox\[\d+\]: unknown syscall"), run.output[-3000:]


APPLETS = [
    ("busybox echo hi", ["hi"], 0),
    ("busybox true", [], 0),
    ("busybox false", [], 1),
    ("busybox seq 3", ["1", "2", "3"], 0),
    ("busybox expr 6 + 7", ["13"], 0),
    ("busybox test 1 -lt 2", [], 0),
    ("busybox test 2 -lt 1", [], 1),
    ("busybox uname -sm", ["Granule i686"], 0),
    ("busybox sleep 1", [], 0),
    ("busybox date", [re.compile(r"^Tue Sep 14 12:00:01 UTC 2010$")], 0),
    ("busybox pwd", ["/"], 0),
    ("busybox readlink /bin/ls", ["busybox"], 0),
    ("busybox basename /bin/busybox", ["busybox"], 0),
    ("busybox id", ["uid=0(root) gid=0(root)"], 0),   # names from /etc/passwd, /etc/group
    ("busybox wc -l /bin/notelf", ["3 /bin/notelf"], 0),
    ("busybox cat /proc/version", [re.compile(r"^Granule version \S+ .*#1 CFS 2\.6\.35$")], 0),
    ("busybox uptime", [re.compile(r"^ 12:00:01 up 0 min,  0 users,  load average: 0\.00, 0\.00, 0\.00$")], 0),
]


@pytest.fixture(scope="module")
def applets():
    return boot('run="%s"' % "; ".join(c for c, _, _ in APPLETS), timeout=300)


def test_applets_run_and_print(applets):
    check_clean(applets, status=1)     # false and "test 2 -lt 1" exit 1
    got = blocks(applets)
    assert len(got) == len(APPLETS), applets.output[-3000:]
    for (cmd, want, status), (out, st) in zip(APPLETS, got):
        assert st == status, (cmd, out, st)
        assert len(out) == len(want), (cmd, out)
        for w, o in zip(want, out):
            assert (w.match(o) if hasattr(w, "match") else w == o), (cmd, out)
    no_unknown_syscalls(applets)


def test_sleep_takes_a_second(applets):
    # Virtual time under -icount: the power-off comes after the 1 s sleep.
    m = re.search(r"^\[\s*(\d+\.\d+)\] Powering off", applets.output, re.M)
    assert m and 1.0 <= float(m.group(1)) < 2.0, applets.output[-500:]


KNOB = "/proc/sys/kernel/sched_min_granularity_ns"
FEAT = "/sys/kernel/debug/sched_features"


@pytest.fixture(scope="module")
def sysctl():
    cmds = [
        "busybox sysctl -w kernel.sched_min_granularity_ns=1000000",
        "busybox cat " + KNOB,
        "busybox grep -e sched_min_granularity -e sched_nr_latency /proc/sched_debug",
        "busybox sysctl -w kernel.sched_min_granularity_ns=5",
        "busybox sysctl kernel.sched_min_granularity_ns",
        "busybox sh -c 'echo NO_START_DEBIT > %s'" % FEAT,
        "busybox cat " + FEAT,
        "busybox sh -c 'echo NO_SUCH > %s'" % FEAT,
        "busybox ls /proc/sys/kernel",
    ]
    return boot('run="%s"' % "; ".join(cmds), timeout=300)


def test_sysctl_write_reaches_the_scheduler(sysctl):
    check_clean(sysctl, status=1)      # the two refused writes
    b = blocks(sysctl)
    assert len(b) == 9, sysctl.output[-3000:]
    assert b[0] == (["kernel.sched_min_granularity_ns = 1000000"], 0)
    assert b[1] == (["1000000"], 0)
    # sched_proc_update_handler ran: nr_latency = DIV_ROUND_UP(6 ms, 1 ms) = 6
    assert b[2] == (["  .sysctl_sched_min_granularity            : 1.000000",
                     "  .sched_nr_latency                        : 6"], 0), b[2]


def test_bad_sysctl_write_is_refused_and_kept(sysctl):
    b = blocks(sysctl)
    out, st = b[3]
    assert st == 1 and "sysctl: write error: Invalid argument" in out, b[3]
    assert ("sysctl: sched_min_granularity_ns=5: out of range (expected an integer "
            "100000..1000000000); keeping 1000000") in out, b[3]
    assert b[4] == (["kernel.sched_min_granularity_ns = 1000000"], 0)


def test_sched_features_write_flips_the_bit(sysctl):
    b = blocks(sysctl)
    assert b[5] == ([], 0)
    out, st = b[6]
    assert st == 0 and len(out) == 1 and out[0].startswith("GENTLE_FAIR_SLEEPERS NO_START_DEBIT WAKEUP_PREEMPT")
    out, st = b[7]
    assert st == 1 and any("unknown feature 'SUCH'" in l for l in out), b[7]


def test_proc_sys_kernel_lists_the_knobs(sysctl):
    names = " ".join(blocks(sysctl)[8][0]).split()
    for knob in ("sched_latency_ns", "sched_min_granularity_ns", "sched_wakeup_granularity_ns",
                 "sched_tunable_scaling", "sched_child_runs_first", "sched_compat_yield"):
        assert knob in names, names
    # sched_preset applies a whole preset; sched_features is under /sys/kernel/debug
    assert "sched_preset" in names and "sched_nr_latency" in names and "sched_features" not in names
    no_unknown_syscalls(sysctl)


def test_sched_preset_file_switches_within_the_class_only():
    r = boot("run=\"busybox sh -c 'echo linux-6.12 > /proc/sys/kernel/sched_preset'; "
             "busybox sh -c 'echo no-start-debit > /proc/sys/kernel/sched_preset'; "
             "busybox sysctl kernel.sched_preset kernel.sched_nr_latency; "
             "busybox grep sched_features /proc/sched_debug\"")
    check_clean(r, status=1)
    b = blocks(r)
    assert b[0][1] == 1 and b[0][0] == [
        "sysctl: sched_preset=linux-6.12: the scheduling class (EEVDF) is chosen at boot: reboot with "
        "sched_preset=linux-6.12; keeping commit-0bf377bbb0be", "sh: write error: Invalid argument"], b[0]
    assert b[1] == ([], 0)
    assert b[2] == (["kernel.sched_preset = no-start-debit", "kernel.sched_nr_latency = 8"], 0), b[2]
    assert b[3] == (["  .sysctl_sched_features                   : 15469"], 0), b[3]


def test_sched_features_file_under_eevdf_has_linux_6_12s_names():
    # The file shows the running class's list, the one its writes parse.
    r = boot("sched_preset=linux-6.12 run=\"busybox cat %s; busybox sh -c 'echo NO_PLACE_LAG > %s'; "
             "busybox cat %s\"" % (FEAT, FEAT, FEAT), timeout=120)
    check_clean(r)
    b = blocks(r)
    assert b[0][1] == 0 and b[0][0][0].startswith("PLACE_LAG PLACE_DEADLINE_INITIAL "), b[0]
    assert "START_DEBIT" not in b[0][0][0].split()
    assert b[2] == ([b[0][0][0].replace("PLACE_LAG ", "NO_PLACE_LAG ", 1)], 0), b[2]
