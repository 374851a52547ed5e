"""tools/granule/sim/validate.py - what tools/sim experiment is held to: QEMU's figures
for the same configurations, measured once on the image and stored.

  the matrix (tools/granule/sim/engine/reference.json): kbuild:10, a 10-ms period,
      default knobs; linux-2.6.35, commit-0bf377bbb0be and no-start-debit
      at HZ=1000 and 250, linux-6.12 at HZ=250; thread and signal mode;
      load seeds 1..5;
  the off-grid points (tools/granule/sim/engine/offgrid.json): OFFGRID below, drawn from
      the ranges docs/EXPLORE.md sweeps (HZ=100 and 300, linux-6.12 at
      HZ=1000, kbuild:4, kbuild:16 and video, periods of 3 and 20 ms,
      sched_min_granularity_ns, sched_latency_ns and sched_base_slice_ns
      off their defaults; both classes); load seeds 1..3.
Each file names the commit it was measured at (test_sim_validate.py checks
that no later commit touched the image).  A configuration's figures are the
means over its seeds of the run's average and maximum; the simulator runs
every seed's configuration (granule.bench.sim.simulate) and is held to
within 10 % of QEMU's average, and in thread mode 25 % of its maximum.

tools/granule/sim/engine/validated is the union of those configurations' settings
(`tools/sim experiment --settings`): a run outside it gets one line of
warning from the engine (tools/granule/sim/engine/validated.c).
Imports bench.jobs and bench.sim (downward).
"""
import json
import os
import subprocess

from ..bench import jobs as bj
from ..bench import sim as bench_sim

from ..paths import ENGINE, ROOT
REFERENCE = os.path.join(ENGINE, "reference.json")
OFFGRID_FILE = os.path.join(ENGINE, "offgrid.json")
VALIDATED = os.path.join(ENGINE, "validated")
SIM = os.path.join(ROOT, "tools", "sim")
# the matrix's configurations (preset, hz); both modes each
MATRIX = [(p, hz) for p in ("linux-2.6.35", "commit-0bf377bbb0be", "no-start-debit")
          for hz in (1000, 250)] + [("linux-6.12", 250)]
# the off-grid points: (boot words before run=experiment, mode); kbuild:10 unless load= says
OFFGRID = [
    ("sched_preset=linux-2.6.35 hz=100", "thread"),
    ("sched_preset=linux-2.6.35 hz=300", "signal"),
    ("sched_preset=commit-0bf377bbb0be hz=100", "thread"),
    ("sched_preset=commit-0bf377bbb0be hz=300", "thread"),
    ("sched_preset=no-start-debit hz=100", "thread"),
    ("sched_preset=no-start-debit hz=300", "thread"),
    ("sched_preset=linux-6.12 hz=100", "thread"),
    ("sched_preset=linux-6.12 hz=300", "signal"),
    ("sched_preset=linux-6.12 hz=1000", "thread"),
    ("sched_preset=linux-2.6.35 hz=1000 load=kbuild:4", "thread"),
    ("sched_preset=linux-2.6.35 hz=1000 load=kbuild:16", "thread"),
    ("sched_preset=linux-6.12 hz=250 load=kbuild:10,video", "thread"),
    ("sched_preset=commit-0bf377bbb0be hz=1000 period_ms=3", "thread"),
    ("sched_preset=linux-6.12 hz=250 period_ms=20", "thread"),
    ("sched_preset=linux-2.6.35 hz=1000 sched_min_granularity_ns=1000000", "thread"),
    ("sched_preset=linux-2.6.35 hz=250 sched_latency_ns=12000000 sched_min_granularity_ns=3000000",
     "thread"),
    ("sched_preset=linux-6.12 hz=250 sched_base_slice_ns=3000000", "thread"),
    ("sched_preset=linux-6.12 hz=1000 sched_base_slice_ns=300000", "thread"),
]
OFFGRID_SEEDS = 3
AVG_BOUND, MAX_BOUND = 0.10, 0.25
# Signal mode's maximum is not held to the bound (docs/EXPLORE.md, "How close"): one sample
# in a thousand, a few µs above the rest when an expiry lands inside a system call.
UNBOUNDED_MAX = {"signal"}


def matrix_cmdlines(seeds, duration):
    return [f"sched_preset={p} hz={hz} run=experiment mode={mode} load=kbuild:10 "
            f"duration={duration} seed={seed}"
            for p, hz in MATRIX for mode in ("thread", "signal") for seed in range(1, seeds + 1)]


def offgrid_cmdlines(seeds=OFFGRID_SEEDS, duration=10):
    out = []
    for words, mode in OFFGRID:
        load = "" if "load=" in words else " load=kbuild:10"
        out += [f"{words} run=experiment mode={mode}{load} duration={duration} seed={seed}"
                for seed in range(1, seeds + 1)]
    return out


def measure(cmdlines, path, head, duration, j):
    """Boot every command line (J at a time) and write their figures to PATH."""
    image = bj.image_hash("granule")
    jobs = [dict(id=f"{i:04d}", label=c.replace(" run=experiment", "")[:58], kernel="granule",
                 cmdline=c, bench="experiment", image=image) for i, c in enumerate(cmdlines)]
    runs, _ = bj.run_all(jobs, j)
    out = dict(commit=head, duration_s=duration, runs=[])
    for r in runs:
        w = r["results"].get("wakeup-latency")
        if not w:
            raise SystemExit(f"sim calibrate: {r['cmdline']}: no wakeup-latency RESULT line:\n"
                             + r.get("error", ""))
        kb = r["results"].get("kbuild-load", {})
        out["runs"].append(dict(cmdline=r["cmdline"], preset=w["preset"], hz=w["hz"],
                                mode=w["mode"], seed=int(r["cmdline"].rsplit("=", 1)[1]),
                                max_us=w["max_us"], avg_us=w["avg_us"], p99_us=w["p99_us"],
                                min_us=w["min_us"], work_frac=kb.get("work_frac")))
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"sim calibrate: wrote {os.path.relpath(path, ROOT)} ({len(jobs)} runs)")


def config_of(cmdline):
    """A run's configuration: its command line without run=, duration= and seed=."""
    return " ".join(w for w in cmdline.split()
                    if not w.startswith(("run=", "duration=", "seed=")))


def validation(path=REFERENCE):
    """[(configuration, mode, seeds, qemu avg, sim avg, qemu max, sim max)]: the
    means over the stored seeds, each seed's configuration simulated."""
    with open(path) as f:
        ref = json.load(f)
    groups = {}
    for r in ref["runs"]:
        groups.setdefault(config_of(r["cmdline"]), []).append(r)
    rows = []
    for config, runs in groups.items():
        sims = [bench_sim.simulate(r["cmdline"]) for r in runs]
        if None in sims:
            raise SystemExit(f"sim calibrate: tools/sim experiment failed for {config}")
        mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
        rows.append((config, runs[0]["mode"], len(runs), mean([r["avg_us"] for r in runs]),
                     mean([s["avg_us"] for s in sims]), mean([r["max_us"] for r in runs]),
                     mean([s["max_us"] for s in sims])))
    return rows


def out_of_bounds(rows):
    """The rows' figures outside the bounds, one line each."""
    bad = []
    for config, mode, n, qa, sa, qm, sm in rows:
        if abs(sa / qa - 1) > AVG_BOUND:
            bad.append(f"{config}: avg {sa:.1f} µs simulated, {qa:.1f} µs in QEMU")
        if mode not in UNBOUNDED_MAX and abs(sm / qm - 1) > MAX_BOUND:
            bad.append(f"{config}: max {sm:.1f} µs simulated, {qm:.1f} µs in QEMU")
    return bad


def words(config):
    return dict(w.partition("=")[::2] for w in config.split())


def table(rows):
    """The matrix's markdown table (docs/EXPLORE.md; the test recomputes it)."""
    out = ["| preset | HZ | mode | seeds | QEMU avg (µs) | sim avg (µs) | sim/QEMU | "
           "QEMU max (µs) | sim max (µs) | sim/QEMU |", "|---|---|---|---|---|---|---|---|---|---|"]
    for config, mode, n, qa, sa, qm, sm in rows:
        w = words(config)
        out.append(f"| {w['sched_preset']} | {w['hz']} | {mode} | {n} | {qa:.1f} | {sa:.1f} | "
                   f"{sa / qa:.2f} | {qm:.1f} | {sm:.1f} | {sm / qm:.2f} |")
    return "\n".join(out) + "\n"


def offgrid_table(rows):
    """The off-grid points' table: what differs from the matrix in the first column."""
    out = ["| configuration | mode | seeds | QEMU avg (µs) | sim avg (µs) | sim/QEMU | "
           "QEMU max (µs) | sim max (µs) | sim/QEMU |", "|---|---|---|---|---|---|---|---|---|"]
    for config, mode, n, qa, sa, qm, sm in rows:
        shown = " ".join(w for w in config.split() if w not in ("load=kbuild:10", f"mode={mode}"))
        out.append(f"| `{shown.replace('sched_preset=', '')}` | {mode} | {n} | {qa:.1f} | {sa:.1f} | "
                   f"{sa / qa:.2f} | {qm:.1f} | {sm:.1f} | {sm / qm:.2f} |")
    return "\n".join(out) + "\n"


def doc_blocks():
    """{marker: text} of docs/EXPLORE.md's generated tables."""
    return {"sim-validation": table(validation(REFERENCE)),
            "sim-offgrid": offgrid_table(validation(OFFGRID_FILE))}


def write_tables(path=os.path.join(ROOT, "docs", "EXPLORE.md")):
    with open(path) as f:
        text = f.read()
    for name, block in doc_blocks().items():
        begin, end = f"<!-- {name} begin -->\n", f"<!-- {name} end -->\n"
        if begin not in text or end not in text:
            raise SystemExit(f"sim calibrate: {path} has no {name} markers")
        head, rest = text.split(begin, 1)
        text = head + begin + block + end + rest.split(end, 1)[1]
    with open(path, "w") as f:
        f.write(text)
    print(f"sim calibrate: wrote the validation tables into {os.path.relpath(path, ROOT)}")


# settings whose validated values form a range (the rest: a set of words)
def ranged(name):
    return name.endswith("_ns") or name in ("period_ms", "sched_nr_latency", "sched_nr_latency_max")


def settings(cmdline):
    """{NAME: VALUE} of a configuration as the engine sets it (experiment --settings)."""
    args = bench_sim.sim_args(cmdline)
    r = subprocess.run([SIM, "experiment", "--settings", *args], capture_output=True, text=True,
                       check=True)
    return dict(l.split(" ", 1) for l in r.stdout.splitlines())


def envelope():
    """The text of tools/granule/sim/engine/validated: the union of every validated configuration's
    settings (a range for numbers of ns, a set of words for the rest)."""
    seen = {}
    for path in (REFERENCE, OFFGRID_FILE):
        with open(path) as f:
            configs = {config_of(r["cmdline"]): r["cmdline"] for r in json.load(f)["runs"]}
        for cmdline in configs.values():
            for name, value in settings(cmdline).items():
                seen.setdefault(name, set()).update(value.split() if not ranged(name) else [value])
    out = ["# tools/granule/sim/engine/validated - the settings at which tools/sim experiment's figures were",
           "# held to QEMU's (tools/granule/sim/engine/reference.json and offgrid.json; docs/EXPLORE.md,",
           "# \"How close\").  Written by tools/sim calibrate; a run outside it gets one line",
           "# of warning.  NAME LO..HI, or NAME and the words its value may hold."]
    for name in sorted(seen):
        vals = seen[name]
        if ranged(name):
            nums = sorted(int(v) for v in vals)
            out.append(f"{name} {nums[0]}..{nums[-1]}" if len(nums) > 1 else f"{name} {nums[0]}")
        else:
            key = lambda v: (not v.isdigit(), int(v) if v.isdigit() else 0, v)  # noqa: E731
            out.append(f"{name} {' '.join(sorted(vals, key=key))}")
    return "\n".join(out) + "\n"


def write_envelope():
    with open(VALIDATED, "w") as f:
        f.write(envelope())
    print(f"sim calibrate: wrote {os.path.relpath(VALIDATED, ROOT)}")
