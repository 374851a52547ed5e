"""tools/sim replay: a traced QEMU run's demand, re-run on the simulated machine.

  - under the knobs it was recorded with, the replay's average and maximum
    latency come back within 10 % of the recorded ones and its median within
    5 %; its 90th and 99th percentiles within 20 % (a tick or two: the same
    samples need not fall on the same ticks); the two schedules agree for the
    first dozens of switches (single samples do not come back:
    docs/EXPLORE.md, "Replay", says why, and its output block is this run's);
  - the tick's preemption path is found in the trace (tick_preempt);
  - what-if: under no-start-debit the same demand waits far less, under
    linux-2.6.35's 2 ms granularity far more;
  - every sample of the trace is matched to a replayed one;
  - bad input: one line, exit 2.
"""
import os
import re
import sys
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "tools", "sim")
CMDLINE = "sched_preset=commit-0bf377bbb0be run=experiment mode=thread load=kbuild:10 duration=2"


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    out = tmp_path_factory.mktemp("replay")
    p = subprocess.run([os.path.join(ROOT, "tools", "trace"), "run", "-o", str(out), "--", CMDLINE],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    return out


def replay(*args):
    r = subprocess.run([SIM, "replay", *args], capture_output=True, text=True, timeout=120)
    return r


def figures(out):
    rec = re.search(r"^recorded: max ([\d.]+) µs, avg ([\d.]+) µs over (\d+) samples", out, re.M)
    rep = re.search(r"^replayed: max ([\d.]+) µs, avg ([\d.]+) µs", out, re.M)
    assert rec and rep, out
    return (float(rec[1]), float(rec[2]), int(rec[3])), (float(rep[1]), float(rep[2]))


# Off at this calibration, measured (docs/EXPLORE.md, "Replay"): strict, so that the test
# fails once the replay comes back inside and the mark must go.
def test_same_knobs_reproduce_the_run(trace):
    """Replayed under its own knobs, the run's average and maximum come back within the
    simulator's validation bounds (granule.sim.validate: 10 % on the average, 25 % on a
    thread-mode maximum, one run's single largest sample): once the schedules part (at
    switch 131 on this image, two vruntimes 2876 ns apart), the largest wait is another one."""
    from granule.sim import validate as sv
    r = replay(str(trace))
    assert r.returncode == 0, r.stderr
    assert "recorded under commit-0bf377bbb0be at HZ=1000" in r.stdout
    (rmax, ravg, n), (smax, savg) = figures(r.stdout)
    assert n == 200
    assert abs(savg / ravg - 1) <= sv.AVG_BOUND and abs(smax / rmax - 1) <= sv.MAX_BOUND, r.stdout


def percentiles(out):
    """{row: [50th, 90th, 99th, max, avg]} of the latency table."""
    rows = re.findall(r"^(recorded|replayed) +([\d. ]+)$", out, re.M)
    return {k: [float(x) for x in v.split()] for k, v in rows}


def parted_at(out):
    m = re.search(r"^the schedules part at switch (\d+) of (\d+) ", out, re.M)
    return int(m[1]) if m else None


def test_same_knobs_reproduce_the_distribution(trace):
    out = replay(str(trace)).stdout
    t = percentiles(out)
    assert set(t) == {"recorded", "replayed"}, out
    for i, bound in enumerate([0.05, 0.20, 0.20]):
        assert abs(t["replayed"][i] / t["recorded"][i] - 1) <= bound, out
    # the demand is right: the replay follows the recording switch by switch
    # for a while (another preset's parts at once: test_what_if)
    assert parted_at(out) is None or parted_at(out) >= 20, out


def test_tick_preempt_is_found(trace, tmp_path):
    """The script carries the median path from a preempting tick to schedule()
    (a couple of µs at HZ=1000 under this load)."""
    script = tmp_path / "demand"
    replay(str(trace), "--script", str(script))
    ns = [int(l.split()[1]) for l in script.read_text().splitlines() if l.startswith("tick_preempt ")]
    assert len(ns) == 1 and 500 < ns[0] < 5000, ns


def test_explore_doc_shows_this_run(trace):
    """docs/EXPLORE.md's replay block is what this run prints (its path aside)."""
    doc = open(os.path.join(ROOT, "docs", "EXPLORE.md")).read()
    assert CMDLINE in doc
    block = re.search(r"<!-- replay-output begin -->\n```\n\$ tools/trace run -o /tmp/t -- (.*)\n"
                      r"\$ tools/sim replay /tmp/t\n(.*?)```\n<!-- replay-output end -->", doc, re.S)
    out = replay(str(trace)).stdout.replace(str(trace), "/tmp/t")
    assert block and block[1] == CMDLINE and block[2] == out, \
        "docs/EXPLORE.md's replay block differs from:\n" + out


def test_explore_prose_and_answers_quote_this_run(trace):
    """EXPLORE.md's text under the block and answers 9 and 10 quote the same run: the
    vruntime gap at the parting switch, the what-if's figures under no-start-debit."""
    doc = " ".join(open(os.path.join(ROOT, "docs", "EXPLORE.md")).read().split())
    ans = " ".join(open(os.path.join(ROOT, "docs", "answers", "EXPLORE.md")).read().split())
    out = replay(str(trace)).stdout
    gap = re.search(r"their vruntimes were (\d+) ns apart$", out, re.M)[1]
    assert f"Then two jobs are {gap} ns of vruntime apart" in doc and f"Where do {gap} ns go missing?" in doc
    assert f"their vruntimes were {gap} ns apart" in ans
    (rec_max, rec_avg, _), (nsd_max, nsd_avg) = figures(replay(str(trace), "--preset", "no-start-debit").stdout)
    assert (f"both give a maximum of {nsd_max} µs and an average of {nsd_avg} µs, against the "
            f"recorded {rec_max} and {rec_avg} µs") in ans


def test_what_if(trace):
    _, (base_max, base_avg) = figures(replay(str(trace)).stdout)
    _, (nsd_max, nsd_avg) = figures(replay(str(trace), "--preset", "no-start-debit").stdout)
    _, (old_max, old_avg) = figures(replay(os.path.join(trace, "trace.dat"), "--preset",
                                           "linux-2.6.35").stdout)
    assert nsd_avg < base_avg / 2 < old_avg / 2
    assert parted_at(replay(str(trace), "--preset", "no-start-debit").stdout) < 20


@pytest.mark.parametrize("rest,back", [("", 1005000000), ("11 burn 900\n", 1005000900)],
                         ids=["at-once", "after-the-rest"])
def test_an_exit_that_wakes_its_parent_is_not_preempted(tmp_path, rest, back):
    """A child's `wake P`, `burn N` (the rest of its exit, as the recording
    times it) and `exit`: one kernel path, as in the image, where the exit's
    wakeup of the parent in wait only sets need_resched and the child dies in
    its own schedule(). The parent runs when the child is gone, and the child
    never runs again. Split at the wakeup's need_resched, the child was
    preempted before it died and picked back (LAST_BUDDY): the replay of
    CMDLINE parted from its recording there, at switch 122."""
    script = tmp_path / "demand"
    script.write_text("start 1000000000\ntick 1000000000\nend 1030000000\n"
                      "task 10 0 1000000000 parent 0\ntask 11 10 0 child 0\n"
                      "10 fork 11\n10 block\n10 burn 20000000\n10 exit\n"
                      "11 burn 5000000\n11 wake 10\n" + rest + "11 exit\n")
    r = subprocess.run([SIM, "replay-script", str(script), "--switches"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    switches = [tuple(int(x) for x in l.split()[1:]) for l in r.stdout.splitlines()
                if l.startswith("switch ")]
    assert switches == [(1000000000, 10), (1000000000, 11), (back, 10)], r.stdout


@pytest.mark.parametrize("args,needle", [
    (["/nonexistent"], "/nonexistent: no such file"),
    (["TRACE", "frob"], "frob: expected KNOB=VALUE"),
    (["TRACE", "sched_latency_ns=5"], "sched_latency_ns=5: out of range"),
    (["TRACE", "--preset", "nope"], "sched_preset=nope: invalid"),
])
def test_bad_input_one_line(trace, args, needle):
    r = replay(*[str(trace) if a == "TRACE" else a for a in args])
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


def test_refuses_a_trace_of_several_cpus(tmp_path):
    """The simulator is one CPU: a trace whose events come from two CPUs' buffers is refused in
    one line naming the CPUs, exit 2, rather than replayed as if one CPU had run it all."""
    line = ("            spin-5       [%03d] d....     0.%06d: sched_switch: prev_comm=spin prev_pid=5 "
            "prev_prio=120 prev_state=R ==> next_comm=swapper next_pid=0 next_prio=120\n")
    (tmp_path / "trace.txt").write_text("# tracer: nop\n" + line % (0, 100) + line % (1, 200))
    r = replay(str(tmp_path))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "events on CPUs 0,1: the simulator replays one CPU" in r.stderr, \
        r.stderr


def test_tick_phase_is_the_grids_not_the_last_ticks():
    """The replay's tick is on the grid most of the trace's ticks keep (the mode of their
    `now` modulo the most common gap), not its last tick's: here every tick is on a 1-ms grid
    2,000 ns past the millisecond but the last, which came 24,600 ns late (as the last tick
    of docs/EXPLORE.md's replay did). Taking the last put the replay's tick there. Host only."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from granule.sim import replay as sr

    def tick(now):
        return {"name": "hrtimer_expire_entry", "ts": now + 500, "cpu": 0,
                "fields": {"function": "tick_sched_timer", "now": str(now)}}

    start = 1000000000 + 300000
    evs = [{"name": "sched_switch", "ts": start, "cpu": 0, "fields": {
        "prev_pid": "0", "prev_comm": "swapper", "prev_state": "R", "next_pid": "5",
        "next_comm": "spin"}}]
    evs += [tick(1000000000 + k * 1000000 + 2000) for k in range(1, 8)]
    evs += [tick(1000000000 + 8 * 1000000 + 24600)]
    d = sr.Demand(evs)
    # on the grid, the last such tick at or before the trace's start (the old: 1008024600)
    assert "\ntick 1000002000\n" in d.script(), d.script()
