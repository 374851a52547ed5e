"""The simulator against QEMU: tools/sim experiment's figures beside the
image's, configuration by configuration (docs/EXPLORE.md, "How close").

  - the calibration, the reference figures and the off-grid figures were
    measured on the image as it is: no commit since touched what they
    measure (else: which paths, and the command that re-measures them);
  - for each configuration of the reference (kbuild:10; linux-2.6.35,
    commit-0bf377bbb0be and no-start-debit at HZ=1000 and 250, linux-6.12 at
    HZ=250; thread and signal mode) and of the off-grid points (other HZ,
    loads, periods and knobs, both classes: tools/granule/sim/validate.py's
    OFFGRID), the simulated average over the load seeds is within 10 % of
    QEMU's, and in thread mode the maximum within 25 %;
  - docs/EXPLORE.md's two tables are the ones those figures give, and
    tools/granule/sim/engine/validated is the union of those configurations' settings;
  - a run inside it prints no warning, one outside it one line naming the
    setting, its value and the validated range;
  - the calibration's premise about burn_cpu_ns() (a 4-instruction loop)
    holds for the binary built now.
"""
import json
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from granule.bench import sim as bench_sim
from granule.sim import calibrate as sc
from granule.sim import validate as sv

SIM = os.path.join(ROOT, "tools", "sim")


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
    ("tools/granule/sim/engine/calibration", lambda: calib_commit()),
    ("tools/granule/sim/engine/reference.json", lambda: json.load(open(sv.REFERENCE))["commit"]),
    ("tools/granule/sim/engine/offgrid.json", lambda: json.load(open(sv.OFFGRID_FILE))["commit"]),
])
def test_measured_on_this_image(what, commit):
    if not os.path.exists(os.path.join(ROOT, ".git")):
        pytest.skip("not a git checkout")
    c = commit()
    later = changed_since(c)
    assert not later, (f"{what} was measured at {c[:12]}; since then these commits changed "
                       f"{', '.join(sc.MEASURED_PATHS)}:\n{later}\nre-run: tools/sim calibrate --reference")


@pytest.fixture(scope="module")
def rows():
    return sv.validation(sv.REFERENCE)


@pytest.fixture(scope="module")
def offgrid_rows():
    return sv.validation(sv.OFFGRID_FILE)


# Matrix points outside the bounds at the current calibration, with what was measured about
# each (docs/EXPLORE.md, "How close"); strict, as KNOWN_OFF below.
KNOWN_OFF_MATRIX = {}		# none at this calibration (linux-6.12 hz=250 thread's maximum was 0.74)


def test_every_configuration_within_bounds(rows):
    assert len(rows) == 2 * len(sv.MATRIX)
    bad = sv.out_of_bounds(rows)
    unknown = [b for b in bad if not b.startswith(tuple(k + ":" for k in KNOWN_OFF_MATRIX))]
    assert not unknown, "\n".join(unknown)
    back = [k for k in KNOWN_OFF_MATRIX if not any(b.startswith(k + ":") for b in bad)]
    assert not back, f"within the bounds now, take off KNOWN_OFF_MATRIX and docs/EXPLORE.md: {back}"


# Off-grid points outside the bounds at the current calibration, each with what was
# measured about it (docs/EXPLORE.md, "How close", says the same).  Strict: a point that
# comes back within the bounds fails this test until it is taken off the list.
KNOWN_OFF = {
    # maximum alone, 1.28 of QEMU's (3541.0 against 2761.5 us; average 0.99): out at 1.27,
    # in at 0.83, out at 1.34 with PELT's costs in the class, and 1.28 at this calibration
    "sched_preset=linux-6.12 hz=250 period_ms=20 mode=thread load=kbuild:10":
        "max 1.28 (average 0.99)",
    # maximum alone, 0.73 of QEMU's (3129.9 against 4273.3 us; average 1.01): HZ 100's 10-ms
    # tick, first out at the calibration of the giant lock per task and 6.12's balancer
    "sched_preset=linux-6.12 hz=100 mode=thread load=kbuild:10":
        "max 0.73 (average 1.01)",
}


def test_offgrid_within_bounds(offgrid_rows):
    """The same bounds off the matrix's grid.  Before the start phase was anchored on the
    last tick before the fork, no-start-debit at HZ=300 came out at 0.84 of QEMU's average."""
    assert len(offgrid_rows) == len(sv.OFFGRID)
    assert {sv.config_of(c) for c in sv.offgrid_cmdlines()} == {r[0] for r in offgrid_rows}
    bad = sv.out_of_bounds(offgrid_rows)
    unknown = [b for b in bad if not b.startswith(tuple(k + ":" for k in KNOWN_OFF))]
    assert not unknown, "\n".join(unknown)
    back = [k for k in KNOWN_OFF if not any(b.startswith(k + ":") for b in bad)]
    assert not back, f"within the bounds now, take off KNOWN_OFF and docs/EXPLORE.md: {back}"


def test_offgrid_spans_the_sweeps():
    """The points leave the matrix in every direction docs/EXPLORE.md sweeps."""
    ws = [sv.words(w) for w, _ in sv.OFFGRID]
    assert {w["hz"] for w in ws} == {"100", "250", "300", "1000"}
    assert {"linux-2.6.35", "linux-6.12"} <= {w["sched_preset"] for w in ws}
    for key in ("load", "period_ms", "sched_min_granularity_ns", "sched_latency_ns",
                "sched_base_slice_ns"):
        assert any(key in w for w in ws), key


def test_docs_tables(rows, offgrid_rows):
    text = open(os.path.join(ROOT, "docs", "EXPLORE.md")).read()
    for name, want in (("sim-validation", sv.table(rows)), ("sim-offgrid", sv.offgrid_table(offgrid_rows))):
        m = re.search(rf"<!-- {name} begin -->\n(.*?)<!-- {name} end -->", text, re.S)
        assert m, f"docs/EXPLORE.md lost its {name} markers"
        assert m.group(1) == want, "re-run: tools/sim calibrate --table"


def test_validated_file():
    assert open(sv.VALIDATED).read() == sv.envelope(), "re-run: tools/sim calibrate --table"


def run_sim(*args):
    r = subprocess.run([SIM, "experiment", "--duration", "1", *args], cwd="/", capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stderr


def test_no_warning_inside():
    for cmdline in sv.offgrid_cmdlines(seeds=1, duration=1)[:4]:
        assert run_sim(*bench_sim.sim_args(cmdline)) == ""


@pytest.mark.parametrize("args,named", [
    (["sched_latency_ns=30ms"], "sched_latency_ns=30000000 (validated: "),
    (["--load", "kbuild:40"], "load=kbuild:40 (validated: "),
    (["--pad", "20"], "notify_pad_us=20 (validated: 0)"),
    (["--preset", "dyn-gran"], "sched_preset=dyn-gran (validated: "),
    (["sched_features=NO_GENTLE_FAIR_SLEEPERS"], "sched_features NO_GENTLE_FAIR_SLEEPERS (validated"),
])
def test_one_warning_outside(args, named):
    err = run_sim(*args)
    assert err.count("\n") == 1 and err.startswith("sim: warning: outside what was validated")
    assert named in err, err
    rng = err.split(named, 1)[1].split(")")[0]
    assert rng, err


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
    ref = json.load(open(sv.REFERENCE))
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


def test_docs_warning_example():
    """docs/EXPLORE.md's example of the warning is what the tool prints."""
    text = open(os.path.join(ROOT, "docs", "EXPLORE.md")).read()
    m = re.search(r"```\n\$ tools/sim experiment (\S+)\n(sim: warning: .*)\n```", text)
    assert m, "docs/EXPLORE.md lost its warning example"
    assert run_sim(m.group(1)) == m.group(2) + "\n"
