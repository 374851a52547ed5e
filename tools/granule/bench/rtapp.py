"""tools/bench_rtapp.py - every rt-app workload of workloads/ on Granule's presets and on Debian's Linux.

  tools/bench_rtapp.py [--presets A,B] [--workloads a.json,b.json] [--linux | --no-linux] [--quick]
                       [-j N] [--timeout S] [--out DIR] [--docs] [--report-only]

The boot module build/rt-app/rt-app.tar (Debian's rt-app 1.0 for i386, json-c, glibc and
workloads/, tools/fetch-rtapp) runs `sh /usr/share/granule/rt-app-logs workloads/FILE` on Granule
(every preset of tools/presets; --quick: linux-2.6.35, commit-0bf377bbb0be, linux-6.12) and,
through tools/linux-peer, on Debian's Linux 6.1 (commit-0bf377bbb0be's knobs) and 6.12 (EEVDF),
under the same QEMU -icount, at HZ=250 (Debian's) on both (docs/RTAPP.md).

rt-app has no randomness: a workload is the same threads doing the same work every run, and
under -icount a run is exact (the same image and file print the same logs), so there are no load
seeds here and one run per cell is the whole measurement.

Each run's logs are read with granule/rtapp.py (split_logs); the figures are per task (a task's
instances pooled), over the periods that ended in a timer wait (c_period > 0): wu_lat's
nearest-rank percentiles 50/90/99, its maximum and mean, and slack's minimum and mean, in µs, with
the periods counted.  A task without a timer (a hog, a consumer) has its periods counted only.

Output: DIR/RTAPP.md (default results/rtapp), DIR/rtapp.jsonl (one JSON object a line per task
and configuration, bench "rt-app"), DIR/rtapp-WORKLOAD-TASK.{png,svg} (wu_lat over time, one
panel per configuration, for the tasks of PLOTS), the runs in DIR/jobs (tools/granule/bench/jobs.py);
--report-only rebuilds them from the runs.  --docs also writes the section between
docs/RESULTS.md's RTAPP markers, docs/results/rtapp.md (which tools/bench --docs keeps) and the
SVGs under docs/results/.  `make bench` runs it.
Imports bench/common.py, bench/jobs.py, bench/rt.py (its Linux kernels and docs splice),
granule/rtapp.py and granule/gnuplot.py only.
"""
import argparse
import glob
import json
import math
import os
import shlex
import shutil

from .. import rtapp
from ..gnuplot import gnuplot
from ..paths import ROOT
from . import common as bc
from . import jobs as bj
from . import rt

MODULE = "build/rt-app/rt-app.tar"
WORKLOADS = os.path.join(ROOT, "workloads")
LOGS = "sh /usr/share/granule/rt-app-logs"
HZ = bc.LINUX_HZ
QUICK_PRESETS = ["linux-2.6.35", "commit-0bf377bbb0be", "linux-6.12"]
# (workload, task): wu_lat over time, one panel per configuration
PLOTS = [("experiment-2010.json", "periodic"), ("mixed.json", "fair")]
PERCENTILES = (50, 90, 99)

BEGIN = "<!-- RTAPP written by tools/bench_rtapp.py --docs; tools/bench --docs keeps it -->"
END = "<!-- /RTAPP -->"


# ---- jobs ------------------------------------------------------------------------------

def workload_names(wanted=None, directory=WORKLOADS):
    """The files of workloads/ (or WANTED of them), sorted; SystemExit naming an unknown one."""
    have = sorted(os.path.basename(p) for p in glob.glob(os.path.join(directory, "*.json")))
    if not wanted:
        return have
    unknown = [w for w in wanted if w not in have]
    if unknown:
        raise SystemExit(f"bench_rtapp: --workloads: unknown {', '.join(unknown)} "
                         f"(one of {', '.join(have)})")
    return wanted


def job(kernel, preset, workload, cfg):
    """One boot: rt-app-logs on WORKLOAD; THREADS is the number of logs it must print."""
    cmd = f"{LOGS} workloads/{workload}"
    j = dict(kernel=kernel, preset=preset, mode=workload, load="none", hz=HZ, seed=1, bench="rtapp",
             module=MODULE, threads=len(rtapp.threads(cfg)), label=f"rtapp {kernel} {preset} {workload}")
    if kernel == bc.GRANULE:
        j["cmdline"] = f"sched_preset={preset} hz={HZ} run=\"{cmd}\""
    else:
        j["run"] = f"/bin/busybox {cmd}"     # the peer's PATH is /: the shell named in full
    return j


def plan(presets, workloads, linux, directory=WORKLOADS):
    """Every workload on every preset, then on each Linux kernel; ids in that order."""
    cfgs = {w: rtapp.load(os.path.join(directory, w)) for w in workloads}
    jobs = [job(bc.GRANULE, p, w, cfgs[w]) for w in workloads for p in presets]
    jobs += [job(k, p, w, cfgs[w]) for w in workloads for k, p in (rt.LINUX if linux else [])]
    for i, j in enumerate(jobs, 1):
        j["id"] = f"{i:04d}"
        j["image"] = bj.image_hash(j["kernel"])
    return jobs


# ---- figures ---------------------------------------------------------------------------

def percentile(values, p):
    """The nearest-rank P-th percentile: the smallest value with at least P % of VALUES at or
    below it (sorted[ceil(P / 100 * n) - 1]); 1..10 gives 5, 9 and 10 for 50, 90 and 99."""
    s = sorted(values)
    return s[max(1, math.ceil(p * len(s) / 100)) - 1]


def task_rows(cfg, logs):
    """{task: its period rows, instances pooled} in the file's order, from {log path: rows}."""
    paths, names = rtapp.log_paths(cfg), rtapp.threads(cfg)
    out = {name: [] for _, name, _ in names}
    for i, name, _ in names:
        out[name] += logs.get(paths[i], [])
    return out


def task_figures(rows, instances):
    """One task's figures: periods (every row), and over the rows that waited for a timer
    (c_period > 0) wu_lat's percentiles, max and mean and slack's min and mean, in µs."""
    f = {"threads": instances, "periods": len(rows)}
    timed = [r for r in rows if r["c_period"] > 0]
    if timed:
        wu = [r["wu_lat"] for r in timed]
        f.update({f"wu_lat_p{p}_us": percentile(wu, p) for p in PERCENTILES})
        f.update(wu_lat_max_us=max(wu), wu_lat_mean_us=round(sum(wu) / len(wu), 1),
                 slack_min_us=min(r["slack"] for r in timed),
                 slack_mean_us=round(sum(r["slack"] for r in timed) / len(timed), 1), timed_periods=len(timed))
    return f


def results(runs, directory=WORKLOADS):
    """One object per (run, task): the bench's JSON lines (bench "rt-app"), in run order."""
    out = []
    for run in runs:
        if "error" in run:
            continue
        cfg = rtapp.load(os.path.join(directory, run["mode"]))
        count = {}
        for _, name, _ in rtapp.threads(cfg):
            count[name] = count.get(name, 0) + 1
        for name, rows in task_rows(cfg, run["logs"]).items():
            out.append(dict(bench="rt-app", kernel=run["kernel"], preset=run["preset"], hz=run["hz"],
                            workload=run["mode"], task=name, **task_figures(rows, count[name])))
    return out


def configurations(runs):
    """(kernel, preset) in plan order: Granule's presets, then the Linux kernels."""
    return list(dict.fromkeys((r["kernel"], r["preset"]) for r in runs))


def cell(res, key):
    return bc.fnum(res.get(key), "{:g}") if res else "–"


def table(workload, res, configs):
    """The workload's table: per task, a row per configuration."""
    mine = [r for r in res if r["workload"] == workload]
    lines = ["| task | kernel | preset | periods | wu_lat p50 | p90 | p99 | max | mean | slack min | "
             "slack mean |", "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for task in dict.fromkeys(r["task"] for r in mine):
        for kernel, preset in configs:
            r = next((x for x in mine if (x["task"], x["kernel"], x["preset"]) == (task, kernel, preset)),
                     None)
            if r is None:
                continue
            n = f"{r['periods']}" + (f" ({r['threads']} threads)" if r["threads"] > 1 else "")
            figs = [cell(r, f"wu_lat_p{p}_us") for p in PERCENTILES] + \
                [cell(r, k) for k in ("wu_lat_max_us", "wu_lat_mean_us", "slack_min_us", "slack_mean_us")]
            lines.append(f"| {task} | {rt.who(kernel)} | {preset} | {n} | " + " | ".join(figs) + " |")
    return lines


def plot_name(workload, task):
    return bc.safe(f"rtapp-{workload.rsplit('.', 1)[0]}-{task}")


def plot(runs, workload, task, out, directory=WORKLOADS):
    """OUT/rtapp-WORKLOAD-TASK.{png,svg}: the task's wu_lat against its period's start, one
    panel per configuration on one log scale (0 drawn at 1: an overrun period); False if no run."""
    series, cfg = [], rtapp.load(os.path.join(directory, workload))
    for run in runs:
        if run["mode"] != workload or "error" in run:
            continue
        rows = task_rows(cfg, run["logs"]).get(task, [])
        rows = sorted((r["rel_st"], r["wu_lat"]) for r in rows if r["c_period"] > 0)
        if rows:
            series.append((f"{rt.who(run['kernel'])} {run['preset']}", rows))
    if not series:
        return False
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    top = 10 ** math.ceil(math.log10(max(max(w for _, w in rows) for _, rows in series) + 1))
    cols = 3
    nrows = -(-len(series) // cols)
    script = ["set terminal @TERM\nset output '@OUT'",
              f"set multiplot layout {nrows},{cols} title '{workload}, task {task}: wu_lat (us, log; 0 at 1) "
              f"against the start of its period (s), HZ={HZ}'",
              "set logscale y\nset grid\nunset key\nset xtics 0.5", f"set yrange [0.8:{top}]",
              f"set xrange [0:{cfg.get('global', {}).get('duration', '*')}]"]
    for i, (title, rows) in enumerate(series):
        name = os.path.join(data, bc.safe(f"{plot_name(workload, task)}-{title}") + ".dat")
        with open(name, "w", encoding="utf-8") as f:
            f.writelines(f"{t / 1e6:.6f} {max(w, 1)}\n" for t, w in rows)
        script += [f"set title '{title}' font ',10'",
                   f"plot '{name}' using 1:2 with points pt 7 ps 0.4 lt {i % len(bc.PALETTE) + 1}"]
    script.append("unset multiplot")
    gnuplot(bc.COLOURS + "\n".join(script) + "\n", os.path.join(out, plot_name(workload, task)),
            terms=((f"pngcairo noenhanced size 1200,{260 * nrows + 60}", "png"),
                   (f"svg noenhanced size 1200,{260 * nrows + 60}", "svg")))
    return True


def report(runs, argv, commit, res, pictures, figdir=""):
    """RTAPP.md's lines; PICTURES: the (workload, task) plots drawn, under FIGDIR."""
    workloads = list(dict.fromkeys(r["mode"] for r in runs))
    kernels = sorted({r["kernel"] for r in runs} - {bc.GRANULE})
    lines = ["## rt-app's workloads on Granule and on Linux", "",
             f"Produced by `{shlex.join(argv)}` (tools/bench_rtapp.py) on the image and programs built from "
             f"commit `{commit}`; Debian's rt-app 1.0 for i386 from the boot module {MODULE} on "
             + ("Granule and " + " and ".join(rt.who(k) for k in kernels) if kernels else "Granule")
             + (" (Linux 6.1 with commit-0bf377bbb0be's knobs)" if "linux-6.1" in kernels else "")
             + ", QEMU `-icount shift=0,sleep=off`, "
             f"HZ={HZ}; each run is `{LOGS} workloads/FILE` (docs/RTAPP.md).", "",
             "rt-app has no randomness and a run under -icount is exact, so each cell is one run and "
             "there are no load seeds. Figures in µs, per task (its instances pooled), over the periods "
             "that ended waiting for a timer: `wu_lat` (from the timer's expiry to the thread running) "
             "as nearest-rank percentiles, maximum and mean, and `slack` (the period left when the work "
             "was done; negative: overrun) as minimum and mean. A task without a timer has its periods "
             "counted only (–).", ""]
    for workload in workloads:
        lines += [f"### `{workload}`", ""] + table(workload, res, configurations(runs)) + [""]
        for w, task in pictures:
            if w == workload:
                lines += [f"![wu_lat over time, {workload} {task}]({figdir}{plot_name(w, task)}.svg)", ""]
    bad = [r["label"] for r in runs if "error" in r]
    if bad:
        lines += [f"Runs without a result ({len(bad)}): " + "; ".join(bad), ""]
    return lines[:-1]


# ---- docs ------------------------------------------------------------------------------

def write_docs(lines, out, pictures):
    """docs/results/rtapp.md and the SVGs, and the section in docs/RESULTS.md: replaced between
    its markers, or the first time put after the RTTESTS section (as tools/bench --docs orders them)."""
    rt.publish("rtapp.md", BEGIN, END, "\n".join(lines), after=rt.END, root=ROOT)
    for w, task in pictures:
        shutil.copy(os.path.join(out, plot_name(w, task) + ".svg"), os.path.join(ROOT, "docs", "results"))
    print("bench_rtapp: wrote docs/results/rtapp.md, its plots and its section in docs/RESULTS.md")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", help="comma list of files in workloads/ (default: all)")
    rt.options(ap, QUICK_PRESETS, 300, "rtapp")
    args = ap.parse_args(argv)
    names = bc.preset_names()
    presets = args.presets.split(",") if args.presets else QUICK_PRESETS if args.quick else names
    unknown = [p for p in presets if p not in names]
    if unknown:
        raise SystemExit(f"bench_rtapp: --presets: unknown {', '.join(unknown)} (one of {', '.join(names)})")
    workloads = workload_names(args.workloads.split(",") if args.workloads else None)
    if not args.report_only and not os.path.exists(os.path.join(ROOT, MODULE)):
        raise SystemExit(f"bench_rtapp: no {MODULE}: run `make deps` (tools/fetch-rtapp) first")
    linux = args.linux if args.linux is not None else os.environ.get("LINUX", "1") != "0"
    cmd, runs = rt.measured("bench_rtapp", args, argv, lambda: plan(presets, workloads, linux))
    res = results(runs)
    with open(os.path.join(args.out, "rtapp.jsonl"), "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in res)
    pictures = [(w, t) for w, t in PLOTS if plot(runs, w, t, args.out)]
    lines = report(runs, cmd["argv"], cmd["commit"], res, pictures)
    with open(os.path.join(args.out, "RTAPP.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if args.docs:
        write_docs(report(runs, cmd["argv"], cmd["commit"], res, pictures, "results/"), args.out, pictures)
    return 1 if any("error" in r for r in runs) else 0
