"""tools/bench_cost.py - the notification path's cost: cost-matched rows and the amplification sweep.

  tools/bench_cost.py [--seeds K] [--duration S] [-j N] [--out DIR] [--pads 0,5,10,20,40]
                      [--no-sweep] [--report-only] [--docs]

Every thread-mode RESULT line carries the SIGEV_THREAD helper's and the
notification threads' CPU time per expiry (helper_cpu_us, notify_cpu_us, read
from their CPU-time clocks by the user library) and the pad in force
(notify_pad_us: N µs of CPU the helper burns per expiry, an environment word of
the user library, the same on both kernels; docs/EXPERIMENT.md).  This tool
runs kbuild:10 in thread mode at HZ=250 for K load seeds:

  1. the raw pairs: Granule and Linux (tools/linux-peer) for Linux 6.12's
     defaults, NO_RUN_TO_PARITY, slice_us=100, base slice 3 ms, NO_PLACE_LAG
     and Linux 6.1's CFS (linux-2.6.35's knobs), unpadded;
  2. the pad: per seed, Linux's helper CPU per expiry minus Granule's, median
     over the seeds, rounded, >= 0.  The helper's cost is the term PLACE_LAG
     amplifies (it keeps its lag from one expiry to the next: t_wait ~ (N-1)d,
     docs/SCHEDULER.md); a notification thread starts at V and dies, so its
     cost counts once, and matching the sum would over-pad the helper by
     Linux's dearer notification thread (1.7 µs there, ~20 µs of latency);
  3. the cost-matched rows: each Granule preset again with that pad, the
     per-seed Granule/Linux ratios as median [min–max]; and EEVDF's gain
     (linux-2.6.35's average over linux-6.12's) raw, cost-matched and on
     Linux (tools/debate-figures copies it into docs/DEBATE.md);
  4. the sweep (unless --no-sweep): pads 0, 5, 10, 20, 40 µs on Granule's
     EEVDF and CFS and on Linux 6.12 and 6.1, plotted together (gnuplot, log
     scale), with the least-squares slope (µs of latency per µs of pad)
     printed, and both kernels' EEVDF averages fitted against the helper's
     measured CPU and read at Linux's: the comparison at exactly equal cost.

It writes DIR/COST.md (default results/cost) and DIR/sweep.{png,svg}; the
runs are saved one by one in DIR/jobs (tools/granule/bench/jobs.py), --report-only
rebuilds the report from them.  --docs also writes the section into
docs/results/cost.md (+ cost-sweep.svg) and between docs/RESULTS.md's COST
markers (appended if missing; tools/bench --docs keeps it, as the soak's).
`make bench` runs it after the matrix.
Imports bench/jobs.py, granule/stats.py and bench/eevdf.py (ratio_text) only (downward).
"""
import argparse
import os
import shutil
import statistics
import subprocess

from .. import stats as bs
from . import jobs as bj
from .eevdf import ratio_text

from ..paths import ROOT
HZ = 250
LOAD = "kbuild:10"
PADS = (0, 5, 10, 20, 40)
# (Granule preset, Linux preset, Linux kernel): the rows that get a cost-matched twin
PAIRS = [("linux-6.12", "linux-6.12", "linux-6.12"),
         ("linux-6.12 sched_features=NO_RUN_TO_PARITY", "linux-6.12-no-run-to-parity", "linux-6.12"),
         ("linux-6.12 slice_us=100", "linux-6.12-slice100us", "linux-6.12"),
         ("linux-6.12 sched_base_slice_ns=3000000", "linux-6.12-slice3ms", "linux-6.12"),
         ("linux-6.12 sched_features=NO_PLACE_LAG", "linux-6.12-no-place-lag", "linux-6.12"),
         ("linux-2.6.35", "linux-2.6.35", "linux-6.1")]
SWEEP = [("Granule EEVDF", "granule", "linux-6.12"), ("Granule CFS", "granule", "linux-2.6.35"),
         ("Linux 6.12", "linux-6.12", "linux-6.12"), ("Linux 6.1", "linux-6.1", "linux-2.6.35")]


# ---- runs -> figures ---------------------------------------------------------------------

def wl(run):
    """The run's wakeup-latency RESULT, or None."""
    return run.get("results", {}).get("wakeup-latency")


def path_cost(run):
    """Helper + notification thread CPU per expiry, µs; None if not measured."""
    r = wl(run)
    if not r or r.get("helper_cpu_us", -1) < 0 or r.get("notify_cpu_us", -1) < 0:
        return None
    return r["helper_cpu_us"] + r["notify_cpu_us"]


def helper_cost(run):
    """The helper's CPU per expiry, µs: the amplified part of the path; None if not measured."""
    r = wl(run)
    return r["helper_cpu_us"] if r and r.get("helper_cpu_us", -1) >= 0 else None


def pad_of(run):
    r = wl(run)
    return r.get("notify_pad_us", 0) if r else None


def pick(runs, kernel, preset, pad=None):
    """{seed: run} of KERNEL's PRESET runs (with pad PAD, if given)."""
    return {r["seed"]: r for r in runs
            if r["kernel"] == kernel and r["preset"] == preset and wl(r)
            and (pad is None or pad_of(r) == pad)}


def matched_pad(runs, linux_kernel="linux-6.12", linux_preset="linux-6.12", granule_preset="linux-6.12"):
    """Linux's helper CPU minus Granule's, per seed (unpadded runs), median, rounded, >= 0; None if no pair."""
    ours, theirs = pick(runs, "granule", granule_preset, 0), pick(runs, linux_kernel, linux_preset, 0)
    diffs = [helper_cost(theirs[s]) - helper_cost(ours[s]) for s in sorted(set(ours) & set(theirs))
             if helper_cost(theirs[s]) is not None and helper_cost(ours[s]) is not None]
    if not diffs:
        return None
    return max(0, int(round(statistics.median(diffs))))


def avg_ratios(ours, theirs):
    """Spread over the common seeds of OURS' avg / THEIRS' avg (granule.stats.Spread)."""
    avg = lambda group: {s: wl(r)["avg_us"] for s, r in group.items()}  # noqa: E731
    return bs.Spread(bs.ratio_per_seed(avg(ours), avg(theirs)).values())


def avg_ratio(ours, theirs):
    """Median over the common seeds of Granule avg / Linux avg; None if no common seed."""
    return avg_ratios(ours, theirs).median


def median_key(group, key):
    vals = [wl(r)[key] for r in group.values()]
    return statistics.median(vals) if vals else None


def fmt(v, f="{:.1f}"):
    return "-" if v is None else f.format(v)


def fmt_ratio(spread):
    """'1.03 [0.98–1.07]': median [min–max] over the seeds, flagged when the median misses 0.90-1.10."""
    v = spread.median
    if v is None:
        return "-"
    return spread.fmt("{:.2f}") + ("" if 0.90 <= v <= 1.10 else " (outside 0.90-1.10)")


def cost_cell(group):
    """'helper + notification thread' CPU per expiry (µs), medians over GROUP's runs; '-' if unmeasured."""
    h = [helper_cost(r) for r in group.values() if path_cost(r) is not None]
    n = [wl(r)["notify_cpu_us"] for r in group.values() if path_cost(r) is not None]
    return f"{statistics.median(h):.1f} + {statistics.median(n):.1f}" if h else "-"


def matched_table(runs, pad):
    """Markdown lines: each pair's Linux average, Granule's raw and cost-matched averages and ratios."""
    out = [f"Pad: {fmt(pad, '{}')} µs (Linux 6.12's measured helper CPU per expiry minus Granule's, median "
           "over seeds; the helper's is the cost PLACE_LAG amplifies).", "",
           "| Granule preset | Linux | Linux avg (µs) | Linux CPU, helper + thread (µs) | Granule avg "
           "| Granule CPU | ratio | cost-matched avg | cost-matched CPU | ratio |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for gp, lpreset, lk in PAIRS:
        theirs, ours = pick(runs, lk, lpreset, 0), pick(runs, "granule", gp, 0)
        padded = pick(runs, "granule", gp, pad) if pad else {}
        if not theirs and not ours:
            continue
        out.append(f"| {gp} | {lpreset} on {lk} | {fmt(median_key(theirs, 'avg_us'))} | {cost_cell(theirs)} "
                   f"| {fmt(median_key(ours, 'avg_us'))} | {cost_cell(ours)} "
                   f"| {fmt_ratio(avg_ratios(ours, theirs))} | {fmt(median_key(padded, 'avg_us'))} "
                   f"| {cost_cell(padded)} | {fmt_ratio(avg_ratios(padded, theirs))} |")
    return out


GAIN_TITLE = "## EEVDF's gain: CFS's average over EEVDF's"
CFS, EEVDF = PAIRS[-1], PAIRS[0]


def gain_table(runs, pad):
    """Markdown lines: linux-2.6.35's average over linux-6.12's, per seed, on each kernel; on Granule
    raw and cost-matched (both classes padded by PAD: CFS's latency does not follow the pad)."""
    rows = [("Granule, raw", "granule", "granule", 0),
            (f"Granule, cost-matched (pad {pad} µs)", "granule", "granule", pad),
            ("Linux: 6.1 with 2.6.35's knobs over 6.12", CFS[2], EEVDF[2], 0)]
    out = [GAIN_TITLE, "", "Per seed, the CFS configuration's average (linux-2.6.35's knobs) divided by EEVDF's "
           "(linux-6.12 defaults): how many times lower EEVDF's average is; median [min–max] over the seeds.",
           "", "| kernel | CFS avg (µs) | EEVDF avg (µs) | EEVDF's gain |", "|---|---|---|---|"]
    for label, ck, ek, p in rows:
        c = pick(runs, ck, CFS[1] if ck != "granule" else CFS[0], p) if p is not None else {}
        e = pick(runs, ek, EEVDF[1] if ek != "granule" else EEVDF[0], p) if p is not None else {}
        if c and e:
            out.append(f"| {label} | {fmt(median_key(c, 'avg_us'))} | {fmt(median_key(e, 'avg_us'))} "
                       f"| {avg_ratios(c, e).fmt(ratio_text)} |")
    return out if len(out) > 6 else []


def fit_slope(points):
    """Least-squares (slope, intercept) of [(x, y)]; None with fewer than two distinct x."""
    if len({x for x, _ in points}) < 2:
        return None
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return slope, my - slope * mx


def sweep_points(runs):
    """{label: [(pad, avg_us)]}, one point per (pad, seed) run."""
    out = {}
    for label, kernel, preset in SWEEP:
        pts = sorted((pad_of(r), wl(r)["avg_us"]) for r in runs
                     if r["kernel"] == kernel and r["preset"] == preset and wl(r))
        if pts:
            out[label] = pts
    return out


def at_equal_cost(runs):
    """Markdown lines: Granule's and Linux's EEVDF averages fitted against the helper's measured CPU per
    expiry (every run of linux-6.12's defaults, padded or not), both read at Linux's unpadded helper CPU
    (median): the cost-matched comparison without the pad's rounding or one run's scatter."""
    fits = {}
    for label, kernel, preset in SWEEP[0], SWEEP[2]:
        pts = [(helper_cost(r), wl(r)["avg_us"]) for r in runs
               if r["kernel"] == kernel and r["preset"] == preset and wl(r) and helper_cost(r) is not None]
        fits[label] = fit_slope(pts)
    at = median_key(pick(runs, EEVDF[2], EEVDF[1], 0), "helper_cpu_us")
    if at is None or None in fits.values():
        return []
    (g, (gs, gi)), (lab, (ls, li)) = fits.items()
    yg, yl = gi + gs * at, li + ls * at
    return [f"Fitted against the helper's CPU per expiry (all runs of linux-6.12's defaults): {g} "
            f"{gs:.1f} µs of latency per µs, Linux 6.12 {ls:.1f}. At Linux's helper CPU ({at:.1f} µs) the "
            f"lines give {yg:.1f} µs on Granule and {yl:.1f} µs on Linux: Granule/Linux {yg / yl:.2f}."]


def sweep_table(points):
    lines = ["| kernel | " + " | ".join(f"pad {p} µs" for p in PADS) + " | slope (µs/µs) |",
             "|---|" + "---|" * len(PADS) + "---|"]
    for label, pts in points.items():
        cells = []
        for p in PADS:
            ys = [y for x, y in pts if x == p]
            cells.append(fmt(statistics.median(ys)) if ys else "-")
        fit = fit_slope(pts)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {fmt(fit[0] if fit else None)} |")
    return lines


def sweep_runs_table(runs):
    """Markdown lines: every sweep run of seed 1 (CPU per expiry, minimum and average), by kernel and pad."""
    lines = ["| kernel | pad (µs) | helper CPU (µs) | notification thread CPU (µs) | min (µs) | avg (µs) |",
             "|---|---|---|---|---|---|"]
    for label, kernel, preset in SWEEP:
        for r in sorted((r for r in runs if r["kernel"] == kernel and r["preset"] == preset and wl(r)
                         and r["seed"] == 1), key=pad_of):
            w = wl(r)
            lines.append(f"| {label} | {pad_of(r)} | {fmt(w['helper_cpu_us'])} | {fmt(w['notify_cpu_us'])} "
                         f"| {fmt(w['min_us'])} | {fmt(w['avg_us'])} |")
    return lines


def plot_sweep(points, out_base):
    """gnuplot: average latency against pad, one line per kernel; False if gnuplot is missing."""
    if not shutil.which("gnuplot") or not points:
        return False
    data = out_base + ".dat"
    with open(data, "w", encoding="utf-8") as f:
        for label, pts in points.items():
            f.write(f"# {label}\n")
            f.writelines(f"{x} {y}\n" for x, y in pts)
            f.write("\n\n")
    plots = ", ".join(f"'{data}' index {i} with linespoints title '{label}'"
                      for i, label in enumerate(points))
    for term, ext in (("pngcairo noenhanced size 900,560", "png"), ("svg noenhanced size 900,560", "svg")):
        script = (f"set terminal {term}\nset output '{out_base}.{ext}'\n"
                  "set xlabel 'notify_pad_us (µs of helper CPU per expiry)'\n"
                  "set ylabel 'average notification latency (µs, log scale)'\nset logscale y\n"
                  "set key center right\nset grid\n"
                  f"set title 'kbuild:10, thread mode, HZ={HZ}'\nplot {plots}\n")
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    return True


def report(runs, out_dir):
    """COST.md's lines (and the plot); prints the fitted slopes."""
    pad = matched_pad(runs)
    points = sweep_points(runs)
    lines = ["# The notification path's cost: cost-matched rows and the amplification sweep", "",
             f"kbuild:10, thread mode, HZ={HZ}; averages are medians over the load seeds, ratios the "
             "median of the per-seed Granule/Linux ratios with [min–max] beside it; CPU per expiry = "
             "helper_cpu_us + notify_cpu_us (the helper's, then one notification thread's).", ""]
    lines += matched_table(runs, pad)
    gain = gain_table(runs, pad)
    lines += [""] + gain if gain else []
    if points:
        lines += ["", "## Average latency against pad", ""] + sweep_table(points)
        equal = at_equal_cost(runs)
        lines += ["", *equal, ""] if equal else [""]
        lines += ["The sweep's runs (seed 1):", ""] + sweep_runs_table(runs)
        if plot_sweep(points, os.path.join(out_dir, "sweep")):
            lines += ["", "![sweep](sweep.png)"]
        for label, pts in points.items():
            fit = fit_slope(pts)
            if fit:
                print(f"bench_cost: {label}: slope {fit[0]:.1f} µs of latency per µs of pad "
                      f"(intercept {fit[1]:.1f} µs, {len(pts)} runs)")
    return lines


# ---- jobs ----------------------------------------------------------------------------------

def granule_cmdline(preset, duration, seed, pad):
    words = preset.split()
    parts = [f"sched_preset={words[0]}"] + words[1:] + [f"hz={HZ}", "run=experiment", "mode=thread",
                                                        f"load={LOAD}", f"duration={duration}",
                                                        f"seed={seed}"]
    if pad:
        parts.append(f"notify_pad_us={pad}")
    return " ".join(parts)


def linux_run(duration, seed, pad):
    run = f"experiment mode=thread load={LOAD} duration={duration} seed={seed}"
    return run + (f" notify_pad_us={pad}" if pad else "")


def job(kernel, preset, duration, seed, pad):
    j = {"kernel": kernel, "preset": preset, "mode": "thread", "load": LOAD, "hz": HZ, "seed": seed,
         "bench": "experiment", "pad_us": pad,
         "label": f"cost {kernel} {preset} seed={seed} pad={pad}"}
    if kernel == "granule":
        j["cmdline"] = granule_cmdline(preset, duration, seed, pad)
    else:
        j["run"] = linux_run(duration, seed, pad)
    return j


def raw_jobs(duration, seeds):
    out = []
    for gp, lpreset, lk in PAIRS:
        for s in seeds:
            out += [job(lk, lpreset, duration, s, 0), job("granule", gp, duration, s, 0)]
    return out


def later_jobs(duration, seeds, pad, pads, sweep):
    """The cost-matched twins (PAD) and, if SWEEP, the sweep's padded runs (seed 1)."""
    out = [job("granule", gp, duration, s, pad) for gp, _, _ in PAIRS for s in seeds] if pad else []
    if sweep:
        for _, kernel, preset in SWEEP:
            out += [job(kernel, preset, duration, 1, p) for p in pads if p and p != pad]
    return out


def number(jobs, start):
    for i, j in enumerate(jobs, start):
        j["id"] = f"{i:04d}"
    return jobs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=5, help="load seeds (5)")
    ap.add_argument("--duration", type=int, default=10, help="latency test seconds (10; >= 10 for headlines)")
    ap.add_argument("-j", "--parallel", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "cost"))
    ap.add_argument("--pads", default=",".join(map(str, PADS)), help="sweep pads, µs (0,5,10,20,40)")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--docs", action="store_true", help="also docs/results/cost.md and docs/RESULTS.md")
    args = ap.parse_args(argv)
    try:
        pads = [int(p) for p in args.pads.split(",")]
        if any(p < 0 or p > 1000 for p in pads):
            raise ValueError
    except ValueError:
        raise SystemExit(f"bench_cost: --pads {args.pads}: expected a comma list of integers 0..1000 (µs)")
    if args.seeds < 1 or args.duration < 1:
        raise SystemExit(f"bench_cost: --seeds {args.seeds} --duration {args.duration}: expected >= 1 each")
    os.makedirs(args.out, exist_ok=True)
    if not args.report_only:
        def save(run, wall):
            bj.save_result(args.out, run, wall)
        seeds = range(1, args.seeds + 1)
        first = number(raw_jobs(args.duration, seeds), 1)
        runs, _ = bj.run_all(first, args.parallel, sink=save)
        pad = matched_pad(runs)
        bj.run_all(number(later_jobs(args.duration, seeds, pad, pads, not args.no_sweep), len(first) + 1),
                   args.parallel, sink=save)
    runs, _ = bj.load_results(args.out)
    lines = report(runs, args.out)
    with open(os.path.join(args.out, "COST.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if args.docs:
        write_docs(lines, args.out)
    return 0


BEGIN, END = "<!-- COST written by tools/bench_cost.py --docs; tools/bench --docs keeps it -->", "<!-- /COST -->"


def docs_section(lines):
    """COST.md's lines as a RESULTS.md section between the COST markers."""
    body = [("#" + l) if l.startswith("#") else l for l in lines]
    body = [l.replace("](sweep.png)", "](results/cost-sweep.svg)") for l in body]
    return "\n".join([BEGIN] + body + [END]) + "\n"


def splice(text, section):
    """TEXT with SECTION in place of its COST block, or appended."""
    b, e = text.find(BEGIN), text.find(END)
    if b >= 0 and e > b:
        return text[:b] + section + text[e + len(END) + 1:]
    return text + ("\n" if text and not text.endswith("\n\n") else "") + section


def write_docs(lines, out):
    docs = os.path.join(ROOT, "docs")
    section = docs_section(lines)
    os.makedirs(os.path.join(docs, "results"), exist_ok=True)
    with open(os.path.join(docs, "results", "cost.md"), "w", encoding="utf-8") as f:
        f.write(section)
    if os.path.exists(os.path.join(out, "sweep.svg")):
        shutil.copy(os.path.join(out, "sweep.svg"), os.path.join(docs, "results", "cost-sweep.svg"))
    path = os.path.join(docs, "RESULTS.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(splice(text, section))
    print("bench_cost: wrote docs/results/cost.md and its section in docs/RESULTS.md")
