"""rt-app's own costs as `tools/sim calibrate` derives them (tools/granule/sim/rtapp_costs.py),
on two stored runs of workloads/mixed.json on the image (no QEMU here): the plain run's
thread-0 log (tests/system/rtapp/calib-plain.log) and the traced run's logs' first rows
with the trace of rt-app's start (calib-traced.log, trace_event=sched:sched_process_fork,
sched:sched_switch,sched:sched_wakeup).  test_rtapp.py checks on the image itself that the
calibration file's figures are what the image measures.
"""
import os

import pytest

from granule import rtapp
from granule.sim import rtapp_costs as rc
from granule.sim import rtapp_sim

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TESTDATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rtapp")
TICK_NS = 743       # the calibration's tick when the runs were stored
# What was measured by hand from the same kind of runs before the calibration did it
# (mixed.json, its trace with sched:*,timer:*), ns.
HAND = {"loop": 225, "create": 75000, "pre": 44000, "wake": 2800, "start": 61000, "log": 8330, "write": 7300}


def stored():
    return [open(os.path.join(TESTDATA, f), encoding="utf-8").read() for f in ("calib-plain.log", "calib-traced.log")]


@pytest.fixture
def cfg():
    return rtapp.load(os.path.join(ROOT, rc.WORKLOAD))


def test_derived_from_the_stored_runs(cfg):
    """The arithmetic on the stored runs, figure by figure:
    loop: 9049 loops in 2038-2039 us with 2 ticks of 743 ns, (2038 * 1000 - 1486) / 9049 = 225.05;
    create: forks 72-79 us apart, 72 the least (the trace's own cost is in them: 75 when every
    sched and timer event was traced); pre: 79, 68, 74, 46, 44 us from a thread's first switch-in
    to its block at the barrier, and the last arrival's 44 to its first wakeup: 44;
    start: 61 us for each of the four threads seen from the return from the barrier to the first pass: 61;
    log: 8.34 us over thread 0's 94 plain gaps; write: gaps 11, 20 and 18 (the first gap, 12, is
    the buffer's first fill) less 8.34: 7.99; wake: thread 0 starts 75 us after t_zero, less
    START, over 5 waiters: 2.8."""
    plain, traced = stored()
    c = rc.derive(plain, traced, cfg, TICK_NS)
    assert c == {"loop": 225, "create": 72000, "pre": 44000, "wake": 2800, "start": 61000, "log": 8340,
                 "write": 7993}, c


def test_the_hand_values_again(cfg):
    """What was measured by hand comes out again, each within 10 % (create 72 us against 75 by
    hand: the hand's trace had four events per fork, this one one; write 7.99 against 7.3)."""
    c = rc.derive(*stored(), cfg, TICK_NS)
    assert c["loop"] == HAND["loop"]
    assert all(abs(c[k] - HAND[k]) <= 0.10 * HAND[k] for k in HAND), (c, HAND)


@pytest.mark.parametrize("cut,line", [
    ("dump", "no '==== granule trace begin ====' line"),
    ("forks", "the trace shows 5 of rt-app's 6 thread forks"),
    ("log", "the runs left not every log of workloads/mixed.json"),
])
def test_what_the_runs_lack_is_one_line(cfg, cut, line):
    """A run that lacks what the step reads (no trace, no forks in it, a log missing): one
    line saying so, no figures."""
    plain, traced = stored()
    if cut == "dump":
        traced = traced[:traced.index("==== granule trace begin")]
    elif cut == "forks":
        lines = [l for l in traced.splitlines() if "child_pid=10" not in l]
        n = sum(1 for l in lines if ": sched_" in l)
        traced = "\n".join(lines[:-1] + [f"==== granule trace end: {n} entries, 0 lost ===="]) + "\n"
    else:
        traced = traced.replace("==> /tmp/mixed-hog-5.log <==", "==> /tmp/other.log <==")
    with pytest.raises((rc.Unmeasurable, ValueError)) as e:
        rc.derive(plain, traced, cfg, TICK_NS)
    assert line in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_rtapp_sim_reads_the_calibration(tmp_path):
    """rtapp_sim takes rt-app's costs from the calibration file's rtapp.* lines; a file without
    one names it in one line."""
    f = tmp_path / "calibration"
    f.write_text("commit 0\ntick 743\n" + "".join(f"rtapp.{k} {i + 1}\n" for i, k in enumerate(rtapp_sim.RTAPP_COSTS)))
    assert rtapp_sim.image_costs(str(f)) == {k: i + 1 for i, k in enumerate(rtapp_sim.RTAPP_COSTS)}
    f.write_text("commit 0\nrtapp.loop 225\n")
    with pytest.raises(rtapp_sim.Refused) as e:
        rtapp_sim.image_costs(str(f))
    assert "no rtapp.create" in str(e.value)


# A made-up exec log for rtapp_resume.samples(): kernel functions by address, the vDSO's rdtsc.
STUB, WAKE, SWITCH, KERNEL, USER, RDTSC = 0xC0001000, 0xC0002000, 0xC0003000, 0xC0004000, 0x08050000, 0x08047309
TABLE = {STUB: "vec_239", WAKE: "hrtimer_wakeup", SWITCH: "__switch_stacks"}


def path(user_before=(USER,), kernel=(WAKE, KERNEL, SWITCH, KERNEL), back=5, end=(RDTSC,)):
    """PCs: user code, the timer's interrupt, KERNEL, then BACK user instructions and END."""
    return [*user_before, STUB, *kernel, *([USER] * back), *end]


@pytest.mark.parametrize("pcs,want", [
    (path(), [5]),                                              # a wakeup back to the clock read
    (path(back=0), [0]),
    (path() + path(back=7) + path(back=9) + path(back=1), [5, 7, 9]),   # SAMPLES of them
    (path(kernel=(KERNEL, SWITCH, KERNEL)), []),                # a tick's preemption: no wakeup
    (path(kernel=(WAKE, KERNEL)), []),                          # woken, no switch: the hog runs on
    (path(user_before=(KERNEL,)), []),                          # the interrupt came from kernel mode
    (path(end=(KERNEL, USER, RDTSC)), []),                      # a system call before the clock read
    (path(back=rc.rtapp_resume.MAX_USER), []),                  # a hog resuming its loop
    (path(kernel=(WAKE, SWITCH), end=(KERNEL,)) + path(back=3), [3]),
])
def test_resume_samples(pcs, want):
    """rtapp.resume's reading of the exec log (tools/granule/sim/rtapp_resume.py): the user-mode
    instructions from the return of an interrupt from user mode that woke a sleeper and
    switched, to the vDSO's rdtsc, with no kernel entry on the way and fewer than MAX_USER."""
    assert rc.rtapp_resume.samples(iter(pcs), TABLE, {RDTSC}) == want
