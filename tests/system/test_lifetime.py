"""Hostile programs against the lifetimes of init, processes and timers
(user/tests/ut_life.c), booted as a whole: each of these once took the kernel
down - kill(1, SIGKILL) and an orphan whose exit signal is SIGKILL panicked
with "Attempted to kill init!", a POSIX timer outliving its process used a
freed task, a child forked after its process's leader exited was left with a
freed parent and leaked its kernel stack, and clone() with exit signal 65
read past the signal action table; kill() of an exited thread's tid went
through its freed leader.  The system must stay up, with the
scheduler's invariants checked at every event, init must go on running
commands, and every frame must come back."""
import re

from conftest import boot, check_clean

HOSTILE = ["kill_init", "orphan_exit_signal", "timer_exit_sighand", "timer_exit_thread",
           "fork_after_leader_exit", "kill_leaderless", "kill_exited_thread",
           "exec_after_leader_exit", "clone_exit_signal", "clone_child_settid"]


def test_hostile_lifetimes_do_not_take_the_kernel_down():
    r = boot(f'sched_verify=1 run="usertests {" ".join(HOSTILE)}; usertests --exit 0"', timeout=90)
    check_clean(r, status=0)
    assert not r.find(r"Attempted to kill init"), r.output[-3000:]
    assert not any(l.startswith("sched_verify: ") and "0 violations" not in l for l in r.lines), \
        "a scheduler invariant was violated:\n" + r.output[-3000:]
    ran = [l for l in r.lines if l.startswith("test ")]
    assert ran == [f"test {n}: OK" for n in HOSTILE], r.output[-3000:]
    m = r.find(r"^usertests: free frames (\d+) before and after$")
    assert m and int(m.group(1)) > 30000, r.output[-2000:]
    # init survived SIGKILL and SIGTERM and the orphans: it ran the next command.
    assert r.has_line("init: usertests (pid 2) exited with status 0"), r.output[-2000:]
    done = [l for l in r.lines if re.match(r"^init: usertests \(pid \d+\) exited with status 0$", l)]
    assert len(done) == 2, r.output[-2000:]


def test_kill_init_alone():
    # The smallest reproducer: one process, kill(1, SIGKILL) among others.
    r = boot('run="usertests kill_init"', timeout=60)
    check_clean(r, status=0)
    assert r.has_line("test kill_init: OK"), r.output[-2000:]
    assert r.has_line("init: usertests (pid 2) exited with status 0")
