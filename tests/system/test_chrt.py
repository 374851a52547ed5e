"""chrt (user/chrt.c) on the rt class: util-linux's output, its refusals,
and the boot-line refusals of the rt throttling knobs."""
from conftest import boot, check_clean


def test_chrt_fifo_shell_prints_util_linux_lines():
    r = boot('''run="chrt -f 50 busybox sh -c 'chrt -p $$'"''')
    check_clean(r)
    i = r.lines.index("pid 2's current scheduling policy: SCHED_FIFO")
    assert r.lines[i + 1] == "pid 2's current scheduling priority: 50"


def test_chrt_max_set_and_refusals():
    r = boot('run="chrt -m; chrt -o 5 busybox true; chrt -R -r -p 10 1; chrt -p 1; chrt -p 999"')
    check_clean(r, status=1)
    assert "SCHED_FIFO min/max priority\t: 1/99" in r.lines
    assert "SCHED_OTHER min/max priority\t: 0/0" in r.lines
    assert "SCHED_DEADLINE not supported?" in r.lines      # no such class in 2.6.35: EINVAL
    assert "chrt: unsupported priority value for the policy: 5 (see --max for valid range)" in r.lines
    assert "pid 1's current scheduling policy: SCHED_RR|SCHED_RESET_ON_FORK" in r.lines
    assert "pid 1's current scheduling priority: 10" in r.lines
    assert "chrt: failed to get pid 999's policy: No such process" in r.lines


def test_rt_knob_refusals():
    # 2.6.35's sched_rt_handler: a runtime of 0 is EBUSY, a period of 0 EINVAL
    r = boot('sched_rt_runtime_us=0 sched_rt_period_us=0 sched_rr_timeslice_ms=5 run="true"')
    check_clean(r)
    out = r.output
    assert ("sched_rt_runtime_us=0 refused (EBUSY): rt throttling cannot take all the time "
            "of rt tasks; -1 is no limit") in out
    assert "sched_rt_period_us=0" in out and "1..2147483647" in out
    assert "sched_rr_timeslice_ms does not exist in Linux 2.6.35" in out


def test_sched_debug_shows_the_rt_runqueue():
    r = boot('''run="chrt -f 50 busybox sh -c 'busybox cat /proc/sched_debug'"''')
    check_clean(r)
    i = r.lines.index("rt_rq[0]:")
    assert r.lines[i + 1].split() == [".rt_nr_running", ":", "1"]
    assert r.lines[i + 2].split() == [".rt_throttled", ":", "0"]
    assert r.lines[i + 3].startswith("  .rt_time")
    assert r.lines[i + 4].split() == [".rt_runtime", ":", "950.000000"]
    # the running FIFO 50 task is listed with Linux's prio 99 - 50 = 49
    task = [l for l in r.lines if l.startswith("R") and " busybox " in l]
    assert len(task) == 1 and task[0].split()[5] == "49", task


def test_sched_debug_lists_rt_tasks_under_eevdf():
    # Linux 6.12 lists every task of the CPU, the rt ones too (prio column 49)
    r = boot('''sched_preset=linux-6.12 run="chrt -f 50 busybox sh -c 'busybox cat /proc/sched_debug'"''')
    check_clean(r)
    assert "rt_rq[0]:" in r.lines
    task = [l for l in r.lines if l.startswith(">R") and " busybox " in l]
    assert len(task) == 1 and task[0].split()[9] == "49", r.output[-3000:]


def _latency(run):
    import json
    res = [json.loads(l[7:]) for l in run.lines if l.startswith('RESULT {"bench":"wakeup-latency"')]
    assert len(res) == 1, run.output[-2000:]
    return res[0]


def test_fifo_measurement_under_kbuild_gets_the_cpu_at_once():
    # -R: the kbuild load experiment forks goes back to SCHED_OTHER; the
    # measuring task stays FIFO 80 and preempts it on every timer wakeup.
    r = boot('run="chrt -R -f 80 experiment mode=signal load=kbuild:10 duration=2"', timeout=200)
    check_clean(r)
    res = _latency(r)
    assert res["samples"] == res["expected"] and res["missed"] == 0, res
    assert res["max_us"] < 100, res


def test_fifo_load_without_reset_on_fork_starves_the_measurement():
    # Without -R the load inherits FIFO 80 (fork keeps the policy) and the
    # FIFO hogs at the same prio delay the measurement by whole milliseconds.
    r = boot('run="chrt -f 80 experiment mode=signal load=kbuild:10 duration=2"', timeout=200)
    check_clean(r)
    res = _latency(r)
    assert res["max_us"] > 1000 and res["missed"] > 0, res
