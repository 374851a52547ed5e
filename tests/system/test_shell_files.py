"""The shell's file side (pipes, /tmp, /proc) under Debian's busybox, run
non-interactively through run= with `busybox sh -c '...'`: each command's
output is checked line by line against what the kernel's own files say.

Skipped when the image was built without busybox (make BUSYBOX=0)."""
import json
import re

import pytest

from conftest import boot
from test_busybox import blocks, have_busybox, no_unknown_syscalls

pytestmark = pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")

CMDS = [
    # 0: redirections into /tmp, a pipe into wc, the directory listing
    "busybox sh -c 'echo hello > /tmp/f; echo world >> /tmp/f; cat /tmp/f; wc -l < /tmp/f; "
    "mkdir /tmp/d; mv /tmp/f /tmp/d/g; ls /tmp /tmp/d; rm /tmp/d/g; rmdir /tmp/d; ls /tmp'",
    # 1: pipelines of filters
    "busybox sh -c 'seq 5 | sort -rn | head -2; seq 10 | grep 1; echo abc | sed s/b/X/; "
    "expr 3 + 4; seq 3000 | wc -l'",
    # 2: test, true, false
    "busybox sh -c 'echo x > /tmp/t; test -f /tmp/t && echo file; test -d /tmp/t || echo notdir; "
    "true && echo t; false || echo f; rm /tmp/t; test -e /tmp/t || echo removed'",
]

# init's run= holds 511 bytes: a second boot for the rest.
CMDS2 = [
    # 0: ps in a pipeline
    "busybox sh -c 'ps | grep ps'",
    # 1: uptime and free beside the kernel's own files
    "busybox sh -c 'cat /proc/uptime; uptime; free; cat /proc/meminfo'",
    # 2: top, one batch iteration
    "busybox top -b -n 1",
    # 3: a sysctl write seen by /proc/sched_debug, then sleep
    "busybox sh -c 'sysctl -w kernel.sched_latency_ns=12000000; cat /proc/sys/kernel/sched_latency_ns; "
    "grep nr_latency /proc/sched_debug; sleep 1'",
    # 4: renice (relative, as nice -n; Debian's busybox has no nice applet), read back
    # from /proc/PID/sched
    "busybox sh -c 'renice -n 5 -p $$; grep prio /proc/$$/sched; renice -n -2 -p $$; "
    "grep -e prio /proc/$$/sched'",
    # 5 (last: it ends killed, with no exit line): kill: -0 probes, then the shell kills itself
    "busybox sh -c 'kill -0 1 && echo alive; kill -0 12345 || echo gone; kill -9 $$; echo not reached'",
]


@pytest.fixture(scope="module")
def shell():
    return boot('run="%s"' % "; ".join(CMDS), timeout=300)


@pytest.fixture(scope="module")
def shell2():
    return boot('run="%s"' % "; ".join(CMDS2), timeout=300)


def block(run, i):
    b = blocks(run)
    assert len(b) in (len(CMDS), len(CMDS2) - 1), run.output[-3000:]
    return b[i]


def test_redirections_into_tmp(shell):
    assert block(shell, 0) == (["hello", "world", "2", "/tmp:", "d", "", "/tmp/d:", "g"], 0)
    no_unknown_syscalls(shell)


def test_pipelines(shell):
    assert block(shell, 1) == (["5", "4", "1", "10", "aXc", "7", "3000"], 0)


def test_test_true_false(shell):
    assert block(shell, 2) == (["file", "notdir", "t", "f", "removed"], 0)


def test_kill(shell2):
    lines = shell2.lines
    end = max(i for i, l in enumerate(lines) if re.match(r"^init: busybox \(pid \d+\) ", l))
    assert re.match(r"^init: busybox \(pid \d+\) killed by signal 9$", lines[end]), lines[end]
    out = lines[end - 3:end]
    assert out == ["alive", "sh: can't kill pid 12345: No such process", "gone"], out


def test_renice(shell2):
    # prio = 120 + nice: +5 gives 125, then -2 gives 123
    out, st = block(shell2, 4)
    assert st == 0 and [re.sub(r"\s+", " ", l) for l in out] == ["prio : 125", "prio : 123"], out


def test_ps_in_a_pipeline(shell2):
    out, st = block(shell2, 0)
    assert st == 0
    # the shell, ps (a forked applet: {comm} then the shell's argv) and grep, by pid
    assert any(re.match(r"^\s*\d+ root\s+busybox sh -c ps \| grep ps$", l) for l in out), out
    assert any(re.match(r"^\s*\d+ root\s+\{ps\} busybox sh -c ps \| grep ps$", l) for l in out), out
    assert re.match(r"^\s*\d+ root\s+grep ps$", out[-1]), out


def meminfo(lines):
    return {m.group(1): int(m.group(2)) for l in lines
            for m in [re.match(r"^(\w+):\s+(\d+) kB$", l)] if m}


def test_uptime_and_free_match_the_kernel(shell2):
    out, st = block(shell2, 1)
    up, idle = (float(x) for x in out[0].split())
    assert 0 < up < 1 and 0 <= idle <= up, out[0]
    # uptime prints whole minutes of the same clock: 0 min below 60 s
    assert re.match(r"^ 12:00:0\d up 0 min,  0 users,  load average: 0\.00, 0\.00, 0\.00$", out[1]), out
    mem = re.split(r"\s+", out[3].strip())
    total, used, free = int(mem[1]), int(mem[2]), int(mem[3])
    info = meminfo(out)
    assert total == info["MemTotal"] and used + free == total, (out, info)
    # 4 KiB frames: the figures are whole frames
    assert total % 4 == 0 and info["MemFree"] % 4 == 0 and info["MemFree"] < total


def test_top_lists_the_tasks(shell2):
    out, st = block(shell2, 2)
    assert st == 0
    m = re.match(r"^Mem: (\d+)K used, (\d+)K free, 0K shrd, 0K buff, 0K cached$", out[0])
    total = meminfo(block(shell2, 1)[0])["MemTotal"]
    assert m and int(m.group(1)) + int(m.group(2)) == total, out[0]
    assert re.match(r"^CPU:\s+\d+% usr", out[1]) and out[2].startswith("Load average: 0.00 0.00 0.00 ")
    rows = [re.split(r"\s+", l.strip(), maxsplit=7) for l in out[4:] if l.strip()]
    top = [r for r in rows if r[7] == "busybox top -b -n 1"]
    init = [r for r in rows if r[0] == "1"]
    assert len(top) == 1 and top[0][3] == "R" and len(init) == 1 and init[0][3] == "S", rows
    assert init[0][7].startswith("init busybox sh -c "), init
    for r in rows:
        assert 0 <= int(r[6].rstrip("%")) <= 100 and int(r[4]) >= 0, r


def test_sysctl_write_shows_in_sched_debug(shell2):
    out, st = block(shell2, 3)
    no_unknown_syscalls(shell2)
    # nr_latency = DIV_ROUND_UP(12 ms, 0.75 ms) = 16 (min_granularity stays 0.75 ms)
    assert (out, st) == (["kernel.sched_latency_ns = 12000000", "12000000",
                          "  .sched_nr_latency                        : 16"], 0), out


EXPERIMENT = "experiment mode=thread load=kbuild:2 duration=1"
MEASURED = re.compile(r"_us$")


def results(run):
    return [json.loads(l[len("RESULT "):]) for l in run.lines if l.startswith("RESULT {")]


def test_experiment_after_sysctl_runs_as_booted_with_the_knob():
    """sysctl -w from the shell sets what the boot line sets: the same
    configuration in the RESULT line, the same load.  The latency figures
    (keys ending in _us) are not compared: the runtime write and the boot
    word run different code before the experiment starts, which moves its
    start against the tick."""
    a = boot('run="busybox sysctl -w kernel.sched_min_granularity_ns=1000000; %s"' % EXPERIMENT,
             timeout=300)
    b = boot('sysctl.kernel.sched_min_granularity_ns=1000000 '
             'run="busybox sysctl kernel.sched_min_granularity_ns; %s"' % EXPERIMENT, timeout=300)
    ra, rb = results(a), results(b)
    assert len(ra) == len(rb) == 2, (a.output[-2000:], b.output[-2000:])
    assert ra[0]["sched_min_granularity_ns"] == 1000000 and ra[0]["sched_nr_latency"] == 6
    strip = lambda r: {k: v for k, v in r.items() if not MEASURED.search(k)}
    assert strip(ra[0]) == strip(rb[0]) and ra[1] == rb[1]
