"""tools/bench_smp.py - the experiment on 2 and 4 CPUs, Granule beside Linux 6.1.

  tools/bench_smp.py [--cpus 2,4] [--seeds K] [--duration S] [--presets A,B] [--quick]
                     [-j N] [--timeout S] [--out DIR] [--docs] [--report-only] [--resume]

`experiment mode=thread load=kbuild:10 duration=S seed=K` at -smp N (kbuild:10 is ten jobs per CPU
there: kbuild-load -j 10N, user/bench/experiment.c), on Granule with sched_preset=P hz=250 and on
Debian's Linux 6.1 set to P's knobs (tools/granule/peer/linux.py), for P in linux-2.6.35 and
commit-0bf377bbb0be (6.1 has no EEVDF; 6.12's balancer is another issue's), N in 2 and 4, seeds 1..5
(--quick: commit-0bf377bbb0be, 2 s, 1 seed).  Per configuration, over the seeds (median [min-max]):
the thread-mode average and maximum wakeup latency, the load's throughput (jobs/s, work_frac), its
migrations per second after fork placement (kbuild-load -m) and each CPU's busy share.  The
verdict columns are Granule / Linux: the average within 10 %, the throughput within 5 %, the
migration rate within a factor of 10 (the same order of magnitude).

Output: DIR/SMP.md (default results/smp), the runs in DIR/jobs; --report-only rebuilds SMP.md;
--docs also writes the section between docs/RESULTS.md's SMP markers and docs/results/smp.md
(which tools/bench --docs keeps).  `make bench` runs it.
Imports bench/common.py, bench/jobs.py, bench/rt.py (its options, runner and docs splice) and
granule/stats.py only.
"""
import argparse
import os

from ..stats import Spread
from . import common as bc
from . import jobs as bj
from . import rt

HZ = bc.LINUX_HZ
PRESETS = ["linux-2.6.35", "commit-0bf377bbb0be"]
QUICK_PRESETS = ["commit-0bf377bbb0be"]
LINUX = "linux-6.1"
BEGIN = "<!-- SMP written by tools/bench_smp.py --docs; tools/bench --docs keeps it -->"
END = "<!-- /SMP -->"
BOUNDS = {"avg": 0.10, "throughput": 0.05, "migrations": 10.0}


def job(kernel, preset, cpus, duration, seed):
    exp = f"experiment mode=thread load=kbuild:10 duration={duration} seed={seed}"
    j = dict(kernel=kernel, preset=preset, mode="thread", load="kbuild:10", hz=HZ, seed=seed,
             smp=cpus, bench="experiment", expect=["wakeup-latency", "kbuild-load", "cpu-busy"],
             label=f"smp {kernel} {preset} x{cpus} seed {seed}")
    if kernel == bc.GRANULE:
        j["cmdline"] = f"sched_preset={preset} hz={HZ} run=\"{exp}\""
    else:
        j["run"] = exp
    return j


def plan(presets, cpu_counts, duration, seeds):
    """Granule then Linux, per CPU count and preset, over the seeds; ids in that order."""
    jobs = [job(k, p, n, duration, s) for n in cpu_counts for p in presets
            for k in (bc.GRANULE, LINUX) for s in seeds]
    for i, j in enumerate(jobs, 1):
        j["id"] = f"{i:04d}"
        j["image"] = bj.image_hash(j["kernel"])
    return jobs


def figures(run):
    """One run's figures: avg_us, max_us, jobs_per_s, work_frac, migrations_per_s, busy_pct."""
    res = run.get("results", {})
    wl, kb, busy = res.get("wakeup-latency", {}), res.get("kbuild-load", {}), res.get("cpu-busy", {})
    return {"avg_us": wl.get("avg_us"), "max_us": wl.get("max_us"),
            "jobs_per_s": kb.get("jobs_per_s"), "work_frac": kb.get("work_frac"),
            "migrations_per_s": kb.get("migrations_per_s"),
            "busy_pct": min(busy["busy_pct"]) if busy.get("busy_pct") else None}


def spreads(runs, kernel, preset, cpus):
    """{figure: Spread over the seeds} of one configuration's good runs."""
    mine = [figures(r) for r in runs if (r["kernel"], r["preset"], r.get("smp")) == (kernel, preset, cpus)
            and "error" not in r]
    keys = ["avg_us", "max_us", "jobs_per_s", "work_frac", "migrations_per_s", "busy_pct"]
    return {k: Spread([f[k] for f in mine]) for k in keys}


def ratio(a, b):
    return a / b if a is not None and b else None


def verdict(g, lx):
    """Granule / Linux for the three bounded figures, and whether each is inside its bound.  The
    migration rates are of one order of magnitude when their ratio is within 1/10..10, or when
    neither reaches one a second (a ratio of nothings says nothing)."""
    out = {}
    for name, key in (("avg", "avg_us"), ("throughput", "jobs_per_s"), ("migrations", "migrations_per_s")):
        a, b = g[key].median, lx[key].median
        r = ratio(a, b)
        if name != "migrations":
            out[name] = (r, r is not None and abs(r - 1) <= BOUNDS[name])
        elif a is not None and b is not None and a < 1 and b < 1:
            out[name] = (r, True)
        else:
            out[name] = (r, r is not None and 1 / BOUNDS[name] <= r <= BOUNDS[name])
    return out


def cell(r_ok):
    r, ok = r_ok
    return "–" if r is None else f"x{r:.2f} " + ("(in)" if ok else "(**out**)")


def table(runs):
    lines = ["| CPUs | preset | kernel | avg µs | max µs | jobs/s | work_frac | migrations/s | "
             "least busy CPU % | avg G/L | jobs/s G/L | migrations G/L |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for cpus in dict.fromkeys(r.get("smp") for r in runs):
        for preset in dict.fromkeys(r["preset"] for r in runs):
            g, lx = spreads(runs, bc.GRANULE, preset, cpus), spreads(runs, LINUX, preset, cpus)
            if not g["avg_us"].n and not lx["avg_us"].n:
                continue
            v = verdict(g, lx)
            for kernel, s in ((bc.GRANULE, g), (LINUX, lx)):
                tail = " | ".join(cell(v[k]) for k in ("avg", "throughput", "migrations")) \
                    if kernel == bc.GRANULE else " | | "
                lines.append(f"| {cpus} | {preset} | {rt.who(kernel)} | {s['avg_us'].fmt()} | "
                             f"{s['max_us'].fmt()} | {s['jobs_per_s'].fmt('{:.2f}')} | "
                             f"{s['work_frac'].fmt('{:.3f}')} | {s['migrations_per_s'].fmt()} | "
                             f"{s['busy_pct'].fmt()} | {tail} |")
    return lines


def report(runs, argv, commit, duration, seeds):
    bad = [r["label"] for r in runs if "error" in r]
    lines = ["## Several CPUs: the experiment beside Linux 6.1", "",
             f"Command: `{' '.join(argv)}` at commit `{commit}`: `experiment mode=thread load=kbuild:10 "
             f"duration={duration}` over seeds 1–{seeds}, at HZ={HZ} on both kernels, under QEMU -icount. "
             "kbuild:10 keeps ten jobs per CPU in flight. Figures are median [min–max] over the seeds; "
             "the last three columns are Granule's median over Linux's, inside the bounds or not "
             "(average ±10 %, throughput ±5 %, migrations within a factor of 10).", ""]
    lines += table(runs)
    lines += ["", "Migrations count the load's processes' moves after their fork placed them "
              "(`se.nr_migrations`, docs/EXPERIMENT.md \"On several CPUs\"). 6.1's balancer is not "
              "2.6.35's: its wakeup path looks for an idle CPU first (`select_idle_sibling()`) and leaves "
              "a task where it ran when none idles, where 2.6.35's `wake_affine()` pulls a wakee to its "
              "waker's CPU; docs/SCHEDULER.md (\"Several CPUs\") has the rest."]
    if bad:
        lines += ["", "Runs without a result: " + ", ".join(bad) + "."]
    return lines


def write_docs(lines):
    rt.publish("smp.md", BEGIN, END, "\n".join(lines))
    print("bench_smp: wrote docs/results/smp.md and its section in docs/RESULTS.md")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpus", default="2,4", help="comma list of CPU counts (2,4)")
    ap.add_argument("--seeds", type=int, help="load seeds 1..K (5; quick: 1)")
    ap.add_argument("--duration", type=int, help="the experiment's seconds (10; quick: 2)")
    rt.options(ap, QUICK_PRESETS, 1800, "smp")
    args = ap.parse_args(argv)
    try:
        cpu_counts = [int(x) for x in args.cpus.split(",")]
    except ValueError:
        cpu_counts = []
    if not cpu_counts or any(not 2 <= n <= 32 for n in cpu_counts):
        raise SystemExit(f"bench_smp: --cpus {args.cpus}: expected CPU counts 2..32, comma-separated")
    seeds = args.seeds or (1 if args.quick else 5)
    duration = args.duration or (2 if args.quick else 10)
    presets = args.presets.split(",") if args.presets else QUICK_PRESETS if args.quick else PRESETS
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        raise SystemExit(f"bench_smp: --presets: unknown {', '.join(unknown)} (one of {', '.join(PRESETS)})")
    cmd, runs = rt.measured("bench_smp", args, argv,
                            lambda: plan(presets, cpu_counts, duration, range(1, seeds + 1)),
                            duration=duration, seeds=seeds)
    lines = report(runs, cmd["argv"], cmd["commit"], cmd["duration"], cmd["seeds"])
    with open(os.path.join(args.out, "SMP.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if args.docs:
        write_docs(lines)
    return 1 if any("error" in r for r in runs) else 0
