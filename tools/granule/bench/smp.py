"""tools/bench_smp.py - the experiment on 2 and 4 CPUs, Granule beside Linux 6.1 and 6.12.

  tools/bench_smp.py [--cpus 2,4] [--seeds K] [--duration S] [--presets A,B] [--quick]
                     [-j N] [--timeout S] [--out DIR] [--docs] [--report-only] [--resume]

`experiment mode=thread load=kbuild:10 duration=S seed=K` at -smp N (kbuild:10 is ten jobs per CPU
there: kbuild-load -j 10N, user/bench/experiment.c), on Granule with sched_preset=P hz=250 and on
the Debian kernel tools/granule/peer/linux.py sets to P's knobs: Linux 6.1 for linux-2.6.35 and
commit-0bf377bbb0be (CFS), Linux 6.12 for linux-6.12 (EEVDF); N in 2 and 4, seeds 1..5 (--quick:
commit-0bf377bbb0be, 2 s, 1 seed).  Per configuration, over the seeds (median [min-max]): the
thread-mode average, 99th percentile and maximum wakeup latency, the load's throughput (jobs/s,
work_frac), its migrations per second after fork placement (kbuild-load -m) and the least busy
CPU's share.  The verdict columns are Granule / Linux: the average within 10 %, the throughput
within 5 %, the migration rate within a factor of 10 (the same order of magnitude).

The EEVDF rows are also cost-matched as tools/bench_cost.py matches the one-CPU rows: once the
raw runs of an N-CPU configuration are in, the pad is Linux 6.12's SIGEV_THREAD helper CPU per
expiry minus Granule's, per seed, median, rounded, >= 0 (bench/cost.py matched_pad(), on that
CPU count's runs), and Granule runs again with notify_pad_us=pad: its row "Granule, pad P µs"
has its own verdicts.  The CFS rows are not padded: CFS's latency does not follow the pad (the
one-CPU sweep's slope, RESULTS.md "The notification path's cost").

Output: DIR/SMP.md (default results/smp), the runs in DIR/jobs; --report-only rebuilds SMP.md;
--docs also writes the section between docs/RESULTS.md's SMP markers and docs/results/smp.md
(which tools/bench --docs keeps).  `make bench` runs it.
Imports bench/common.py, bench/jobs.py, bench/rt.py (its options, runner and docs splice),
bench/cost.py (the pad), peer/linux.py (each preset's Linux kernel) and granule/stats.py only.
"""
import argparse
import os

from ..peer import linux as linux_peer
from ..stats import Spread
from . import common as bc
from . import cost
from . import jobs as bj
from . import rt

HZ = bc.LINUX_HZ
PRESETS = ["linux-2.6.35", "commit-0bf377bbb0be", "linux-6.12"]
QUICK_PRESETS = ["commit-0bf377bbb0be"]
# The presets whose Granule runs get a cost-matched twin (EEVDF's: PLACE_LAG amplifies the helper's cost)
MATCHED = ["linux-6.12"]
BEGIN = "<!-- SMP written by tools/bench_smp.py --docs; tools/bench --docs keeps it -->"
END = "<!-- /SMP -->"
BOUNDS = {"avg": 0.10, "throughput": 0.05, "migrations": 10.0}


def linux_of(preset):
    """The Debian kernel PRESET's Linux twin runs on: 'linux-6.1' (CFS) or 'linux-6.12' (EEVDF)."""
    return "linux-" + linux_peer.LINUX_PRESETS[preset][0]


def job(kernel, preset, cpus, duration, seed, pad=0):
    """One run; a padded one (PAD µs of helper CPU per expiry, Granule only) has the key pad_us, so
    that --resume never takes a raw run for it nor it for a raw one."""
    exp = f"experiment mode=thread load=kbuild:10 duration={duration} seed={seed}"
    j = dict(kernel=kernel, preset=preset, mode="thread", load="kbuild:10", hz=HZ, seed=seed,
             smp=cpus, bench="experiment", expect=["wakeup-latency", "kbuild-load", "cpu-busy"],
             label=f"smp {kernel} {preset} x{cpus} seed {seed}" + (f" pad {pad}" if pad else ""))
    if kernel == bc.GRANULE:
        pad_word = f" notify_pad_us={pad}" if pad else ""
        j["cmdline"] = f"sched_preset={preset} hz={HZ}{pad_word} run=\"{exp}\""
    else:
        j["run"] = exp
    if pad:
        j["pad_us"] = pad
    return j


def number(jobs, start=1):
    """Ids from START in plan order, and the image each job's kernel is."""
    for i, j in enumerate(jobs, start):
        j["id"] = f"{i:04d}"
        j["image"] = bj.image_hash(j["kernel"])
    return jobs


def plan(presets, cpu_counts, duration, seeds):
    """Granule then its preset's Linux, per CPU count and preset, over the seeds; ids in that order."""
    return number([job(k, p, n, duration, s) for n in cpu_counts for p in presets
                   for k in (bc.GRANULE, linux_of(p)) for s in seeds])


def pads(runs):
    """{(preset, cpus): pad µs} for the MATCHED presets with raw pairs in RUNS: Linux's helper CPU per
    expiry minus Granule's, per seed, median, rounded, >= 0 (bench/cost.py matched_pad())."""
    out = {}
    for preset, cpus in dict.fromkeys((r["preset"], r.get("smp")) for r in runs):
        if preset not in MATCHED:
            continue
        mine = [r for r in runs if r.get("smp") == cpus and "error" not in r]
        pad = cost.matched_pad(mine, linux_of(preset), preset, preset)
        if pad is not None:
            out[preset, cpus] = pad
    return out


def matched_plan(runs, duration, seeds, start):
    """The cost-matched Granule twins of RUNS' MATCHED configurations (a pad of 0 needs none), ids
    from START: they follow the raw plan's."""
    jobs = [job(bc.GRANULE, p, n, duration, s, pad) for (p, n), pad in pads(runs).items() if pad
            for s in seeds]
    return number(jobs, start)


def figures(run):
    """One run's figures: avg_us, p99_us, max_us, jobs_per_s, work_frac, migrations_per_s, busy_pct."""
    res = run.get("results", {})
    wl, kb, busy = res.get("wakeup-latency", {}), res.get("kbuild-load", {}), res.get("cpu-busy", {})
    return {"avg_us": wl.get("avg_us"), "p99_us": wl.get("p99_us"), "max_us": wl.get("max_us"),
            "jobs_per_s": kb.get("jobs_per_s"), "work_frac": kb.get("work_frac"),
            "migrations_per_s": kb.get("migrations_per_s"),
            "busy_pct": min(busy["busy_pct"]) if busy.get("busy_pct") else None}


def spreads(runs, kernel, preset, cpus, pad=0):
    """{figure: Spread over the seeds} of one configuration's good runs (those padded by PAD µs)."""
    mine = [figures(r) for r in runs if (r["kernel"], r["preset"], r.get("smp"), r.get("pad_us", 0))
            == (kernel, preset, cpus, pad) and "error" not in r]
    keys = ["avg_us", "p99_us", "max_us", "jobs_per_s", "work_frac", "migrations_per_s", "busy_pct"]
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


def row(cpus, preset, who, s, tail):
    return (f"| {cpus} | {preset} | {who} | {s['avg_us'].fmt()} | {s['p99_us'].fmt()} | "
            f"{s['max_us'].fmt()} | {s['jobs_per_s'].fmt('{:.2f}')} | {s['work_frac'].fmt('{:.3f}')} | "
            f"{s['migrations_per_s'].fmt()} | {s['busy_pct'].fmt()} | {tail} |")


def verdict_cells(g, lx):
    v = verdict(g, lx)
    return " | ".join(cell(v[k]) for k in ("avg", "throughput", "migrations"))


def table(runs):
    """Per CPU count and preset: Granule's row, its cost-matched twin's (MATCHED presets that have
    padded runs), each with its verdicts against Linux, then Linux's row."""
    lines = ["| CPUs | preset | kernel | avg µs | p99 µs | max µs | jobs/s | work_frac | migrations/s | "
             "least busy CPU % | avg G/L | jobs/s G/L | migrations G/L |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for cpus in dict.fromkeys(r.get("smp") for r in runs):
        for preset in dict.fromkeys(r["preset"] for r in runs):
            linux = linux_of(preset)
            g, lx = spreads(runs, bc.GRANULE, preset, cpus), spreads(runs, linux, preset, cpus)
            if not g["avg_us"].n and not lx["avg_us"].n:
                continue
            lines.append(row(cpus, preset, rt.who(bc.GRANULE), g, verdict_cells(g, lx)))
            padded = sorted({r["pad_us"] for r in runs if r.get("pad_us") and r.get("smp") == cpus
                             and r["preset"] == preset and r["kernel"] == bc.GRANULE})
            for pad in padded:
                m = spreads(runs, bc.GRANULE, preset, cpus, pad)
                lines.append(row(cpus, preset, f"Granule, pad {pad} µs", m, verdict_cells(m, lx)))
            lines.append(row(cpus, preset, rt.who(linux), lx, " | | "))
    return lines


def pad_lines(runs):
    """One line per matched configuration: both kernels' CPU per expiry (helper + notification
    thread, medians of the raw runs) and the pad it gives; a pad of 0 (Granule's helper no cheaper
    than Linux's) leaves the raw row as the cost-matched one."""
    out = []
    for (preset, cpus), pad in pads(runs).items():
        mine = [r for r in runs if r.get("smp") == cpus and "error" not in r]
        g, lx = cost.pick(mine, bc.GRANULE, preset, 0), cost.pick(mine, linux_of(preset), preset, 0)
        out.append(f"- {preset} at {cpus} CPUs: CPU per expiry, helper + notification thread, "
                   f"{cost.cost_cell(g)} µs on Granule, {cost.cost_cell(lx)} µs on {rt.who(linux_of(preset))}: "
                   + (f"pad {pad} µs." if pad else "pad 0, Granule's path is no cheaper than Linux's "
                      "and its raw row is the cost-matched one."))
    return [""] + out if out else []


def report(runs, argv, commit, duration, seeds):
    bad = [r["label"] for r in runs if "error" in r]
    lines = ["## Several CPUs: the experiment beside Linux 6.1 and 6.12", "",
             f"Command: `{' '.join(argv)}` at commit `{commit}`: `experiment mode=thread load=kbuild:10 "
             f"duration={duration}` over seeds 1–{seeds}, at HZ={HZ} on both kernels, under QEMU -icount. "
             "kbuild:10 keeps ten jobs per CPU in flight. The CFS presets run beside Debian's Linux 6.1, "
             "linux-6.12 (EEVDF) beside Debian's 6.12. Figures are median [min–max] over the seeds; "
             "the last three columns are Granule's median over Linux's, inside the bounds or not "
             "(average ±10 %, throughput ±5 %, migrations within a factor of 10).", ""]
    lines += table(runs)
    lines += ["", "Migrations count the load's processes' moves after their fork placed them "
              "(`se.nr_migrations`, docs/EXPERIMENT.md \"On several CPUs\"). 6.1's balancer is not "
              "2.6.35's: its wakeup path looks for an idle CPU first (`select_idle_sibling()`) and leaves "
              "a task where it ran when none idles, where 2.6.35's `wake_affine()` pulls a wakee to its "
              "waker's CPU; docs/SCHEDULER.md (\"Several CPUs\") has the rest."]
    if any(r["preset"] in MATCHED for r in runs):
        lines += ["", "\"Granule, pad P µs\" is the cost-matched twin of an EEVDF row, as the one-CPU rows are "
                  "matched (\"The notification path's cost\"): P is Linux 6.12's SIGEV_THREAD helper CPU per "
                  "expiry minus Granule's at that CPU count, per seed, median, rounded, and Granule runs again "
                  "with `notify_pad_us=P`. Under linux-6.12 Granule has 6.12's PELT, wakeup and fork "
                  "placement and balancer, `sched_balance_rq()` (docs/SCHEDULER.md, \"Several CPUs under "
                  "EEVDF\"), on 2.6.35's domains."]
        lines += pad_lines(runs)
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
    seeds = range(1, seeds + 1)
    raw = [] if args.report_only else plan(presets, cpu_counts, duration, seeds)
    cmd, runs = rt.measured("bench_smp", args, argv, lambda: raw, duration=duration, seeds=len(seeds))
    if not args.report_only:
        later = matched_plan(bj.load_results(args.out, raw)[0], duration, seeds, len(raw) + 1)
        if later:
            bj.run_all(later, args.parallel, args.timeout,
                       sink=lambda run, wall: bj.save_result(args.out, run, wall),
                       resume=args.out if args.resume else None)
            runs = bj.load_results(args.out, raw + later)[0]
    lines = report(runs, cmd["argv"], cmd["commit"], cmd["duration"], cmd["seeds"])
    with open(os.path.join(args.out, "SMP.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if args.docs:
        write_docs(lines)
    return 1 if any("error" in r for r in runs) else 0
