"""The rt class on several CPUs (docs/SCHEDULER.md, "Several CPUs: rt push and
pull"; kernel/sched/rt_smp.c, Linux 2.6.35's sched_rt.c SMP half).

At -smp 4, four SCHED_FIFO tasks made on one CPU and woken together while a
better rt task runs there spread over the four CPUs at once (usertests
rt_spread_on_wakeup: each sees all four running, on four CPUs by
/proc/PID/stat field 39); without select_task_rq_rt and the push they ran
one after another on CPU 0.  Every other usertest still passes at -smp 4
under the invariant checker (rt's SMP state: pushable list, rto_mask,
cpupri) and lockdep: test_smp_verify.py.
"""
from conftest import boot, usertests_ok


def test_fifo_tasks_woken_on_one_cpu_run_on_four():
    r = boot('sched_verify=1 run="usertests rt_spread_on_wakeup"', smp=4, timeout=120)
    usertests_ok(r, ["rt_spread_on_wakeup"])
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]
