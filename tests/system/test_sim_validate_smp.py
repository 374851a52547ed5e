"""tools/sim experiment --cpus N against the image at -smp N (docs/EXPLORE.md, "The
experiment at several CPUs").

The experiment's thread mode under kbuild:10 (ten jobs per CPU in flight), the image's
default preset and HZ, load seed 1, three seconds, at 2 and 4 CPUs: the simulator's
average latency within 10 % of QEMU's and its maximum within 25 %, as
test_sim_validate.py holds the one-CPU matrix.  Both sides run live: the QEMU boot at 2
CPUs is test_smp.py's (conftest's boot_cached() keeps it in build/boot-cache/ for the
image), the one at 4 CPUs is this test's.  A CPU count outside the bounds is in
KNOWN_OFF with what was measured; strict, so that it fails once it comes back inside.
"""
import json
import os
import subprocess

import pytest

from conftest import boot_cached, check_clean

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "tools", "sim")
CMDLINE = "run=experiment mode=thread load=kbuild:10 duration=3"
SIM_ARGS = ["--preset", "commit-0bf377bbb0be", "--mode", "thread", "--load", "kbuild:10",
            "--duration", "3"]
AVG, MAX = 0.10, 0.25           # test_sim_validate.py's bounds

# CPU counts outside the bounds at this calibration, with what was measured: {cpus: why}.
# One seed of three seconds (300 samples).  QEMU's round robin (a CPU's interrupt taken at
# its turn, tools/granule/sim/engine/machine_rr.c) brought 2 CPUs inside: avg 0.875 -> 0.942,
# max 0.846 -> 0.927 of QEMU's 8652.0 and 12946.4 us (0.97 and 0.95 at the calibration after).  Not in the model: the busy vCPUs'
# sharing of the virtual clock (each kernel path about N times as long), the interim giant
# kernel lock the CPUs contend for, cache effects, the costs at 4 CPUs (measured at 2).
KNOWN_OFF = {
    4: "avg 0.88 (7919.7 against 9026.9 us; max 1.02)",
}


def latency(text):
    for line in reversed(text.splitlines()):
        if line.startswith('RESULT {"bench":"wakeup-latency"'):
            return json.loads(line[len("RESULT "):])
    raise AssertionError("no wakeup-latency RESULT line:\n" + text[-2000:])


def off_bounds(q, s):
    """The figures outside the bounds, as 'avg 0.87' / 'max 1.31' (simulated / QEMU)."""
    out = []
    for key, bound, name in (("avg_us", AVG, "avg"), ("max_us", MAX, "max")):
        r = s[key] / q[key]
        if abs(r - 1) > bound:
            out.append(f"{name} {r:.2f}")
    return out


@pytest.mark.parametrize("cpus", [2, 4])
def test_experiment_against_qemu(cpus):
    r = boot_cached(CMDLINE, smp=cpus, timeout=400)
    check_clean(r)
    q = latency(r.output)
    p = subprocess.run([SIM, "experiment", "--cpus", str(cpus), *SIM_ARGS], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    s = latency(p.stdout)
    assert s["cpus"] == cpus, s
    off = off_bounds(q, s)
    figures = (f"{cpus} CPUs: QEMU avg {q['avg_us']} max {q['max_us']} us, "
               f"sim avg {s['avg_us']} max {s['max_us']} us")
    if cpus in KNOWN_OFF:
        assert off, f"within the bounds now, take {cpus} off KNOWN_OFF and docs/EXPLORE.md: {figures}"
    else:
        assert not off, f"{', '.join(off)}: {figures}"
