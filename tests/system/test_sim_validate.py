"""The simulator against QEMU: tools/sim experiment's figures beside the
image's, configuration by configuration (docs/EXPLORE.md, "How close").

  - the calibration and the reference figures were measured on the image as
    it is: no commit since touched what they measure (else: which paths,
    and the command that re-measures them);
  - for each configuration of the reference (kbuild:10; linux-2.6.35,
    commit-0bf377bbb0be and no-start-debit at HZ=1000 and 250, linux-6.12 at
    HZ=250; thread and signal mode), the simulated average over the load
    seeds is within 10 % of QEMU's, and the maximum within 25 %;
  - docs/EXPLORE.md's table is the one those figures give;
  - the calibration's premise about burn_cpu_ns() (a 4-instruction loop)
    holds for the binary built now.
"""
import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import sim_calibrate as sc  # noqa: E402

# Signal mode's maximum is not held to the bound (docs/EXPLORE.md, "How close"): it is one
# sample in a thousand, a few µs above the rest when an expiry lands inside a system call
# (the kernel is not preemptible); whether one of a run's 1,000 expiries does is a coincidence
# of timing that neither the image nor the simulator repeats from seed to seed.
UNBOUNDED_MAX = {"signal"}


def calib_commit():
    for line in open(sc.CALIB):
        if line.startswith("commit "):
            return line.split()[1]
    return None


def changed_since(commit):
    r = subprocess.run(["git", "-C", ROOT, "log", "--format=%h %s", f"{commit}..HEAD", "--",
                        *sc.MEASURED_PATHS], capture_output=True, text=True)
    assert r.returncode == 0, f"the calibration's commit {commit} is not in this history: {r.stderr}"
    return r.stdout.strip()


@pytest.mark.parametrize("what,commit", [
    ("tools/simeng/calibration", lambda: calib_commit()),
    ("tools/simeng/reference.json", lambda: json.load(open(sc.REFERENCE))["commit"]),
])
def test_measured_on_this_image(what, commit):
    if not os.path.isdir(os.path.join(ROOT, ".git")):
        pytest.skip("not a git checkout")
    c = commit()
    later = changed_since(c)
    assert not later, (f"{what} was measured at {c[:12]}; since then these commits changed "
                       f"{', '.join(sc.MEASURED_PATHS)}:\n{later}\nre-run: tools/sim calibrate --reference")


@pytest.fixture(scope="module")
def rows():
    return sc.validation()


def test_every_configuration_within_bounds(rows):
    assert len(rows) == 2 * len(sc.MATRIX)
    bad = []
    for p, hz, mode, n, qa, sa, qm, sm in rows:
        if abs(sa / qa - 1) > 0.10:
            bad.append(f"{p} HZ={hz} {mode}: avg {sa:.1f} µs simulated, {qa:.1f} µs in QEMU")
        if mode not in UNBOUNDED_MAX and abs(sm / qm - 1) > 0.25:
            bad.append(f"{p} HZ={hz} {mode}: max {sm:.1f} µs simulated, {qm:.1f} µs in QEMU")
    assert not bad, "\n".join(bad)


def test_docs_table(rows):
    text = open(os.path.join(ROOT, "docs", "EXPLORE.md")).read()
    m = re.search(r"<!-- sim-validation begin -->\n(.*?)<!-- sim-validation end -->", text, re.S)
    assert m, "docs/EXPLORE.md lost its sim-validation markers"
    assert m.group(1) == sc.table(), "re-run: tools/sim calibrate --table"


def test_burn_loop_is_four_instructions():
    obj = os.path.join(ROOT, "build", "user", "bench", "bench.o")
    if not os.path.exists(obj):
        subprocess.run(["make", "-s", "-C", ROOT, "all"], check=True)
    dis = subprocess.run(["objdump", "-d", obj], capture_output=True, text=True, check=True).stdout
    body = dis.split("<burn_cpu_ns>:", 1)[1].split("\n\n", 1)[0]
    insns = [l for l in body.splitlines() if re.match(r"\s+[0-9a-f]+:\s", l)]
    addr = lambda l: int(l.split(":")[0], 16)  # noqa: E731
    loops = [(addr(l), int(re.search(r"\s([0-9a-f]+) <", l).group(1), 16)) for l in insns
             if re.search(r"\sj\w+\s+[0-9a-f]+ <burn_cpu_ns", l)]
    back = [(src, dst) for src, dst in loops if dst < src]
    inner = min(back, key=lambda b: b[0] - b[1])
    assert sum(1 for l in insns if inner[1] <= addr(l) <= inner[0]) == 4


def test_bench_sim_table():
    """tools/bench's "Simulated beside QEMU" section, on reference runs shaped as
    the bench's: one row per configuration, the simulator's figure its own."""
    import bench_sim
    ref = json.load(open(sc.REFERENCE))
    runs = []
    for r in ref["runs"]:
        if r["preset"] != "linux-2.6.35" or r["hz"] != 1000 or r["seed"] > 2:
            continue
        runs.append(dict(kernel="granule", preset=r["preset"], mode=r["mode"], load="kbuild:10",
                         hz=r["hz"], seed=r["seed"], cmdline=r["cmdline"],
                         results={"wakeup-latency": dict(avg_us=r["avg_us"], max_us=r["max_us"])}))
    lines = bench_sim.table(runs)
    rows = [l for l in lines if l.startswith("| linux-2.6.35")]
    assert len(rows) == 2
    thread = next(l for l in rows if "| thread |" in l).split(" | ")
    sims = [bench_sim.simulate(r["cmdline"])["avg_us"] for r in ref["runs"]
            if r["preset"] == "linux-2.6.35" and r["hz"] == 1000 and r["mode"] == "thread"
            and r["seed"] <= 2]
    assert float(thread[5]) == round(sum(sims) / 2, 1)
    assert bench_sim.sim_args("run=experiment profile=chain") is None
