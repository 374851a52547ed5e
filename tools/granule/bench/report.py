"""tools/granule/bench/report.py - tables, plots and docs from tools/bench's runs.

A run is the dict granule.bench.jobs.run_job() returns: the job (id, label,
kernel, preset, mode, load, hz, seed, cmdline or run) plus results {bench
name: RESULT object}, hist [(lo_us, n)] and bucket_us.  A configuration is
(kernel, preset, mode, load, hz); it has one run per load seed, and every
table shows the median over seeds with [min–max] beside it.

  plots(runs, out)                  gnuplot PNG + SVG into OUT (raises GnuplotError)
  report(runs, micro, argv)         the Markdown report (a string)
  variants_tables(runs, argv)       the per-variant tables for docs/VARIANTS.md
  write_docs(runs, micro, argv, out, wall)   docs/RESULTS.md, docs/results/*.svg
                                    and the VARIANTS.md block between the
                                    BENCH-TABLES markers

Modules import downward only: this one composes the sections of
linux.py, eevdf.py, sim.py and trace.py over common.py's helpers
(common.py's docstring draws the layers).

Nothing here types a figure: every number comes from a run or from
tools/seeds.json (the published figures; docs/DEBATE.md has the sources).
"""
import os
import re
import shlex
import shutil

from ..gnuplot import gnuplot
from ..paths import ROOT
from ..peer import linux as linux_peer
from ..stats import Spread, ratio_per_seed, seeds_for_stable_verdict, verdict
from . import eevdf as bench_eevdf
from . import linux as bench_linux
from . import sim as bench_sim
from . import trace as bench_trace
from .common import (COLOURS, DEFAULT_HZ, GRANULE, HEADLINE_LOAD, LINUX_HZ, by_seed, config_name,
                     configurations, fnum, latency_result, published_rows, select, spread, write_cdf)

BEGIN = "<!-- BENCH-TABLES"
END = "<!-- /BENCH-TABLES -->"


def plot_distributions(groups, data, out):
    """CDF and histogram per mode at the headline load and HZ, one curve per preset."""
    for mode in ("thread", "signal"):
        mine = {c: g for c, g in groups.items() if c[2] == mode and g[0]["hist"]}
        if not mine:
            continue
        wanted = (HEADLINE_LOAD, DEFAULT_HZ)
        load, hz = wanted if any((c[3], c[4]) == wanted for c in mine) else \
            next((c[3], c[4]) for c in mine)
        chosen = [(c, write_cdf(g, data)) for c, g in mine.items() if (c[3], c[4]) == (load, hz)]
        what = f"{mode} mode, {load}, HZ={hz}, first seed"
        title = lambda c: c[1] if c[0] == GRANULE else f"{c[0]} {c[1]}"  # noqa: E731
        curves = ", ".join(f"'{data}/{n}.cdf' using 1:2 with steps title '{title(c)}'"
                           for c, n in chosen)
        gnuplot(f"set terminal @TERM\nset output '@OUT'\nset title 'Wakeup latency CDF, {what}'\n"
                "set xlabel 'latency (us)'\nset ylabel 'fraction of expiries'\nset logscale x\n"
                f"set key bottom right font ',8'\nset grid\n{COLOURS}plot {curves}\n",
                os.path.join(out, f"cdf-{mode}"))
        curves = ", ".join(f"'{data}/{n}.hist' using 1:2 with histeps title '{title(c)}'"
                           for c, n in chosen)
        gnuplot(f"set terminal @TERM\nset output '@OUT'\nset title 'Wakeup latency histogram, {what}'\n"
                "set xlabel 'latency (us, bucket lower bound)'\nset ylabel 'expiries'\n"
                f"set logscale y\nset key top right font ',8'\nset grid\n{COLOURS}plot {curves}\n",
                os.path.join(out, f"hist-{mode}"))


def plots(runs, out):
    """CDF + histogram per mode, max/avg bars with the seeds' range as error bars,
    kbuild throughput against max latency."""
    groups = {c: g for c, g in configurations(runs).items() if latency_result(g[0])}
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    plot_distributions(groups, data, out)
    bench_linux.plot_cdfs(runs, data, out)
    bars = {c: g for c, g in groups.items() if c[2] == "thread" and c[3] != "none"} or groups
    labels = [config_name(config).replace(" thread", "") for config in bars]
    with open(os.path.join(data, "bars.dat"), "w", encoding="utf-8") as f:
        for label, group in zip(labels, bars.values()):
            mx, avg = spread(group, "max_us"), spread(group, "avg_us")
            f.write(f"\"{label}\" {mx.median} {mx.lo} {mx.hi} {avg.median} {avg.lo} {avg.hi}\n")
    # vertical labels, the margin as tall as the longest (~0.3 lines a character at font 7),
    # and at least 20 px a bar: the variants' labels are long and the full matrix has ~50 bars
    width, margin = max(900, 20 * len(labels) + 160), max(9, int(0.3 * max(map(len, labels))) + 2)
    gnuplot("set terminal @TERM\nset output '@OUT'\n"
            "set title 'Wakeup latency: max and average (median over seeds, bars: min-max)'\n"
            "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
            "set style fill solid 0.7\nset ylabel 'us'\nset xtics rotate by 90 right font ',7'\n"
            f"set grid ytics\nset bmargin {margin}\n"
            f"plot '{data}/bars.dat' using 2:3:4:xtic(1) title 'max', '' using 5:6:7 title 'avg'\n",
            os.path.join(out, "max-avg"),
            terms=((f"pngcairo noenhanced size {width},{560 + 10 * margin}", "png"),
                   (f"svg noenhanced size {width},{560 + 10 * margin}", "svg")))
    head = {c: g for c, g in groups.items() if "kbuild-load" in g[0]["results"]
            and (c[0], c[2], c[3], c[4]) == (GRANULE, "thread", HEADLINE_LOAD, DEFAULT_HZ)}
    if not head:
        head = {c: g for c, g in groups.items() if "kbuild-load" in g[0]["results"]}
    with open(os.path.join(data, "tput.dat"), "w", encoding="utf-8") as f:
        for config, group in head.items():
            jobs, mx = spread(group, "jobs_per_s", "kbuild-load"), spread(group, "max_us")
            f.write(f"{jobs.median} {mx.median} {mx.lo} {mx.hi} \"{config[1]}\"\n")
    gnuplot("set terminal @TERM\nset output '@OUT'\n"
            f"set title 'kbuild throughput vs max wakeup latency (thread, {HEADLINE_LOAD})'\n"
            "set xlabel 'kbuild-load jobs/s (median)'\nset ylabel 'max latency (us)'\nset grid\n"
            f"plot '{data}/tput.dat' using 1:2:3:4 with yerrorbars pt 7 notitle, "
            "'' using 1:2:5 with labels offset 0,1 font ',7' notitle\n",
            os.path.join(out, "throughput-vs-latency"))


def matrix_tables(runs):
    """One table per mode: every Granule configuration, median [min–max] over seeds."""
    lines = []
    groups = configurations(runs)
    for mode in ("thread", "signal"):
        rows = {c: g for c, g in groups.items() if c[0] == GRANULE and c[2] == mode}
        if not rows:
            continue
        kind = "SIGEV_THREAD" if mode == "thread" else "SIGEV_SIGNAL"
        lines += [f"## {mode} mode ({kind})", "",
                  "| preset | load | HZ | seeds | max µs | avg µs | p99 µs | p50 | p99.9 | missed "
                  "| kbuild jobs/s | work_frac | video % met |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for (_, preset, _, load, hz), group in rows.items():
            if not any(latency_result(r) for r in group):
                lines.append(f"| {preset} | {load} | {hz} | {len(group)} | no result "
                             "| | | | | | | | |")
                continue
            cell = lambda key, bench="wakeup-latency", fmt="{:.1f}": \
                spread(group, key, bench).fmt(fmt)  # noqa: E731
            lines.append(
                f"| {preset} | {load} | {hz} | {len(group)} | {cell('max_us')} | {cell('avg_us')} | "
                f"{cell('p99_us')} | {cell('p50_us')} | {cell('p999_us')} | "
                f"{cell('missed', fmt='{:g}')} | {cell('jobs_per_s', 'kbuild-load', '{:.2f}')} | "
                f"{cell('work_frac', 'kbuild-load', '{:.3f}')} | "
                f"{cell('deadlines_met_pct', 'video-load')} |")
        lines += ["", f"Published figures, {mode} mode (uniprocessor 2.0 GHz Pentium M; tags: "
                  "docs/DEBATE.md):", "",
                  "| source | kernel / setting | ~preset | load | max µs | avg µs | missed |",
                  "|---|---|---|---|---|---|---|"]
        for row in published_rows():
            if row["mode"] == mode:
                lines.append(f"| {row['source']} | {row['kernel']} | {row['preset'] or '–'} | "
                             f"{row['load']} | {fnum(row['max_us'])} | {fnum(row['avg_us'])} | "
                             f"{fnum(row['missed'], '{}')} |")
        lines += ["", f"![CDF](cdf-{mode}.svg) ![histogram](hist-{mode}.svg)", ""]
    return lines


def published(source_prefix, preset, key, mode="thread"):
    for row in published_rows():
        if row["source"].startswith(source_prefix) and row["preset"] == preset \
                and row["mode"] == mode:
            return row[key]
    return None


def published_ratio(source, a, b, key, mode="thread"):
    x, y = published(source, a, key, mode), published(source, b, key, mode)
    return f"{x / y:.2f} ({source})" if x is not None and y else "–"


# The 2010 claims: (claim, quantity, (preset, mode, key) over (preset, mode, key), published).
CLAIMS = [
    ("2.6.35's max is above 0bf377bbb0be's", "max(2.6.35) / max(0bf)",
     ("linux-2.6.35", "thread", "max_us"), ("commit-0bf377bbb0be", "thread", "max_us"),
     ("0bf (Ingo)", "linux-2.6.35", "commit-0bf377bbb0be", "max_us", "thread")),
    ("NO_START_DEBIT lowers the average", "avg(0bf) / avg(no-start-debit)",
     ("commit-0bf377bbb0be", "thread", "avg_us"), ("no-start-debit", "thread", "avg_us"),
     ("SN", "commit-0bf377bbb0be", "no-start-debit", "avg_us", "thread")),
    ("START_NICE lowers the max further", "max(no-start-debit) / max(start-nice)",
     ("no-start-debit", "thread", "max_us"), ("start-nice", "thread", "max_us"),
     ("SN", "no-start-debit", "start-nice", "max_us", "thread")),
    ("dyn-gran lowers the max", "max(2.6.35) / max(dyn-gran)",
     ("linux-2.6.35", "thread", "max_us"), ("dyn-gran", "thread", "max_us"),
     ("M1/2", "linux-2.6.35", "dyn-gran", "max_us", "thread")),
    ("signals are far faster than threads", "avg thread / avg signal, 2.6.35",
     ("linux-2.6.35", "thread", "avg_us"), ("linux-2.6.35", "signal", "avg_us"),
     ("M1/2", "linux-2.6.35", "linux-2.6.35", "avg_us", None)),
]


def claim_ratios(runs, side_a, side_b, hz):
    """{seed: ratio} of one claim at one HZ."""
    (pa, ma, ka), (pb, mb, kb) = side_a, side_b
    return ratio_per_seed(by_seed(select(runs, pa, ma, hz=hz), ka),
                          by_seed(select(runs, pb, mb, hz=hz), kb))


def verdict_table(runs):
    """The seeds' qualitative claims as computed verdicts over the load seeds."""
    lines = [f"## The 2010 claims, judged over load seeds ({HEADLINE_LOAD})", "",
             "Each claim is a ratio that exceeds 1 when the claim holds. The ratio is computed per "
             "load seed (the same seed on both sides); the verdict counts the seeds where it holds. "
             "\"Seeds needed\" is how many seeds, taken in order, it took for the majority's "
             "direction to stop changing.", ""]
    rows = []
    for claim, quantity, side_a, side_b, pub in CLAIMS:
        source, pa, pb, key, mode = pub
        if mode is None:    # thread over signal: the same preset in two modes
            a, b = published(source, pa, key, "thread"), published(source, pb, key, "signal")
            theirs = f"{a / b:.2f} ({source})" if a is not None and b else "–"
        else:
            theirs = published_ratio(source, pa, pb, key, mode)
        for hz in (DEFAULT_HZ, LINUX_HZ):
            ratios = claim_ratios(runs, side_a, side_b, hz)
            if not ratios:
                continue
            per_seed = " ".join(f"{v:.2f}" for v in ratios.values())
            rows.append(f"| {claim} | {quantity} | {hz} | {per_seed} | "
                        f"{Spread(list(ratios.values())).fmt('{:.2f}')} | {theirs} | "
                        f"{verdict(ratios)} | {fnum(seeds_for_stable_verdict(ratios), '{}')} |")
    if rows:
        lines += ["| claim | quantity | HZ | ratio per seed | median [min–max] | published | verdict "
                  "| seeds needed |", "|---|---|---|---|---|---|---|---|"] + rows
    else:
        lines.append("No claim has both of its configurations in this matrix.")
    return lines + [""] + seed_movement(runs)


def seed_movement(runs):
    """How much the maxima move between seeds, over every multi-seed configuration."""
    moves = []
    for config, group in configurations(runs).items():
        rel = spread(group, "max_us").rel_range()
        if len(group) > 1 and rel is not None:
            moves.append((rel, config))
    if not moves:
        return []
    moves.sort()
    median = Spread([m for m, _ in moves]).median
    worst, config = moves[-1]
    return [f"How much the seed moves the maximum: over {len(moves)} configurations with several "
            f"seeds, (max − min) / median of the maximum latency is {median * 100:.0f} % at the "
            f"median and {worst * 100:.0f} % at worst ({config_name(config)}).", ""]


def fidelity_table(runs):
    """Granule beside real Linux (tools/linux-peer): the same binaries, per seed."""
    groups = configurations(runs)
    linux = [c for c in groups if c[0] != GRANULE]
    if not linux:
        return []
    lines = ["## Granule beside Linux (same binaries, same QEMU, HZ=250)", "",
             "Linux runs come from `tools/linux-peer` (docs/EXPERIMENT.md, \"Granule beside Linux\"): "
             "Debian's Linux 6.1 set to the 2.6.35 knobs through debugfs, and Linux 6.12 (EEVDF) beside "
             "Granule's EEVDF class, with its defaults and with each variant's setting. Each row pairs a "
             "Linux run with its Granule twin (the same knobs: a preset, or a variant's label) in the same "
             "mode, load and seed at `hz=250`. Ratio = Granule / Linux.", ""]
    rows, paired = [], set()
    for kernel, preset, mode, load, hz in linux:
        twin = linux_peer.GRANULE_TWIN.get(preset)
        if not twin:
            continue
        mine = {r.get("seed", 1): latency_result(r) for r in select(runs, twin, mode, load, hz)}
        theirs = {r.get("seed", 1): latency_result(r)
                  for r in select(runs, preset, mode, load, hz, kernel)}
        for seed in sorted(set(mine) & set(theirs)):
            paired.add((kernel, preset, mode, load, hz))
            g, l = mine[seed], theirs[seed]
            figs = lambda w: " / ".join(fnum(w[k]) for k in ("max_us", "avg_us", "p99_us"))  # noqa
            ratios = [f"{g[k] / l[k]:.2f}" if l[k] else "–" for k in ("max_us", "avg_us", "p99_us")]
            rows.append(f"| {preset} | {twin} | {mode} | {seed} | {figs(g)} | {figs(l)} | "
                        + " | ".join(ratios) + " |")
    if rows:
        lines += ["| Linux run | Granule twin | mode | seed | Granule max / avg / p99 µs "
                  "| Linux max / avg / p99 µs | ratio max | ratio avg | ratio p99 |",
                  "|---|---|---|---|---|---|---|---|---|"] + rows
    else:
        lines.append(f"No Linux run has its Granule twin in this matrix (the twins run at "
                     f"`hz={LINUX_HZ}` under {HEADLINE_LOAD}).")
    lines += [""] + bench_linux.differences(runs)
    alone = [c for c in linux if c not in paired]
    if alone:
        lines += ["## Linux runs without a Granule twin in the matrix", "",
                  "What these settings do on the real kernel: Linux 6.1 with HRTICK has no Granule "
                  "counterpart, and a run whose twin is not in this matrix is listed here too.", "",
                  "| Linux run | mode | load | seeds | max µs | avg µs | p99 µs |",
                  "|---|---|---|---|---|---|---|"]
        for config in alone:
            group = groups[config]
            lines.append(f"| {config[0]} {config[1]} | {config[2]} | {config[3]} | {len(group)} | "
                         f"{spread(group, 'max_us').fmt()} | {spread(group, 'avg_us').fmt()} | "
                         f"{spread(group, 'p99_us').fmt()} |")
        lines += [""]
    return lines


MICRO_ROWS = [("null syscall (getppid)", "null_syscall_ns"),
              ("clock_gettime(MONOTONIC)", "clock_gettime_ns"),
              ("context switch, 2 processes, sched_yield (incl. the yield)", "ctxsw_yield_ns"),
              ("thread create+join", "thread_ns"), ("fork+exit+wait", "fork_ns"),
              ("fork+exec+exit+wait", "fork_exec_ns"),
              ("pipe ping-pong, 2 processes, per switch (incl. a read and a write)", "pipe_pingpong_ns"),
              ("one-shot timer 100 µs → sigwaitinfo: wake late by", "timer_wake_late_ns")]


def micro_tables(micro):
    if not micro or "microbench" not in micro["results"]:
        return ["## Kernel microbenchmarks", "", "*microbench run gave no result*", ""]
    bench = micro["results"]["microbench"]
    lines = ["## Kernel microbenchmarks", "",
             f"`user/bench/microbench.c`, preset {bench['preset']}, HZ {bench['hz']}; virtual ns = "
             f"guest instructions under `-icount shift=0`.  Command line: `{micro['cmdline']}`.", "",
             "The last column is Granule's cost over Linux 6.1's for the same operation under the same "
             "QEMU (`KEY_vs_linux` in microbench's RESULT line; see docs/FASTPATHS.md).", "",
             "| operation | ns | × Linux 6.1 |", "|---|---|---|"]
    lines += [f"| {name} | {fnum(bench.get(key))} | {fnum(bench.get(key[:-3] + '_vs_linux'), '{:.3f}')} |"
              for name, key in MICRO_ROWS]
    lines += ["", "### Scheduler scaling", "",
              "Cost per context switch (N processes in a sched_yield() ring) and per timer tick that "
              "does not switch (a nice -20 reader beside N-1 nice 19 spinners), by number of runnable "
              "tasks N:", "",
              "| runnable N | ns per switch | ns per tick |", "|---|---|---|"]
    for n in (1, 10, 100, 1000):
        lines.append(f"| {n} | {fnum(bench.get(f'switch_{n}_ns'))} | "
                     f"{fnum(bench.get(f'tick_{n}_ns'))} |")
    return lines + [""]


def runs_table(runs):
    lines = ["## Runs", "", "| run | kernel | command line |", "|---|---|---|"]
    for run in runs:
        what = run.get("cmdline") or f"preset {run['preset']}: {run.get('run')}"
        lines.append(f"| {run['label']} | {run.get('kernel', GRANULE)} | `{what}` |")
    return lines


def report(runs, micro, argv, title="# Granule: the 2010 wakeup-latency experiment", intro=()):
    """The whole Markdown report; a pure function of the runs and the command."""
    lines = [title, "", *intro,
             f"Produced by `{shlex.join(argv)}` (tools/bench); every figure below comes from a QEMU "
             "`-icount shift=0,sleep=off` run whose exact command line is in the Runs table. "
             "Where a configuration ran with several load seeds, a cell is the median over them "
             "with [min–max] beside it.", "",
             "Latency definition: docs/EXPERIMENT.md.  Published figures: tools/seeds.json; "
             "their tags ([M1/2], [0bf], [SN]) are explained in docs/DEBATE.md.", ""]
    lines += verdict_table(runs) + bench_eevdf.table(runs) + fidelity_table(runs) + \
        bench_sim.table(runs) + bench_trace.report(runs) + matrix_tables(runs)
    lines += ["## Summary plots", "", "![max/avg](max-avg.svg)", "",
              "![throughput](throughput-vs-latency.svg)", ""]
    lines += micro_tables(micro) + runs_table(runs + ([micro] if micro else []))
    return "\n".join(lines) + "\n"


def variants_tables(runs, argv):
    """Per preset: thread / signal under kbuild:10 (HZ 1000 and 250) and kbuild:10,video,
    beside the published figures."""
    presets = []
    for run in runs:
        if run.get("kernel", GRANULE) == GRANULE and run["preset"] not in presets \
                and run.get("bench", "experiment") == "experiment":
            presets.append(run["preset"])
    first = next((latency_result(r) for r in runs if latency_result(r)), {})
    lines = [f"Written by `{shlex.join(argv)}` (tools/bench); the whole matrix is in "
             "docs/RESULTS.md.", "",
             f"Wakeup latency, µs (max / avg, median over load seeds), {first.get('duration_s', '?')}"
             f" s at P = {(first.get('period_us') or 0) / 1000:g} ms:", "",
             "| preset | thread, kbuild:10 | thread, kbuild:10 HZ=250 | thread, kbuild:10,video "
             "| signal, kbuild:10 | signal, kbuild:10,video | published, thread (max / avg) "
             "| published, signal |",
             "|---|---|---|---|---|---|---|---|"]
    columns = [("thread", HEADLINE_LOAD, DEFAULT_HZ), ("thread", HEADLINE_LOAD, LINUX_HZ),
               ("thread", "kbuild:10,video", DEFAULT_HZ), ("signal", HEADLINE_LOAD, DEFAULT_HZ),
               ("signal", "kbuild:10,video", DEFAULT_HZ)]
    for preset in presets:
        cells = []
        for mode, load, hz in columns:
            group = select(runs, preset, mode, load, hz)
            cells.append(f"{fnum(spread(group, 'max_us').median)} / "
                         f"{fnum(spread(group, 'avg_us').median)}" if group else "–")
        for mode in ("thread", "signal"):
            cells.append("; ".join(f"{fnum(row['max_us'])} / {fnum(row['avg_us'])} "
                                   f"[{row['source']}]" for row in published_rows()
                                   if row["preset"] == preset and row["mode"] == mode) or "–")
        lines.append(f"| {preset} | " + " | ".join(cells) + " |")
    return lines


def write_docs(runs, micro, argv, out, wall=None, commit=None, qemu=None):
    """docs/RESULTS.md (+ docs/results/*.svg) and the VARIANTS.md table block."""
    docs = os.path.join(ROOT, "docs")
    img = os.path.join(docs, "results")
    os.makedirs(img, exist_ok=True)
    for name in os.listdir(out):
        if name.endswith(".svg"):
            shutil.copy(os.path.join(out, name), os.path.join(img, name))
    intro = ["This file is generated: do not edit it by hand, re-run the command below (the sweeps "
             "at the end come from the `tools/bench --sweep` commands they name, the soak from "
             "`make soak`).",
             "How to read the figures, preset by preset: docs/VARIANTS.md.  What Granule's CFS does "
             "differently from Linux 2.6.35: docs/SCHEDULER.md.", ""]
    if wall:
        intro += [f"This run took {wall}.", ""]
    if commit:
        intro += [f"The kernel image and the programs it measured were built from commit `{commit}`"
                  + (f" and run on {qemu} (tools/debs.lock)." if qemu else "."), ""]
    text = report(runs, micro, argv, "# Results: Granule's figures beside the published ones",
                  intro)
    text = re.sub(r"\]\(((?:cdf|hist|max|throughput|sweep|worst)[^)]*\.svg)\)", r"](results/\1)", text)
    for name in sorted(os.listdir(out)):
        if name.startswith("SWEEP-") and name.endswith(".md"):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                sweep = f.read().replace("# Sweep", "## Sweep", 1)
            text += "\n" + re.sub(r"\]\((sweep[^)]*\.svg)\)", r"](results/\1)", sweep)
    cost = os.path.join(img, "cost.md")         # tools/bench_cost.py --docs's section, kept
    if os.path.exists(cost):
        with open(cost, encoding="utf-8") as f:
            text += "\n" + f.read()
    rt = os.path.join(img, "rttests.md")        # tools/bench_rt.py --docs's section, kept
    if os.path.exists(rt):
        with open(rt, encoding="utf-8") as f:
            text += "\n" + f.read()
    rtapp = os.path.join(img, "rtapp.md")      # tools/bench_rtapp.py --docs's section, kept
    if os.path.exists(rtapp):
        with open(rtapp, encoding="utf-8") as f:
            text += "\n" + f.read()
    soak = os.path.join(img, "soak.md")         # tools/soak --docs's section, kept
    if os.path.exists(soak):
        with open(soak, encoding="utf-8") as f:
            text += "\n" + f.read()
    with open(os.path.join(docs, "RESULTS.md"), "w", encoding="utf-8") as f:
        f.write(text)
    replace_block(os.path.join(docs, "VARIANTS.md"), variants_tables(runs, argv))
    print("bench: wrote docs/RESULTS.md, docs/results/*.svg and the tables in docs/VARIANTS.md")


def replace_block(path, lines):
    """Replace what stands between the BENCH-TABLES markers of PATH (refused without them)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    begin = text.find(BEGIN)
    begin = text.find("-->", begin) if begin >= 0 else -1    # the end of the opening comment
    begin = begin + 3 if begin >= 0 else -1
    end = text.find(END)
    if begin < 0 or end < begin:
        print(f"bench: {path} lacks the {BEGIN} ... {END} markers; not updated")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:begin] + "\n" + "\n".join(lines) + "\n" + text[end:])
