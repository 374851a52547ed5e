"""tools/bench_report.py - tables, plots and docs from tools/bench's runs.

A run is the dict tools/bench's do_run() returns: label, preset, mode, load,
hz, cmdline, results {bench name: RESULT object}, hist [(lo_us, n)],
bucket_us, wall_s.  The microbenchmark run has bench "microbench" only.

  plots(runs, out)              gnuplot PNG + SVG into OUT
  report(runs, micro, argv)     the Markdown report (a string)
  variants_tables(runs, argv)   the per-variant tables for docs/VARIANTS.md
  write_docs(...)               docs/RESULTS.md, docs/results/*.svg and the
                                VARIANTS.md block between the BENCH-TABLES
                                markers

Nothing here types a figure: every number comes from a run or from
tools/seeds.json (the seeds' published figures, with their sources).
"""
import json
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEEDS = os.path.join(HERE, "seeds.json")
DEFAULT_HZ = 1000
HEADLINE_LOAD = "kbuild:10"   # the seeds' make -j10 (without the video player)
BEGIN = "<!-- BENCH-TABLES"
END = "<!-- /BENCH-TABLES -->"


def fnum(v, fmt="{:.1f}"):
    return "–" if v is None or v == "" or v == -1 else (fmt.format(v) if isinstance(v, (int, float)) else str(v))


def seeds():
    with open(SEEDS) as f:
        return json.load(f)["rows"]


def wl(r):
    return r["results"].get("wakeup-latency")


def pick(runs, preset, mode, load=HEADLINE_LOAD, hz=DEFAULT_HZ):
    for r in runs:
        if (r["preset"], r["mode"], r["load"], r.get("hz", DEFAULT_HZ)) == (preset, mode, load, hz) and wl(r):
            return wl(r)
    return None


def gnuplot(script, out_base, terms=(("pngcairo size 900,560", "png"), ("svg size 900,560", "svg"))):
    """Run SCRIPT (with @TERM and @OUT placeholders) once per terminal."""
    for term, ext in terms:
        s = script.replace("@TERM", term).replace("@OUT", f"{out_base}.{ext}")
        p = subprocess.run(["gnuplot"], input=s, text=True, capture_output=True)
        if p.returncode:
            print(f"bench: gnuplot failed for {out_base}.{ext}: {p.stderr.strip()[:300]}")


# Ten distinguishable line colours (gnuplot's default cycle repeats after eight).
COLOURS = "".join(f"set linetype {i + 1} lc rgb '{c}' lw 1.5\n" for i, c in enumerate(
    ["#9400d3", "#009e73", "#56b4e9", "#e69f00", "#f0e442", "#0072b2", "#e51e10", "#000000", "#a0522d", "#808080"]))


def safe(label):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label)


def plots(runs, out):
    """CDF + histogram per mode (headline load and HZ, one curve per preset),
    max/avg bars, kbuild throughput against max latency."""
    ok = [r for r in runs if wl(r)]
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    for r in ok:
        if not r["hist"]:
            continue
        # Normalised by every sample, so samples beyond the histogram's
        # range (latency.c's -H bound) keep the curve below 1.
        name, acc = safe(r["label"]), 0
        total = max(wl(r).get("samples") or 0, sum(n for _, n in r["hist"])) or 1
        with open(os.path.join(data, name + ".cdf"), "w") as f:
            for lo, n in r["hist"]:
                acc += n
                f.write(f"{lo + r['bucket_us']} {acc / total:.6f}\n")
        with open(os.path.join(data, name + ".hist"), "w") as f:
            f.writelines(f"{lo} {n}\n" for lo, n in r["hist"])
    for mode in ("thread", "signal"):
        mine = [r for r in ok if r["hist"] and r["mode"] == mode]
        if not mine:
            continue
        # The headline configuration if it was run, else the first one that was.
        load, hz = next(((r["load"], r.get("hz", DEFAULT_HZ)) for r in mine
                         if (r["load"], r.get("hz", DEFAULT_HZ)) == (HEADLINE_LOAD, DEFAULT_HZ)),
                        (mine[0]["load"], mine[0].get("hz", DEFAULT_HZ)))
        sel = [r for r in mine if (r["load"], r.get("hz", DEFAULT_HZ)) == (load, hz)]
        what = f"{mode} mode, {load}, HZ={hz}"
        curves = ", ".join(f"'{data}/{safe(r['label'])}.cdf' using 1:2 with steps title '{r['preset']}'"
                           for r in sel)
        gnuplot(f"set terminal @TERM\nset output '@OUT'\nset title 'Wakeup latency CDF, {what}'\n"
                f"set xlabel 'latency (us)'\nset ylabel 'fraction of expiries'\nset logscale x\n"
                f"set key bottom right font ',8'\nset grid\n{COLOURS}plot {curves}\n", os.path.join(out, f"cdf-{mode}"))
        curves = ", ".join(f"'{data}/{safe(r['label'])}.hist' using 1:2 with histeps title '{r['preset']}'"
                           for r in sel)
        gnuplot(f"set terminal @TERM\nset output '@OUT'\nset title 'Wakeup latency histogram, {what}'\n"
                f"set xlabel 'latency (us, bucket lower bound)'\nset ylabel 'expiries'\nset logscale y\n"
                f"set key top right font ',8'\nset grid\n{COLOURS}plot {curves}\n", os.path.join(out, f"hist-{mode}"))
    bars = [r for r in ok if r["mode"] == "thread" and r["load"] != "none"] or ok
    with open(os.path.join(data, "bars.dat"), "w") as f:
        for r in bars:
            f.write(f"\"{r['label'].replace(' thread', '')}\" {wl(r)['max_us']} {wl(r)['avg_us']}\n")
    gnuplot("set terminal @TERM\nset output '@OUT'\nset title 'Wakeup latency: max and average'\n"
            "set style data histograms\nset style histogram clustered\nset style fill solid 0.7\n"
            "set ylabel 'us'\nset xtics rotate by -40 font ',7'\nset grid ytics\nset bmargin 9\nset rmargin 8\n"
            f"plot '{data}/bars.dat' using 2:xtic(1) title 'max', '' using 3 title 'avg'\n",
            os.path.join(out, "max-avg"))
    kb = [r for r in ok if "kbuild-load" in r["results"]]
    head = [r for r in kb if (r["mode"], r["load"], r.get("hz", DEFAULT_HZ)) == ("thread", HEADLINE_LOAD, DEFAULT_HZ)]
    with open(os.path.join(data, "tput.dat"), "w") as f:
        for r in head or kb:
            f.write(f"{r['results']['kbuild-load']['jobs_per_s']} {wl(r)['max_us']} "
                    f"\"{r['preset'] if head else r['label']}\"\n")
    what = f"thread mode, {HEADLINE_LOAD}, HZ={DEFAULT_HZ}" if head else "all runs"
    gnuplot("set terminal @TERM\nset output '@OUT'\n"
            f"set title 'kbuild throughput vs max wakeup latency ({what})'\n"
            "set xlabel 'kbuild-load jobs/s'\nset ylabel 'max latency (us)'\nset grid\n"
            f"plot '{data}/tput.dat' using 1:2 with points pt 7 notitle, "
            f"'' using 1:2:3 with labels offset 0,1 font ',7' notitle\n",
            os.path.join(out, "throughput-vs-latency"))


def matrix_tables(runs):
    L = []
    for mode in ("thread", "signal"):
        rows = [r for r in runs if r["mode"] == mode and r.get("bench", "experiment") == "experiment"]
        if not rows:
            continue
        L += [f"## {mode} mode ({'SIGEV_THREAD' if mode == 'thread' else 'SIGEV_SIGNAL'})", "",
              "| preset | load | HZ | max µs | avg µs | p50 | p99 | p99.9 | missed | kbuild jobs/s | work_frac | video % met |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            w, kb, vd = (r["results"].get(k) for k in ("wakeup-latency", "kbuild-load", "video-load"))
            hz = r.get("hz", DEFAULT_HZ)
            if not w:
                L.append(f"| {r['preset']} | {r['load']} | {hz} | no result | | | | | | | | |")
                continue
            L.append(f"| {r['preset']} | {r['load']} | {hz} | {fnum(w['max_us'])} | {fnum(w['avg_us'])} | "
                     f"{fnum(w['p50_us'])} | {fnum(w['p99_us'])} | {fnum(w['p999_us'])} | {w['missed']} | "
                     f"{fnum(kb and kb['jobs_per_s'], '{:.2f}')} | {fnum(kb and kb['work_frac'], '{:.3f}')} | "
                     f"{fnum(vd and vd['deadlines_met_pct'])} |")
        L += ["", f"Seeds, {mode} mode (uniprocessor 2.0 GHz Pentium M):", "",
              "| source | kernel / setting | ~preset | load | max µs | avg µs | missed |", "|---|---|---|---|---|---|---|"]
        for s in seeds():
            if s["mode"] == mode:
                L.append(f"| {s['source']} | {s['kernel']} | {s['preset'] or '–'} | {s['load']} | "
                         f"{fnum(s['max_us'])} | {fnum(s['avg_us'])} | {fnum(s['missed'], '{}')} |")
        L += ["", f"![CDF](cdf-{mode}.svg) ![histogram](hist-{mode}.svg)", ""]
    return L


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "–"


def seed_row(source_prefix, preset, mode="thread"):
    for s in seeds():
        if s["source"].startswith(source_prefix) and s["preset"] == preset and s["mode"] == mode:
            return s
    return None


def findings(runs):
    """The seeds' qualitative claims, Granule's ratio beside the seeds' ratio."""
    def g(p, m="thread", key="max_us", hz=DEFAULT_HZ):
        w = pick(runs, p, m, hz=hz)
        return w and w[key]

    def s(src, p, key, m="thread"):
        row = seed_row(src, p, m)
        return row and row[key]

    L = [f"## The seeds' findings, as ratios ({HEADLINE_LOAD})", "",
         "| claim | quantity | Granule HZ=1000 | Granule HZ=250 | seeds |", "|---|---|---|---|---|"]
    claims = [
        ("2.6.35's max is above 0bf377bbb0be's", "max(2.6.35) / max(0bf)",
         lambda hz: ratio(g("linux-2.6.35", hz=hz), g("commit-0bf377bbb0be", hz=hz)),
         ratio(s("0bf (Ingo)", "linux-2.6.35", "max_us"), s("0bf (Ingo)", "commit-0bf377bbb0be", "max_us"))
         + " (Ingo)"),
        ("NO_START_DEBIT lowers the average", "avg(0bf) / avg(no-start-debit)",
         lambda hz: ratio(g("commit-0bf377bbb0be", key="avg_us", hz=hz), g("no-start-debit", key="avg_us", hz=hz)),
         ratio(s("SN", "commit-0bf377bbb0be", "avg_us"), s("SN", "no-start-debit", "avg_us")) + " (SN)"),
        ("START_NICE lowers the max further", "max(no-start-debit) / max(start-nice)",
         lambda hz: ratio(g("no-start-debit", hz=hz), g("start-nice", hz=hz)),
         ratio(s("SN", "no-start-debit", "max_us"), s("SN", "start-nice", "max_us")) + " (SN)"),
        ("dyn-gran lowers the max", "max(2.6.35) / max(dyn-gran)",
         lambda hz: ratio(g("linux-2.6.35", hz=hz), g("dyn-gran", hz=hz)),
         ratio(s("M1/2", "linux-2.6.35", "max_us"), s("M1/2", "dyn-gran", "max_us")) + " (M1/2, with video)"),
        ("signals are far faster than threads", "avg thread / avg signal, 2.6.35",
         lambda hz: ratio(g("linux-2.6.35", key="avg_us", hz=hz), g("linux-2.6.35", "signal", "avg_us", hz)),
         ratio(s("M1/2", "linux-2.6.35", "avg_us"), s("M1/2", "linux-2.6.35", "avg_us", "signal"))
         + " (M1/2, with video)"),
    ]
    for claim, q, ours, theirs in claims:
        L.append(f"| {claim} | {q} | {ours(DEFAULT_HZ)} | {ours(250)} | {theirs} |")
    return L + [""]


MICRO_ROWS = [("null syscall (getppid)", "null_syscall_ns"), ("clock_gettime(MONOTONIC)", "clock_gettime_ns"),
              ("context switch, 2 processes, sched_yield (incl. the yield)", "ctxsw_yield_ns"),
              ("thread create+join", "thread_ns"), ("fork+exit+wait", "fork_ns"),
              ("fork+exec+exit+wait", "fork_exec_ns")]


def micro_tables(micro):
    if not micro or "microbench" not in micro["results"]:
        return ["## Kernel microbenchmarks", "", "*microbench run gave no result*", ""]
    m = micro["results"]["microbench"]
    L = ["## Kernel microbenchmarks", "",
         f"`user/bench/microbench.c`, preset {m['preset']}, HZ {m['hz']}; virtual ns = guest instructions under "
         f"`-icount shift=0`.  Command line: `{micro['cmdline']}`.", "",
         "| operation | ns |", "|---|---|"]
    L += [f"| {name} | {fnum(m.get(key))} |" for name, key in MICRO_ROWS]
    L += ["", "### Scheduler scaling", "",
          "Cost per context switch (N processes in a sched_yield() ring) and per timer tick that does not "
          "switch (a nice -20 reader beside N-1 nice 19 spinners), by number of runnable tasks N:", "",
          "| runnable N | ns per switch | ns per tick |", "|---|---|---|"]
    for n in (1, 10, 100, 1000):
        L.append(f"| {n} | {fnum(m.get(f'switch_{n}_ns'))} | {fnum(m.get(f'tick_{n}_ns'))} |")
    return L + [""]


def runs_table(runs):
    L = ["## Runs", "", "| run | kernel command line | wall s |", "|---|---|---|"]
    return L + [f"| {r['label']} | `{r['cmdline']}` | {r['wall_s']} |" for r in runs]


def report(runs, micro, argv, title="# Granule: the 2010 wakeup-latency experiment", intro=()):
    L = [title, "", *intro,
         f"Produced by `{' '.join(argv)}` (tools/bench); every figure below comes from a QEMU "
         "`-icount shift=0,sleep=off` run whose exact kernel command line is in the Runs table.", "",
         "Latency definition: docs/EXPERIMENT.md.  Seeds' figures: tools/seeds.json (sources there).", ""]
    L += findings(runs) + matrix_tables(runs)
    L += ["## Summary plots", "", "![max/avg](max-avg.svg)", "", "![throughput](throughput-vs-latency.svg)", ""]
    L += micro_tables(micro) + runs_table(runs + ([micro] if micro else []))
    return "\n".join(L) + "\n"


def variants_tables(runs, argv):
    """Per preset: thread / signal under kbuild:10 (HZ 1000 and 250) and kbuild:10,video, beside the seeds."""
    presets = []
    for r in runs:
        if r["preset"] not in presets:
            presets.append(r["preset"])
    w0 = next((wl(r) for r in runs if wl(r)), {})
    L = [f"Written by `{' '.join(argv)}` (tools/bench); the whole matrix is in docs/RESULTS.md.", "",
         f"Wakeup latency, µs (max / avg, missed expiries), {w0.get('duration_s', '?')} s at "
         f"P = {(w0.get('period_us') or 0) / 1000:g} ms:", "",
         "| preset | thread, kbuild:10 | thread, kbuild:10 HZ=250 | thread, kbuild:10,video | signal, kbuild:10 "
         "| signal, kbuild:10,video | seeds, thread (max / avg) | seeds, signal |",
         "|---|---|---|---|---|---|---|---|"]
    cols = [("thread", HEADLINE_LOAD, DEFAULT_HZ), ("thread", HEADLINE_LOAD, 250), ("thread", "kbuild:10,video", DEFAULT_HZ),
            ("signal", HEADLINE_LOAD, DEFAULT_HZ), ("signal", "kbuild:10,video", DEFAULT_HZ)]
    for p in presets:
        cells = []
        for mode, load, hz in cols:
            w = pick(runs, p, mode, load, hz)
            cells.append(f"{fnum(w['max_us'])} / {fnum(w['avg_us'])} ({w['missed']})" if w else "–")
        for mode in ("thread", "signal"):
            cells.append("; ".join(f"{fnum(s['max_us'])} / {fnum(s['avg_us'])} [{s['source']}]"
                                   for s in seeds() if s["preset"] == p and s["mode"] == mode) or "–")
        L.append(f"| {p} | " + " | ".join(cells) + " |")
    return L


def write_docs(runs, micro, argv, out):
    """docs/RESULTS.md (+ docs/results/*.svg) and the VARIANTS.md table block."""
    docs = os.path.join(ROOT, "docs")
    img = os.path.join(docs, "results")
    os.makedirs(img, exist_ok=True)
    for f in os.listdir(out):
        if f.endswith(".svg"):
            shutil.copy(os.path.join(out, f), os.path.join(img, f))
    intro = ["This file is generated: do not edit it by hand, re-run the command below (it takes about 20 "
             "minutes on 2 cores; the sweeps at the end come from the `tools/bench --sweep` commands they name).",
             "How to read the figures, preset by preset: docs/VARIANTS.md.  What Granule's CFS does differently "
             "from Linux 2.6.35: docs/SCHEDULER.md.", ""]
    text = report(runs, micro, argv, "# Results: Granule's figures beside the seeds'", intro)
    text = re.sub(r"\]\(((?:cdf|hist|max|throughput|sweep)[^)]*\.svg)\)", r"](results/\1)", text)
    for f in sorted(os.listdir(out)):
        if f.startswith("SWEEP-") and f.endswith(".md"):
            sw = open(os.path.join(out, f)).read().replace("# Sweep", "## Sweep", 1)
            text += "\n" + re.sub(r"\]\((sweep[^)]*\.svg)\)", r"](results/\1)", sw)
    with open(os.path.join(docs, "RESULTS.md"), "w") as f:
        f.write(text)
    path = os.path.join(docs, "VARIANTS.md")
    v = open(path).read()
    b = v.find(BEGIN)
    b = v.find("-->", b) if b >= 0 else -1      # the end of the opening comment
    b = b + 3 if b >= 0 else -1
    e = v.find(END)
    if b < 0 or e < b:
        print(f"bench: {path} lacks the {BEGIN} ... {END} markers; not updated")
        return
    v = v[:b] + "\n" + "\n".join(variants_tables(runs, argv)) + "\n" + v[e:]
    with open(path, "w") as f:
        f.write(v)
    print("bench: wrote docs/RESULTS.md, docs/results/*.svg and the tables in docs/VARIANTS.md")
