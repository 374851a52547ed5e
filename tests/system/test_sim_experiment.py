"""tools/sim experiment: the 2010 experiment on the host (tools/granule/sim/engine).

What is checked here is the engine's own behaviour; how close its figures
come to QEMU's is tests/system/test_sim_validate.py's job.
  - it draws the image's jobs: kbuild-load's job count, as-children and
    work_frac follow from user/bench/kjob.c, the file the image uses too;
  - no load: the minima and per-expiry CPU the calibration was fitted to;
  - the same arguments give the same bytes; another seed other jobs;
  - the scheduler decides: NO_START_DEBIT lowers thread mode's average,
    a 2010 knob moves it, EEVDF runs;
  - the RESULT line is one JSON object with the image's keys;
  - a *_ns knob takes a time (750us, 0.75ms) as tools/sim sweep does, and a
    refused value stops the run with one line naming the knob, the value
    and the accepted range.
"""
import json
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "tools", "sim")
CALIB = os.path.join(ROOT, "tools", "granule", "sim", "engine", "calibration")


def experiment(*args):
    r = subprocess.run([SIM, "experiment", *args], cwd="/", capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    res = [json.loads(l[len("RESULT "):]) for l in r.stdout.splitlines() if l.startswith("RESULT ")]
    assert len(res) == 1, r.stdout
    return r.stdout, res[0]


def calib():
    c = {}
    for line in open(CALIB):
        if line.strip() and not line.startswith("#"):
            k, v = line.split()
            c[k] = v if k == "commit" else int(v)
    return c


def test_result_line_and_seed_lines():
    out, r = experiment("--duration", "2")
    for key in ("max_us", "avg_us", "min_us", "p50_us", "p99_us", "samples", "missed",
                "helper_cpu_us", "notify_cpu_us", "work_frac"):
        assert key in r
    assert r["kernel"] == "Granule sim" and r["preset"] == "linux-2.6.35"
    assert re.search(r"^maximum latency: [\d.]+ µs$", out, re.M)
    assert re.search(r"^average latency: [\d.]+ µs$", out, re.M)
    assert re.search(r"^missed timer events: \d+$", out, re.M)
    assert r["samples"] + r["missed"] == r["expected"] == 200


def test_deterministic_and_seeded():
    a, b = experiment("--duration", "3"), experiment("--duration", "3")
    # everything but the host's own wall time (printed as "host_s":0.010, read back as 0.01)
    wall = re.compile(r'"host_s":[\d.]+')
    assert wall.sub("", a[0]) == wall.sub("", b[0])
    c = experiment("--duration", "3", "--seed", "2")[1]
    assert c["jobs"] != a[1]["jobs"] or c["avg_us"] != a[1]["avg_us"]


def test_no_load_reproduces_the_calibrated_path():
    c = calib()
    _, t = experiment("--load", "none", "--duration", "2")
    _, s = experiment("--load", "none", "--duration", "2", "--mode", "signal")
    # the path on an idle CPU: expiry -> helper -> its CPU -> new thread's clock read
    path = c["timer_signal"] + c["switch_in"] + c["helper"] + c["clone_parent"] + \
        c["switch_in"] + c["clone_child"] + c["notify_pre"]
    assert abs(t["min_us"] * 1000 - path) <= 60 and t["max_us"] == t["min_us"]
    assert abs(s["min_us"] * 1000 - (c["timer_signal"] + c["switch_in"] + c["sig_pre"])) <= 60
    assert abs(t["helper_cpu_us"] * 1000 - (c["switch_in"] + c["helper"] + c["clone_parent"])) <= 60


def test_pad_adds_to_the_helper():
    _, a = experiment("--load", "none", "--duration", "2")
    _, b = experiment("--load", "none", "--duration", "2", "--pad", "20")
    assert abs(b["helper_cpu_us"] - a["helper_cpu_us"] - 20) <= 0.2
    assert abs(b["min_us"] - a["min_us"] - 20) <= 0.2


def test_scheduler_decides():
    _, base = experiment("--duration", "4")
    _, nsd = experiment("--duration", "4", "--preset", "no-start-debit")
    _, eevdf = experiment("--duration", "4", "--preset", "linux-6.12", "--hz", "250")
    assert nsd["avg_us"] < base["avg_us"] / 2          # START_DEBIT is what thread mode pays for
    assert eevdf["preset"] == "linux-6.12" and eevdf["avg_us"] < base["avg_us"]
    _, gran = experiment("--duration", "4", "sched_min_granularity_ns=750000")
    assert gran["avg_us"] != base["avg_us"]


def test_jobs_are_the_images():
    """kbuild-load's window and job parameters are the image's: the simulated
    work_frac of every reference configuration's thread-mode seed-1 run is
    within 2 % of what kbuild-load reported in QEMU (tools/granule/sim/engine/reference.json)."""
    ref = json.load(open(os.path.join(ROOT, "tools", "granule", "sim", "engine", "reference.json")))
    runs = [r for r in ref["runs"] if r["mode"] == "thread" and r["seed"] == 1]
    assert runs
    for run in runs:
        _, r = experiment("--preset", run["preset"], "--hz", str(run["hz"]),
                          "--duration", str(ref["duration_s"]))
        assert abs(r["work_frac"] / run["work_frac"] - 1) <= 0.02, (run["cmdline"], r["work_frac"])


def settings(*args):
    r = subprocess.run([SIM, "experiment", "--settings", *args], cwd="/", capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return dict(l.split(" ", 1) for l in r.stdout.splitlines())


def test_times_as_the_sweep():
    """The sweep's units in the experiment's knobs: the same ns, the same run."""
    for text in ("750us", "0.75ms", "750000", "750000ns", ".00075s"):
        assert settings(f"sched_min_granularity_ns={text}")["sched_min_granularity_ns"] == "750000"
    a = experiment("--duration", "2", "sched_min_granularity_ns=0.75ms")[1]
    b = experiment("--duration", "2", "sched_min_granularity_ns=750000")[1]
    assert a["avg_us"] == b["avg_us"] and a["max_us"] == b["max_us"]
    assert settings("--preset", "linux-6.12", "sched_base_slice_ns=3ms")["sched_base_slice_ns"] == "3000000"


@pytest.mark.parametrize("knob,shown", [
    ("sched_min_granularity_ns=50us", "sched_min_granularity_ns=50us (50000 ns): out of range "
     "(expected an integer 100000..1000000000); nothing was run"),
    ("sched_min_granularity_ns=50", "sched_min_granularity_ns=50: out of range "
     "(expected an integer 100000..1000000000); nothing was run"),
    ("sched_min_granularity_ns=4x", "sched_min_granularity_ns=4x: invalid "
     "(expected an integer 100000..1000000000); nothing was run"),
    ("sched_latency_ns=99999999999999999999ms", "sched_latency_ns=99999999999999999999ms: not a time"),
    ("nope_ns=1ms", "unknown parameter 'nope_ns'; nothing was run"),
])
def test_refused_value_stops_the_run(knob, shown):
    r = subprocess.run([SIM, "experiment", "--duration", "1", knob], cwd="/", capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"sim: {shown}"), r.stderr
    assert r.stderr.count("\n") == 1 and "keeping" not in r.stderr
