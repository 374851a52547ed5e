"""tools/sim experiment --cpus N: the 2010 experiment's machine (engine/machine.c)
on N simulated CPUs (docs/EXPLORE.md "Several CPUs").

Properties checked: at one CPU every byte is what it was without --cpus (the
host time aside), and no CPU figure is added; a bad N gets one line and exit 2;
at two CPUs kbuild:10 keeps ten jobs per CPU in flight, so the jobs nearly
double and both CPUs are busy, the run warns in one line that N > 1 was never
validated against QEMU, and the output gains what the image's experiment
prints at -smp N, in its format: kbuild-load's migrations line, the cpu-busy
RESULT, the summary's CPU line, and cpus / migrations in the RESULT line,
which stays the last (tools/sim sweep reads the last); the same arguments
give the same bytes; kbuild:64 at eight CPUs runs its 256 jobs (-j capped as
the image caps it)."""
import json
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "tools", "sim")


def sim(*args):
    return subprocess.run([SIM, "experiment", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def results(out):
    return [json.loads(l[len("RESULT "):]) for l in out.splitlines() if l.startswith("RESULT ")]


def no_host_time(out):
    return re.sub(r'"host_s":[0-9.]+', "", out)


@pytest.mark.parametrize("args", [
    ["--duration", "2"],
    ["--duration", "2", "--mode", "signal", "--load", "kbuild:10,video"],
    ["--duration", "2", "--preset", "linux-6.12", "--hz", "250"],
])
def test_one_cpu_is_the_machine_of_before(args):
    a, b = sim(*args), sim(*args, "--cpus", "1")
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    assert no_host_time(a.stdout) == no_host_time(b.stdout) and a.stderr == b.stderr
    assert "cpu-busy" not in a.stdout and '"cpus"' not in a.stdout
    assert "cpus=" not in a.stderr


@pytest.mark.parametrize("value,needle", [
    ("0", "--cpus 0: out of range (expected 1..8)"),
    ("9", "--cpus 9: out of range (expected 1..8)"),
    ("two", "--cpus two: out of range (expected 1..8)"),
])
def test_bad_cpus_one_line(value, needle):
    r = sim("--duration", "1", "--cpus", value)
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert len(r.stderr.splitlines()) == 1 and needle in r.stderr, r.stderr


def test_two_cpus_as_the_image_prints_them():
    one, two = sim("--duration", "2"), sim("--duration", "2", "--cpus", "2")
    assert two.returncode == 0, two.stderr
    warn = two.stderr.splitlines()
    assert len(warn) == 1 and "cpus=2 (never validated)" in warn[0], two.stderr
    r1, r2 = results(one.stdout)[-1], results(two.stdout)[-1]
    assert r2["bench"] == "wakeup-latency" and r2["cpus"] == 2 and "cpus" not in r1
    assert 1.7 < r2["jobs"] / r1["jobs"] < 2.3, (r1["jobs"], r2["jobs"])
    assert r2["samples"] >= 0.98 * r2["expected"]
    assert r2["migrations"] >= 0
    assert r2["migrations_per_s"] == round(r2["migrations"] / (2 + 2), 1)
    busy = [r for r in results(two.stdout) if r["bench"] == "cpu-busy"]
    assert len(busy) == 1 and busy[0]["cpus"] == 2 and len(busy[0]["busy_pct"]) == 2
    assert all(95.0 <= b <= 100.0 for b in busy[0]["busy_pct"]), busy
    assert re.search(r"^kbuild-load: %d migrations in the window \([\d.]+ per s\) on 2 CPUs$"
                     % r2["migrations"], two.stdout, re.M), two.stdout
    line = re.search(r"^2 CPUs, 10 jobs each \(.*\); busy over the test: cpu0 ([\d.]+) % "
                     r"cpu1 ([\d.]+) %$", two.stdout, re.M)
    assert line and [float(x) for x in line.groups()] == busy[0]["busy_pct"], two.stdout
    again = sim("--duration", "2", "--cpus", "2")
    assert no_host_time(again.stdout) == no_host_time(two.stdout)


def test_eight_cpus_cap_the_jobs_at_256():
    r = sim("--duration", "1", "--cpus", "8", "--load", "kbuild:64")
    assert r.returncode == 0, r.stderr
    last = results(r.stdout)[-1]
    assert last["cpus"] == 8 and last["jobs"] > 0
    assert "8 CPUs, 64 jobs each" in r.stdout


CALIB = os.path.join(ROOT, "tools", "granule", "sim", "engine", "calibration")


def calib_with(tmp_path, **smp):
    """The calibration with its smp.* lines set from SMP (name: ns), or dropped (name: None)."""
    lines = []
    for l in open(CALIB):
        name = l.split()[0][len("smp."):] if l.startswith("smp.") else None
        if name in smp:
            if smp[name] is not None:
                lines.append(f"smp.{name} {smp[name]}\n")
        else:
            lines.append(l)
    f = tmp_path / "calibration"
    f.write_text("".join(lines))
    return str(f)


SMP_COSTS = ["ipi_send", "ipi_recv", "balance", "idle_balance", "migrate", "active_balance",
             "smp_tick", "smp_switch", "smp_wake", "proc_sched_read"]


def test_smp_costs_are_charged_at_several_cpus_only(tmp_path):
    """The smp.* costs (measured at -smp 2, tools/granule/sim/smp_costs.py) move a run at
    two CPUs and not a byte at one; each is required, as every cost is (one line, exit 2).
    Before they existed the calibration had no smp.* line and a run took them as zero."""
    zero = calib_with(tmp_path, **{k: 0 for k in SMP_COSTS})
    args = ["--duration", "2", "--cpus"]
    for n, same in (("1", True), ("2", False)):
        a, b = sim(*args, n), sim(*args, n, "--calib", zero)
        assert a.returncode == b.returncode == 0, a.stderr + b.stderr
        assert (no_host_time(a.stdout) == no_host_time(b.stdout)) == same, n
    for k in SMP_COSTS:
        assert any(l.startswith(f"smp.{k} ") for l in open(CALIB)), k
    r = sim("--duration", "1", "--calib", calib_with(tmp_path, ipi_recv=None))
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and "no value for 'ipi_recv'" in r.stderr, r.stderr
