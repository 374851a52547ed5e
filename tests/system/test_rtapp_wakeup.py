"""A timer's wakeup that preempts a fair hog, through the fair class and through the rt one: the
image's wu_lat against the simulation's (docs/RTAPP.md, "experiment-2010.json stays a strict
expected failure").  tests/system/rtapp/wake-fair.json is one fair thread woken every 10 ms beside
one fair hog, wake-rt.json the same thread SCHED_FIFO; they run from test_rtapp.py's module (rt-app
with tests/system/rtapp/ under t/).
"""
import os

import pytest

from granule import rtapp
import test_rtapp
from test_rtapp import LOGS, MODULE, TESTDATA, boot_rtapp, exits, sim_logs

test_module = test_rtapp.test_module        # the fixture: rt-app's module with t/

pytestmark = pytest.mark.skipif(not os.path.exists(MODULE),
                                reason="no build/rt-app (make deps fetches it: tools/fetch-rtapp)")


@pytest.fixture(scope="module")
def wake_runs(test_module):
    """One boot of t/wake-fair.json then t/wake-rt.json: {log path: rows}."""
    r = boot_rtapp(f"{LOGS} t/wake-fair.json; {LOGS} t/wake-rt.json", module=test_module)
    assert [e for e in exits(r) if e[0] == "sh"] == [("sh", 0), ("sh", 0)], r.output[-2000:]
    return rtapp.split_logs(r.output)


WAKE_FILES = {"wake-fair.json": "/tmp/wf-periodic-0.log", "wake-rt.json": "/tmp/wr-periodic-0.log"}


def test_wakeup_path_by_class(wake_runs):
    """A timer's wakeup that preempts a fair hog costs the fair class more than the rt one:
    after the first period (first touches), every wakeup of the fair thread logs wu_lat 2 us
    and every one of the SCHED_FIFO thread 1 us.  The kernel's part, counted in QEMU's exec
    log from the timer's interrupt to the woken thread's return to user mode, is 1407
    instructions for the fair thread and 958 for the rt one (docs/RTAPP.md)."""
    fair, rt = (wake_runs[WAKE_FILES[f]] for f in ("wake-fair.json", "wake-rt.json"))
    assert len(fair) >= 90 and {r["wu_lat"] for r in fair[1:]} == {2}, sorted({r["wu_lat"] for r in fair})
    assert len(rt) >= 90 and {r["wu_lat"] for r in rt[1:]} == {1}, sorted({r["wu_lat"] for r in rt})


@pytest.mark.parametrize("f", sorted(WAKE_FILES))
def test_sim_wakeup_path_by_class(wake_runs, f, request):
    """The simulation of the same two files logs the image's steady wu_lat.  It charges one
    calibrated path for every class (hrtimer_wake + preempt + switch_in, 1528 ns at this
    calibration: about the fair class's kernel path) and nothing for the woken thread's return
    to user mode and its clock read: the fair thread's 2 us comes out right, the rt thread's 1
    does not (a strict xfail, docs/RTAPP.md; at the previous calibration, 1428 ns, it was the
    other way round)."""
    if f == "wake-rt.json":
        request.node.add_marker(pytest.mark.xfail(strict=True, reason="sim 2 us against the image's 1: "
                                                  "one path for every class, the rt one's ~450 ns shorter"))
    p = sim_logs(os.path.join(TESTDATA, f))
    assert p.returncode == 0, p.stderr
    sim = rtapp.split_logs(p.stdout)[WAKE_FILES[f]]
    assert {r["wu_lat"] for r in sim[1:]} == {r["wu_lat"] for r in wake_runs[WAKE_FILES[f]][1:]}
