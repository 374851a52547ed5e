"""The invariant checker on every CPU (docs/SCHEDULER.md, "Knobs, observability,
checking"): with sched_verify=1 each CPU checks the runqueue whose lock it
holds after every schedule, tick, wakeup and priority change - its own, or a
wakee's on another CPU - including SMP's own invariant (a queued task's CPU is
its queue's, online and in its mask), and the PI chains while it holds the
giant lock.  usertests, every task allowed every CPU, must leave it nothing
to report at two and four CPUs, under CFS and under EEVDF.

Which usertests pass at several CPUs is test_usertests.py's business; here
only the checker's count is: the run must reach the end-of-run report.
"""
import pytest

from conftest import boot


@pytest.mark.parametrize("cpus,preset", [
    (2, ""),
    (4, ""),
    # a DELAY_DEQUEUE sleeper moved by the balancer was counted twice out of
    # one queue and woken on the other: thousands of violations before
    # move_queued_task() moved it as it is
    (4, "sched_preset=linux-6.12"),
])
def test_usertests_leave_every_cpus_queue_sound(cpus, preset):
    r = boot(f'run="usertests" sched_verify=1 {preset}', timeout=300, smp=cpus)
    assert not r.timed_out, r.output[-2000:]
    assert r.has_line(f"Brought up {cpus} CPUs"), r.output[:6000]
    assert r.find(r"^init: usertests \(pid \d+\) exited with status \d+$"), r.output[-2000:]
    problems = [l for l in r.lines if "sched_verify: " in l and not l.endswith(" violations")]
    assert not problems, "\n".join(problems[:20])
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]
