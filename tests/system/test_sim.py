"""tools/sim (build/sim): the real kernel/sched code on the host.

Properties checked: the same seed gives the same problem; the question has
the answers blanked and -c fills them with the scheduler's own state; two
equal hogs under CFS share the CPU; bad input gets one line and exit 2."""
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "tools", "sim")


def sim(*args):
    return subprocess.run([SIM, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def rows(out):
    """The scheduling-point rows: (time, who, rest)."""
    part = out.split("Scheduling points", 1)[1].split("\n\n", 1)[0]
    return [l.split(None, 2) for l in part.splitlines()[2:]]


def test_help_per_subcommand():
    r = sim("--help")
    assert r.returncode == 0
    listed = [l.split()[0] for l in r.stdout.splitlines() if l.startswith("  ")]
    assert listed == ["tasks", "experiment", "sweep", "replay", "calibrate"], r.stdout
    for sub in listed[1:]:      # each one's own --help works
        h = sim(sub, "--help")
        assert h.returncode == 0 and h.stdout.startswith(("usage:", "Usage:")), (sub, h.stdout[:80])
    r = sim("tasks", "--help")
    assert r.returncode == 0 and "usage: tools/sim tasks" in r.stdout


def test_same_seed_same_problem():
    a, b, c = sim("tasks", "-s", "11", "-c"), sim("tasks", "-s", "11", "-c"), sim("tasks", "-s", "12", "-c")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert a.stdout.split("Scheduler:")[0] != c.stdout.split("Scheduler:")[0]


def test_question_blank_answers_filled():
    q = sim("tasks", "hog,sleeper:run=1ms:sleep=3ms", "--until", "10ms")
    a = sim("tasks", "hog,sleeper:run=1ms:sleep=3ms", "--until", "10ms", "-c")
    assert q.returncode == 0 and a.returncode == 0
    assert all(r[1] == "?" for r in rows(q.stdout))
    who = [r[1] for r in rows(a.stdout)]
    assert len(who) == len(rows(q.stdout)) and set(who) <= {"h0", "s1", "idle"}
    assert "s1" in who and "h0" in who            # the sleeper gets in between


def test_equal_hogs_share_cfs():
    out = sim("tasks", "hog,hog", "--until", "60ms", "-c").stdout
    who = [r[1] for r in rows(out)[1:]]
    assert abs(who.count("h0") - who.count("h1")) <= 3, who


def test_nice_shares_cfs():
    # nice 0 vs 5: weights 1024 / 335 -> 75.3 % / 24.7 % of the CPU
    out = sim("tasks", "hog,hog:nice=5", "--until", "400ms", "-c").stdout
    who = [r[1] for r in rows(out)[1:]]
    share = who.count("h0") / len(who)
    assert 0.72 < share < 0.79, share


def test_eevdf_columns():
    out = sim("tasks", "hog,hog", "--preset", "linux-6.12", "--until", "8ms", "-c").stdout
    assert "Scheduler: EEVDF" in out and "V(us)" in out
    assert any("E" in r[2] for r in rows(out))    # someone eligible at each point


@pytest.mark.parametrize("args,needle", [
    (["tasks", "hog:nice=30"], "nice=30 out of range (expected -20..19)"),
    (["tasks", "bogus"], "unknown task kind 'bogus'"),
    (["tasks", "sleeper:run=x"], "x is not a time"),
    (["tasks", "hog", "--hz", "7"], "--hz 7: not a kernel HZ"),
    (["tasks", "hog", "--preset", "nope"], "sched_preset=nope: invalid (expected one of"),
    (["tasks", "hog", "sched_latency_ns=5"], "sched_latency_ns=5: out of range"),
    (["tasks", "hog", "nope_ns=5"], "unknown parameter 'nope_ns'"),
    (["tasks", "hog", "--frob"], "unknown option '--frob'"),
    (["frob"], "unknown subcommand 'frob'"),
    (["tasks", "hog", "--until", "5s"], "--until: at most 3999 ticks"),
    (["tasks", "-s", "-3"], "-s -3: not a seed"),
    (["tasks"], "no SPEC and no -s SEED"),
    (["experiment", "--preset", "nope"], "sched_preset=nope: invalid (expected one of"),
    (["experiment", "--mode", "fork"], "--mode fork: expected thread or signal"),
    (["experiment", "--load", "kbuild:99"], "--load kbuild: 99: not an integer in 1..64"),
    (["experiment", "--load", "make"], "--load make: expected none"),
    (["experiment", "--duration", "0"], "--duration 0: not an integer in 1..3600"),
    (["experiment", "sched_latency_ns=5"], "sched_latency_ns=5: out of range"),
    (["experiment", "--calib", "/nonexistent"], "cannot read the calibration file"),
])
def test_bad_input_one_line(args, needle):
    r = sim(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


def wakeup_rows(out):
    part = out.split("Wakeups", 1)[1].split("\n\n", 1)[0]
    return [l.split() for l in part.splitlines()[2:]]


def test_wakeup_placement_and_preemption_cfs():
    """-c's wakeup answers move with the feature that changes place_entity."""
    spec = ["tasks", "hog,sleeper:run=1ms:sleep=3ms", "--until", "12ms", "-c"]
    gentle = wakeup_rows(sim(*spec).stdout)
    full = wakeup_rows(sim(*spec, "sched_features=NO_GENTLE_FAIR_SLEEPERS").stdout)
    assert gentle and full
    assert all(float(g[3]) > float(f[3]) for g, f in zip(gentle, full))  # halved credit
    assert all(r[4] in ("yes", "no") for r in gentle)
    q = wakeup_rows(sim(*spec[:-1]).stdout)
    assert [r[:3] for r in q] == [r[:3] for r in gentle] and all(r[3:] == ["?", "?"] for r in q)


def test_explore_doc_commands():
    """Every `$ tools/sim ...` line of docs/EXPLORE.md runs and succeeds."""
    import shlex
    doc = open(os.path.join(ROOT, "docs", "EXPLORE.md")).read()
    cmds = re.findall(r"^\$ (tools/sim .*)$", doc, re.M)
    assert len(cmds) >= 5
    for c in cmds:
        if c.split()[1] == "replay":      # needs a recorded trace: test_sim_replay.py
            continue
        r = sim(*shlex.split(c.split("#")[0])[1:])
        marker = "RESULT {" if c.split()[1] == "experiment" else "Scheduling points"
        assert r.returncode == 0 and marker in r.stdout, (c, r.stderr)


def test_explore_doc_gentle_sleeper_figure():
    """Exercise 2's figure: the 2010 preset places the sleeper at -3000.0 us."""
    doc = open(os.path.join(ROOT, "docs", "EXPLORE.md")).read()
    assert "the wakeup table says -3000.0" in doc
    out = sim("tasks", "hog,hog:nice=5,sleeper:run=1ms:sleep=3ms", "--until", "8ms", "-c").stdout
    assert wakeup_rows(out)[0][3] == "-3000.0"


def test_explore_doc_eevdf_figures():
    """Exercise 5's figures: lag 0.0, deadline 700.0 us past V, no preemption."""
    doc = " ".join(open(os.path.join(ROOT, "docs", "EXPLORE.md")).read().split())
    assert "lag 0.0 and a deadline 700 us past V" in doc
    out = sim("tasks", "hog,sleeper:run=1ms:sleep=2500us", "--preset", "linux-6.12",
              "--until", "10ms", "-c").stdout
    w = wakeup_rows(out)[0]
    assert w[3] == "0.0/" and w[4] == "700.0" and w[5] == "no", w


def test_yield_and_forker_children():
    """A yielder hands the CPU over; a forker's children are named 'child'."""
    out = sim("tasks", "hog,yield:run=500us", "--until", "40ms", "-c").stdout
    who = [r[1] for r in rows(out)]
    assert "y1" in who and "h0" in who
    out = sim("tasks", "forker:every=1ms:child=2ms", "--until", "20ms", "-c").stdout
    assert "child" in [r[1] for r in rows(out)]
    assert "idle" not in [r[1] for r in rows(out)[1:]]    # children or forker always runnable
