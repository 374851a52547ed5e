"""usertests on several CPUs under both checkers: the scheduler's invariant
checker (sched_verify=1, docs/SCHEDULER.md "Knobs, observability, checking")
and the lock validator (lockdep=1, docs/ARCHITECTURE.md "Locking").

Every task may run on every CPU (init's mask is every CPU); the tests whose
premise is that their tasks take turns on one CPU pin themselves there
(ut_one_cpu).  The whole suite passes, the free-frame count is exact, each
CPU checks the runqueue whose lock it holds after every schedule, tick,
wakeup and priority change (its own, or a wakee's on another CPU), including
SMP's own invariant (a queued task's CPU is its queue's, online and in its
mask) and the PI chains while it holds the giant lock, and the validator
sees every lock order of the run and reports none.

2.6.35's fair class at two and four CPUs, and EEVDF at four, where each of
these was found:
- two CPUs, CFS: CLONE_CHILD_SETTID's copy-on-write fault in the child's
  first kernel code and a default-action SIGALRM's exit each flushed a TLB
  by IPI with interrupts off ("WARNING: smp_call_function_many with
  interrupts disabled", which check_clean() refuses); a 64 KiB console
  write on one CPU kept the giant lock from the other, whose SIGKILL came
  only after the write (clone_child_settid, itimer_default_kills,
  tty_bigwrite);
- four CPUs, EEVDF: a DELAY_DEQUEUE sleeper moved by the balancer was
  counted twice out of one queue and woken on the other, thousands of
  violations before move_queued_task() moved it as it is; and one woken
  while the idle task or an rt task ran stayed delayed though TASK_RUNNING
  (only the fair class's preemption check requeued it) until
  try_to_wake_up() requeued it itself, as 6.12's ttwu_runnable().
"""
import re

import pytest

from conftest import boot, check_clean
from test_usertests import ALL_TESTS


@pytest.mark.parametrize("cpus,preset", [(2, ""), (4, ""), (4, "sched_preset=linux-6.12")])
def test_usertests_pass_under_both_checkers(cpus, preset):
    r = boot(f'run="usertests; cat /proc/lockdep_stats" sched_verify=1 lockdep=1 {preset}'.rstrip(),
             timeout=300, smp=cpus)
    check_clean(r, status=0)
    assert r.has_line(f"Brought up {cpus} CPUs"), r.output[:6000]
    assert r.has_line("ALL TESTS PASSED"), r.output[-3000:]
    ok = [m.group(1) for l in r.lines for m in [re.match(r"^test (\S+): OK$", l)] if m]
    assert sorted(ok) == sorted(ALL_TESTS), (set(ALL_TESTS) ^ set(ok))
    assert r.find(r"^usertests: free frames \d+ before and after$"), r.output[-2000:]
    problems = [l for l in r.lines if "sched_verify: " in l and not l.endswith(" violations")]
    assert not problems, "\n".join(problems[:20])
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]
    assert not re.search(r"^\[ INFO: ", r.output, re.M), r.output[-3000:]	# lockdep's reports
    stats = dict(re.findall(r"^ ([a-z_ -]+?): +(\d+)", r.output, re.M))
    assert int(stats["acquisitions"]) > 0 and int(stats["direct dependencies"]) > 0, r.output[-1500:]
    assert stats["reports"] == "0" and stats["debug_locks"] == "1", r.output[-1500:]
