"""The rt class on several CPUs (docs/SCHEDULER.md, "Several CPUs: rt push and
pull"; kernel/sched/rt_smp.c, Linux 2.6.35's sched_rt.c SMP half).

At -smp 4, four SCHED_FIFO tasks made on one CPU and woken together while a
better rt task runs there spread over the four CPUs at once (usertests
rt_spread_on_wakeup: each sees all four running, on four CPUs by
/proc/PID/stat field 39); without select_task_rq_rt and the push they ran
one after another on CPU 0.  Every other usertest still passes at -smp 4
under the invariant checker (rt's SMP state: pushable list, rto_mask,
cpupri) and lockdep.  cyclictest's four FIFO threads under a fair load at
-smp 4 keep the bound the uniprocessor test holds (test_rttests.py: 100 us).
"""
import os
import re

import pytest

from conftest import boot, check_clean, usertests_ok

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RT_TESTS = os.path.join(ROOT, "build", "rt-tests", "rt-tests.tar")


def test_fifo_tasks_woken_on_one_cpu_run_on_four():
    r = boot('sched_verify=1 run="usertests rt_spread_on_wakeup"', smp=4, timeout=120)
    usertests_ok(r, ["rt_spread_on_wakeup"])
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]


def test_usertests_at_four_cpus_under_the_checker_and_lockdep():
    r = boot('run="usertests" sched_verify=1 lockdep=1', smp=4, timeout=300)
    check_clean(r)
    assert "SOME TESTS FAILED" not in r.output, r.output[-3000:]
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]


@pytest.mark.skipif(not os.path.exists(RT_TESTS), reason="no build/rt-tests (make deps fetches it)")
def test_cyclictest_four_threads_under_kbuild_at_four_cpus():
    r = boot("run=\"busybox sh -c 'kbuild-load -j 10 -d 4 -q & sleep 1; "
             "/usr/bin/cyclictest -t 4 -p 80 -q -D 1; wait'\"",
             smp=4, extra=["-initrd", RT_TESTS], timeout=400)
    check_clean(r)
    rows = {int(m.group(1)): {k: int(v) for k, v in re.findall(r"(Min|Act|Avg|Max|C):\s*(\d+)", m.group(0))}
            for m in re.finditer(r"^T: (\d) .*$", r.output, re.M)}
    assert sorted(rows) == [0, 1, 2, 3], r.output[-3000:]
    for t, row in rows.items():
        assert row["C"] > 0 and row["Max"] < 100, (t, row)
