"""tools/bench - the 2010 experiment's matrix over load seeds, under QEMU -icount.

  tools/bench [--quick] [-j N] [--seeds K] [--presets A,B] [--variants all|none|LABEL,...]
              [--modes thread,signal]
              [--loads "none kbuild:10 kbuild:10,video"] [--hz HZ] [--duration S]
              [--linux | --no-linux] [--out DIR] [--docs] [--report-only] [--no-micro] [--no-trace]
  tools/bench --sweep KNOB=V1,V2,... [--preset P|LABEL] [--mode thread] [--load kbuild:10] ...
  tools/bench --plan FILE [matrix options]     write one self-contained job per line
  tools/bench --job-ids FILE                   the plan's job ids, one per line
  tools/bench --run-job FILE --job ID --out DIR   run one job into DIR/jobs/ID.json
  tools/bench --collect DIR --plan-file FILE [--docs]   merge DIR/jobs and write the report

Matrix mode boots Granule once per (preset, mode, load, HZ, load seed) with
  sched_preset=P [hz=H] run=experiment mode=M load=L duration=D seed=S hist=1
(`make bench`: every preset of tools/presets x {thread, signal} x {none,
kbuild:10, kbuild:10+video} at HZ=1000, plus kbuild:10 at HZ=250, 15 s each,
5 load seeds; --quick: three presets x both modes x kbuild:10 at HZ=1000 and at HZ=250, 5 s, 1 seed,
with the same three on Linux 6.1 as their HZ=250 twins).
The variants of tools/granule/bench/variants.py (linux-6.12 with a 3 ms base slice,
with slice_us=100, with NO_PLACE_LAG, with NO_RUN_TO_PARITY) run beside their
base preset under kbuild:10 and kbuild:10+video at HZ=1000 and HZ=250, their
words after sched_preset= on the boot line; a row is named by its label,
"linux-6.12 slice_us=100".
Unless --quick or --no-trace, the headline presets in the matrix also run
once traced (thread, kbuild:10, HZ=250, first seed, 3 s: tools/granule/bench/trace.py),
and the report shows their worst sample's zoom and attribution.
When Debian's kernels are fetched (tools/linux-peer fetch) and LINUX=0 is not
set, the same binaries also run on Linux 6.1 (the presets it can emulate) and
Linux 6.12 (EEVDF, and the variants' settings) at the headline load, paired
with Granule's HZ=250 runs.

Runs go N at a time (-j/--parallel, default: the number of cores) with a
progress line and an ETA per finished run.  Results are a pure function of
the image and the command lines, so -j1 and -jN give the same bytes; wall
times go to DIR/timing.json only.  Output: DIR/runs.json, DIR/REPORT.md
(tables with median [min-max] over seeds, verdicts on the 2010 claims, the
Linux fidelity table) and gnuplot plots (PNG + SVG).

A plan file lets any number of machines share the work (docs/EXPERIMENT.md
shows GNU parallel over ssh); --collect builds the same report from it.
"""
import argparse
import json
import os
import shlex
import sys
import time

from .. import qemu as gq
from ..gnuplot import GnuplotError, gnuplot
from ..peer import linux as lp
from ..stats import Spread
from . import common as bc
from . import jobs as bj
from . import report as br
from . import trace as bench_trace
from . import variants as bv

ROOT = gq.ROOT
PRESETS_FILE = os.path.join(ROOT, "tools", "presets")
QUICK_PRESETS = ["linux-2.6.35", "commit-0bf377bbb0be", "no-start-debit"]
# Where the variants (tools/granule/bench/variants.py) run: both loads with a compile, both HZ.
VARIANT_GROUPS = [(["kbuild:10", "kbuild:10,video"], bc.DEFAULT_HZ),
                  (["kbuild:10", "kbuild:10,video"], bc.LINUX_HZ)]


def all_presets():
    with open(PRESETS_FILE, encoding="utf-8") as f:
        return [line.split("\t")[0].strip() for line in f
                if line.strip() and not line.startswith("#")]


def cmdline(preset, mode, load, duration, seed=1, extra="", hz=bc.DEFAULT_HZ):
    """Granule's kernel command line for one run (seed=1, the default, is left out).
    PRESET may be a variant's label: its words follow sched_preset= (tools/granule/bench/variants.py)."""
    preset, words = bv.resolve(preset)
    parts = [f"sched_preset={preset}"] if preset else []
    if words:
        parts.append(words)
    if hz != bc.DEFAULT_HZ:
        parts.append(f"hz={hz}")
    parts += ["run=experiment", f"mode={mode}", f"load={load}", f"duration={duration}"]
    if seed != 1:
        parts.append(f"seed={seed}")
    parts.append("hist=1")
    if extra:
        parts.append(extra)
    return " ".join(parts)


def linux_run(mode, load, duration, seed=1):
    """The run= string of a Linux job: the same experiment command, no kernel knobs."""
    return f"experiment mode={mode} load={load} duration={duration} seed={seed} hist=1"


def linux_wanted(args):
    if args.linux is not None:
        return args.linux
    return os.environ.get("LINUX", "1") != "0" and lp.fetched()


def slots(groups):
    """[(hz, [loads])] of GROUPS [([loads], hz)], each HZ once, in first-seen order."""
    out = {}
    for loads, hz in groups:
        have = out.setdefault(hz, [])
        have += [load for load in loads if load not in have]
    return list(out.items())


def merge_hz(groups, hz):
    """--hz: one HZ for everything, the groups' loads each once."""
    return [(loads, h) for h, loads in slots([(loads, hz) for loads, _ in groups])]


def matrix_jobs(args):
    """Every job of the matrix, in report order, numbered."""
    if args.quick:
        # HZ=1000 as make run, and the HZ=250 twins of the Linux runs (Debian's HZ), so that
        # the quick report has Granule/Linux pairs too.
        presets, groups, vgroups = QUICK_PRESETS, [(["kbuild:10"], bc.DEFAULT_HZ),
                                                   (["kbuild:10"], bc.LINUX_HZ)], []
    else:
        presets = all_presets()
        # HZ=1000 (Granule's default) for every load; HZ=250 (2.6.35's and Debian's
        # default) for the headline load, where the Linux runs pair with it.
        groups = [(["none", "kbuild:10", "kbuild:10,video"], bc.DEFAULT_HZ),
                  (["kbuild:10"], bc.LINUX_HZ)]
        vgroups = VARIANT_GROUPS
    if args.presets:
        presets = args.presets.split(",")
    variants = bv.select(args.variants, presets)
    if variants and not vgroups:    # asked for by name under --quick: the quick loads
        vgroups = groups
    if args.loads:
        groups = vgroups = [(args.loads.split(), bc.DEFAULT_HZ)]
    if args.hz:
        groups, vgroups = merge_hz(groups, args.hz), merge_hz(vgroups, args.hz)
    plain = {(load, hz) for loads, hz in groups for load in loads}
    varied = {(load, hz) for loads, hz in vgroups for load in loads} if variants else set()
    seeds = range(1, args.seeds + 1)
    names = []      # every configuration name of the matrix, for the Linux runs' twins
    jobs = []
    if not args.no_micro:
        jobs.append(dict(label="microbench", bench="microbench", kernel="granule",
                         preset="commit-0bf377bbb0be", mode="-", load="-", hz=bc.DEFAULT_HZ,
                         seed=1, cmdline="run=microbench"))
    for hz, loads in slots(groups + (vgroups if variants else [])):
        for mode in args.modes.split(","):
            for load in loads:
                row = presets if (load, hz) in plain else []
                if (load, hz) in varied:
                    # a variant runs beside its base preset, so each of its rows has one to compare with
                    row = row + [b for b in dict.fromkeys(v.base for v in variants) if b not in row] \
                        + [bv.label(v) for v in variants]
                for preset in row:
                    names += [preset] if preset not in names else []
                    for seed in seeds:
                        label = f"{preset} {mode} {load}" + \
                            (f" HZ={hz}" if hz != bc.DEFAULT_HZ else "") + f" seed={seed}"
                        jobs.append(dict(label=label, bench="experiment", kernel="granule",
                                         preset=preset, mode=mode, load=load, hz=hz, seed=seed,
                                         cmdline=cmdline(preset, mode, load, args.duration,
                                                         seed, hz=hz)))
    if not args.quick and not args.no_trace:
        jobs += bench_trace.trace_jobs(presets, args.modes.split(","),
                                       [load for group, _ in groups for load in group],
                                       args.duration, cmdline)
    if linux_wanted(args):
        for preset, (kernel, *_) in lp.LINUX_PRESETS.items():
            twin = lp.GRANULE_TWIN.get(preset)
            if (args.presets or args.variants or args.quick) and twin not in names:
                continue    # no Granule twin in this matrix (quick: only the quick presets' twins)
            for mode in args.modes.split(","):
                for seed in seeds:
                    jobs.append(dict(label=f"linux-{kernel} {preset} {mode} {bc.HEADLINE_LOAD} "
                                           f"HZ={lp.LINUX_HZ} seed={seed}",
                                     bench="experiment", kernel=f"linux-{kernel}", preset=preset,
                                     mode=mode, load=bc.HEADLINE_LOAD, hz=lp.LINUX_HZ, seed=seed,
                                     run=linux_run(mode, bc.HEADLINE_LOAD, args.duration, seed)))
    return number(jobs)


def number(jobs):
    images = {}
    for i, job in enumerate(jobs, 1):
        job["id"] = f"{i:04d}"
        if job["kernel"] not in images:
            images[job["kernel"]] = bj.image_hash(job["kernel"])
        job["image"] = images[job["kernel"]]
    return jobs


def write_outputs(args, runs, argv, walls):
    """runs.json, REPORT.md, plots and (--docs) docs/; returns the exit status."""
    micro = next((r for r in runs if r.get("bench") == "microbench"), None)
    runs = [r for r in runs if r.get("bench") != "microbench"]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "runs.json"), "w", encoding="utf-8") as f:
        json.dump(dict(argv=argv, runs=runs, micro=micro), f, indent=1, sort_keys=True)
    # run_wall_s: the runs' own wall times added up (not the total), which is
    # about what -j1 takes: each run has a core to itself either way
    per_job = {k: v for k, v in (walls or {}).items() if not k.startswith("_")}
    total = round(sum(per_job.values()), 1) if per_job else (walls or {}).get("_runs")
    if per_job:                                 # a run that measured jobs (not --report-only)
        with open(os.path.join(args.out, "timing.json"), "w", encoding="utf-8") as f:
            json.dump(dict(parallel=args.parallel, wall_s=walls.get("_total"),
                           run_wall_s=total, per_job=per_job, commit=getattr(args, "commit", None),
                           qemu=getattr(args, "qemu", None)),
                      f, indent=1, sort_keys=True)
    try:
        br.plots(runs, args.out)
        bench_trace.plots(runs, args.out)
    except GnuplotError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 1
    with open(os.path.join(args.out, "REPORT.md"), "w", encoding="utf-8") as f:
        f.write(br.report(runs, micro, argv))
    if args.docs:
        wall = walls.get("_total") if walls else None
        br.write_docs(runs, micro, argv, args.out,
                      f"{bj.hms(wall)} of wall time with -j{args.parallel} on "
                      f"{os.cpu_count()} cores" + (
                          f"; its {len(runs) + bool(micro)} runs' own wall times add up to "
                          f"{bj.hms(total)}, what one run at a time (-j1) would take at most"
                          if total and args.parallel > 1 else "") if wall else None,
                      getattr(args, "commit", None), getattr(args, "qemu", None))
    bad = [r["label"] for r in runs if not br.latency_result(r)]
    print(f"bench: wrote {args.out}/REPORT.md, runs.json and plots"
          + (f"; {len(bad)} runs without result" if bad else ""))
    return 1 if bad else 0


def sweep(args, argv):
    """One knob (or j, the kbuild parallelism) over values, each over the load seeds."""
    knob, _, values = args.sweep.partition("=")
    values = [v for v in values.split(",") if v]
    jobs = []
    for value in values:
        load, extra = args.load, f"{knob}={value}"
        if knob == "j":
            load, extra = f"kbuild:{value}", ""
        for seed in range(1, args.seeds + 1):
            jobs.append(dict(label=f"{knob}={value} seed={seed}", bench="experiment",
                             kernel="granule", preset=args.preset, mode=args.mode, load=load,
                             hz=bc.DEFAULT_HZ, seed=seed, value=value,
                             cmdline=cmdline(args.preset, args.mode, load, args.duration, seed,
                                             extra)))
    runs, _ = bj.run_all(number(jobs), args.parallel, args.timeout)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, f"sweep-{knob}.json"), "w", encoding="utf-8") as f:
        json.dump(runs, f, indent=1, sort_keys=True)
    dat = os.path.join(args.out, f"sweep-{knob}.dat")
    load = "kbuild:j" if knob == "j" else args.load
    lines = [f"# Sweep of {knob} ({args.preset}, {args.mode} mode, load {load}, "
             f"{args.duration} s, {args.seeds} load seeds)", "",
             f"Produced by `{shlex.join(argv)}`.", "",
             f"| {knob} | max µs | p99 µs | avg µs | missed | kbuild jobs/s |",
             "|---|---|---|---|---|---|"]
    with open(dat, "w", encoding="utf-8") as f:
        for value in values:
            group = [r for r in runs if r["value"] == value and br.latency_result(r)]
            if not group:
                continue
            cell = lambda key, bench="wakeup-latency": Spread(  # noqa: E731
                [r["results"][bench][key] for r in group if bench in r["results"]])
            mx, p99, jobs_s = cell("max_us"), cell("p99_us"), cell("jobs_per_s", "kbuild-load")
            f.write(f"{value} {mx.median} {mx.lo} {mx.hi} {p99.median} {jobs_s.median or 0}\n")
            lines.append(f"| {value} | {mx.fmt()} | {p99.fmt()} | {cell('avg_us').fmt()} | "
                         f"{cell('missed').fmt('{:g}')} | {jobs_s.fmt('{:.2f}')} |")
    with open(os.path.join(args.out, f"SWEEP-{knob}.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + f"\n\n![sweep](sweep-{knob}.svg)\n")
    try:
        gnuplot(f"set terminal @TERM\nset output '@OUT'\n"
                   f"set title 'Sweep of {knob} ({args.preset}, {args.mode}, {load})'\n"
                   f"set xlabel '{knob}'\nset ylabel 'latency (us)'\nset y2label 'kbuild jobs/s'\n"
                   "set ytics nomirror\nset y2tics\nset logscale x\nset grid\n"
                   f"plot '{dat}' using 1:2:3:4 with yerrorlines title 'max (seeds min-max)', "
                   "'' using 1:5 with linespoints title 'p99', "
                   "'' using 1:6 axes x1y2 with linespoints title 'jobs/s'\n",
                   os.path.join(args.out, f"sweep-{knob}"))
    except GnuplotError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 1
    print(f"bench: wrote {args.out}/SWEEP-{knob}.md and sweep-{knob}.png/svg")
    return 0


def result_argv(words):
    """The command line as the report shows it: without the options that do not change
    a figure (-j N / --parallel N, --plan FILE, --out DIR, --resume), so every way of running it
    writes the same report."""
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-j", "--parallel", "--plan", "--out"):
            skip = True
        elif not word.startswith(("-j", "--parallel=", "--plan=", "--out=")) and word != "--resume":
            out.append(word)
    return out


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="3 presets x 2 modes x kbuild:10 at HZ=1000 and 250 (Linux 6.1 twins), 5 s, 1 seed")
    ap.add_argument("-j", "--parallel", type=int, default=os.cpu_count() or 1,
                    help="runs at a time (default: the number of cores)")
    ap.add_argument("--seeds", type=int, help="load seeds per configuration (5; quick: 1)")
    ap.add_argument("--presets", help="comma list (default: all of tools/presets)")
    ap.add_argument("--variants", metavar="all|none|LABEL,...",
                    help="variant rows (tools/granule/bench/variants.py), e.g. 'linux-6.12 slice_us=100' "
                         "(default: those whose base preset is in the matrix; --quick: none)")
    ap.add_argument("--modes", default="thread,signal")
    ap.add_argument("--loads", help="space-separated load specs (default: 'none kbuild:10 kbuild:10,video')")
    ap.add_argument("--duration", type=int, help="latency test seconds (15; quick: 5)")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out", default=os.path.join(ROOT, "results"))
    ap.add_argument("--hz", type=int, help="run everything at this HZ (default: 1000, plus 250 for kbuild:10)")
    ap.add_argument("--linux", dest="linux", action="store_true", default=None,
                    help="add the Linux runs (default: when fetched and LINUX!=0)")
    ap.add_argument("--no-linux", dest="linux", action="store_false")
    ap.add_argument("--no-micro", action="store_true", help="skip the microbench run")
    ap.add_argument("--no-trace", action="store_true",
                    help="skip the traced runs of the headline presets (tools/granule/bench/trace.py)")
    ap.add_argument("--docs", action="store_true",
                    help="also write docs/RESULTS.md, docs/results/ and VARIANTS.md tables")
    ap.add_argument("--report-only", action="store_true", help="rebuild the report from DIR/runs.json")
    ap.add_argument("--resume", action="store_true",
                    help="reuse the runs an interrupted bench saved in DIR/jobs (same job, same image)")
    ap.add_argument("--sweep", help="KNOB=V1,V2,... (KNOB j = kbuild parallelism)")
    ap.add_argument("--mode", default="thread", help="sweep: mode")
    ap.add_argument("--load", default="kbuild:10", help="sweep: load")
    ap.add_argument("--preset", default="commit-0bf377bbb0be",
                    help="sweep: preset, or a variant's label ('linux-6.12 slice_us=100')")
    ap.add_argument("--plan", metavar="FILE", help="write the matrix's jobs to FILE, run nothing")
    ap.add_argument("--job-ids", metavar="FILE", help="print FILE's job ids")
    ap.add_argument("--run-job", metavar="FILE", help="run --job ID of plan FILE into --out")
    ap.add_argument("--job", help="with --run-job: the job id")
    ap.add_argument("--collect", metavar="DIR", help="merge DIR/jobs into a report (with --plan-file)")
    ap.add_argument("--plan-file", metavar="FILE", help="with --collect: the plan (its order and argv)")
    args = ap.parse_args()
    if args.duration is None:
        args.duration = 5 if args.quick else 15
    if args.seeds is None:
        args.seeds = 1 if args.quick else 5
    return args


def main():
    args = parse_args()
    if args.job_ids:
        print("\n".join(j["id"] for j in bj.read_plan(args.job_ids)))
        return 0
    if args.run_job:
        job = next((j for j in bj.read_plan(args.run_job) if j["id"] == args.job), None)
        if not job:
            sys.exit(f"bench: no job {args.job!r} in {args.run_job}")
        run, wall = bj.run_job(job, args.timeout)
        bj.save_result(args.out, run, wall)
        print(f"bench: job {job['id']} {job['label']}: {bj.summary(run)}")
        return 0 if "error" not in run else 1
    if args.collect:
        plan = bj.read_plan(args.plan_file) if args.plan_file else None
        runs, walls = bj.load_results(args.collect, plan)
        argv = bj.plan_argv(args.plan_file) if plan else ["tools/bench", "--collect", args.collect]
        args.out = args.collect
        return write_outputs(args, runs, argv, None)
    if not args.report_only and not os.path.exists(gq.KERNEL):
        sys.exit("bench: build/granule.elf missing: run `make all` first")
    argv = ["tools/bench"] + result_argv(sys.argv[1:])
    if args.sweep:
        return sweep(args, ["tools/bench"] + sys.argv[1:])
    if args.report_only:
        with open(os.path.join(args.out, "runs.json"), encoding="utf-8") as f:
            saved = json.load(f)
        runs = saved["runs"] + ([saved["micro"]] if saved["micro"] else [])
        timing = os.path.join(args.out, "timing.json")
        walls = None
        if args.docs and os.path.exists(timing):    # the measured run's wall time, for the docs
            with open(timing, encoding="utf-8") as f:
                saved_timing = json.load(f)
            per_job, args.commit = saved_timing.get("per_job", {}), saved_timing.get("commit")
            args.qemu = saved_timing.get("qemu")
            args.parallel, walls = saved_timing["parallel"], {
                "_total": saved_timing["wall_s"],
                "_runs": round(sum(v for k, v in per_job.items() if not k.startswith("_")), 1)}
        return write_outputs(args, runs, saved["argv"], walls)
    jobs = matrix_jobs(args)
    if args.plan:
        bj.write_plan(args.plan, jobs, argv)
        print(f"bench: wrote {len(jobs)} jobs to {args.plan}")
        return 0
    args.commit = gq.source_commit()       # before the runs: what they measure, and on what
    args.qemu = gq.qemufetch.version().replace("QEMU emulator version ", "QEMU ")
    t0 = time.time()
    runs, walls = bj.run_all(jobs, args.parallel, args.timeout,
                             sink=lambda run, wall: bj.save_result(args.out, run, wall),
                             resume=args.out if args.resume else None)
    walls["_total"] = round(time.time() - t0, 1)
    print(f"bench: {len(jobs)} runs in {bj.hms(walls['_total'])} with -j{args.parallel}")
    return write_outputs(args, runs, argv, walls)
