"""tools/bench_rt.py - Debian's cyclictest and hackbench beside the experiment, on Granule and Linux.

  tools/bench_rt.py [--loops N] [--hackbench-loops N] [--presets A,B] [--loads "kbuild:10 kbuild:10,video"]
                    [--linux | --no-linux] [--quick] [-j N] [--out DIR] [--docs] [--report-only]

The same boot module (build/rt-tests/rt-tests.tar: rt-tests 2.4 for i386 and
its glibc, tools/fetch-rttests) runs on Granule and, through tools/linux-peer,
on Debian's Linux 6.1 (set to commit-0bf377bbb0be's knobs, its own defaults)
and 6.12 (EEVDF), under the same QEMU, at HZ=250 (Debian's) on both:

  cyclictest  `cyclictest -t1 -i 10000 -l N -h 20000 -q` as experiment's
              measurement (experiment measure=..., user/bench/measure.c) under
              each load, at SCHED_OTHER and at -p 80 (SCHED_FIFO), on every
              preset of tools/presets and on both Linux kernels.  The
              SCHED_OTHER boot first runs the experiment in signal mode under
              the same load for as long: a timer's signal to a sleeping
              thread, the same thing cyclictest measures, so the two stand
              side by side from one boot.
  hackbench   `hackbench -p -T -l N` (pipes, threads) and `hackbench -p -l N`
              (pipes, processes; 10 groups of 40 tasks each, its defaults)
              without load, on commit-0bf377bbb0be and linux-6.12 and both
              Linux kernels: the time hackbench prints and the context
              switches per second over its run (/proc/stat's ctxt).  These
              boots get -m 256M on both kernels: Linux 6.1's out-of-memory
              killer ends the process run at the peer's usual 128M.

Each load starts 1 s ahead and runs duration = N / 100 + 1 s (+ 1 s), which
covers cyclictest's N samples of 10 ms; its 20000 histogram lines are
printed after that.  Output: DIR/RT.md (default results/rt), the runs in
DIR/jobs (tools/granule/bench/jobs.py), --report-only rebuilds RT.md from them.
--docs also writes the section between docs/RESULTS.md's RTTESTS markers
(and docs/results/rttests.md, which tools/bench --docs keeps) and the
hackbench table between docs/FASTPATHS.md's HACKBENCH markers.
`make bench` runs it.  Imports bench/common.py, bench/jobs.py and granule/stats.py only.
"""
import argparse
import json
import os
import shlex
import sys

from ..paths import ROOT
from ..stats import Spread
from . import common as bc
from . import jobs as bj

MODULE = "build/rt-tests/rt-tests.tar"
HZ = bc.LINUX_HZ
LOADS = ["kbuild:10", "kbuild:10,video"]
CYCLICTEST = "cyclictest -t1 -i 10000 -l {n} -h 20000 -q"
HACKBENCH = {"threads": "hackbench -p -T -l {n}", "processes": "hackbench -p -l {n}"}
HACKBENCH_PRESETS = ["commit-0bf377bbb0be", "linux-6.12"]
HACKBENCH_MEMORY = "256M"
# (kernel, Linux preset of tools/granule/peer/linux.py): Linux 6.1 with 2.6.36's knobs, which are
# its own defaults on one CPU, and Linux 6.12 as Debian ships it
LINUX = [("linux-6.1", "commit-0bf377bbb0be"), ("linux-6.12", "linux-6.12")]
QUICK_PRESETS = ["commit-0bf377bbb0be", "linux-6.12"]
PRIOS = {"other": "", "fifo80": " -p 80"}
DECADES = [(0, 10), (10, 100), (100, 1000), (1000, 10000), (10000, 20000)]

BEGIN = "<!-- RTTESTS written by tools/bench_rt.py --docs; tools/bench --docs keeps it -->"
END = "<!-- /RTTESTS -->"
HB_BEGIN = "<!-- HACKBENCH written by tools/bench_rt.py --docs -->"
HB_END = "<!-- /HACKBENCH -->"


# ---- jobs ------------------------------------------------------------------------------

def duration(loops):
    """The load's duration, s: N samples of 10 ms, rounded up, + 1 s for cyclictest's start."""
    return -(-loops // 100) + 1


def granule_cmdline(preset, commands):
    run = "; ".join(commands)
    return f"sched_preset={preset} hz={HZ} run=\"{run}\""


def rt_job(kernel, preset, what, load, commands, measure, expect, memory="128M"):
    """One boot.  COMMANDS: experiment invocations without their measure= word (Linux's
    /init splits words at blanks, so there MEASURE travels in the environment)."""
    j = dict(kernel=kernel, preset=preset, mode=what, load=load, hz=HZ, seed=1, bench="measure",
             module=MODULE, memory=memory, expect=expect, label=f"rt {kernel} {preset} {what} {load}")
    if kernel == bc.GRANULE:
        j["cmdline"] = granule_cmdline(preset, commands[:-1] + [f"{commands[-1]} 'measure={measure}'"])
    else:
        j["run"], j["env"] = "; ".join(commands), {"measure": measure}
    return j


def cyclictest_jobs(kernel, preset, loads, loops):
    d, out = duration(loops), []
    for load in loads:
        exp = f"experiment load={load} duration={d}"
        ct = CYCLICTEST.format(n=loops)
        # signal mode first: measure= (empty) keeps the environment's measure from it
        out.append(rt_job(kernel, preset, "other", load, [f"experiment mode=signal load={load} "
                                                          f"duration={d} measure=", exp],
                          ct, ["wakeup-latency", "cyclictest"]))
        out.append(rt_job(kernel, preset, "fifo80", load, [exp], ct + PRIOS["fifo80"], ["cyclictest"]))
    return out


def hackbench_jobs(kernel, preset, loops):
    return [rt_job(kernel, preset, f"hackbench-{what}", "none", ["experiment load=none"],
                   cmd.format(n=loops), ["hackbench"], HACKBENCH_MEMORY)
            for what, cmd in HACKBENCH.items()]


def plan(presets, loads, loops, hb_loops, linux):
    jobs = []
    for p in presets:
        jobs += cyclictest_jobs(bc.GRANULE, p, loads, loops)
    for p in [p for p in HACKBENCH_PRESETS if p in presets]:
        jobs += hackbench_jobs(bc.GRANULE, p, hb_loops)
    for kernel, p in LINUX if linux else []:
        jobs += cyclictest_jobs(kernel, p, loads, loops) + hackbench_jobs(kernel, p, hb_loops)
    for i, j in enumerate(jobs, 1):
        j["id"] = f"{i:04d}"
        j["image"] = bj.image_hash(j["kernel"])
    return jobs


# ---- figures ---------------------------------------------------------------------------

def result(run, bench):
    return None if "error" in run else run["results"].get(bench)


def find(runs, kernel, preset, what, load):
    return next((r for r in runs if (r["kernel"], r["preset"], r["mode"], r["load"]) ==
                 (kernel, preset, what, load)), None)


def decades(hist):
    """cyclictest's 1 µs histogram [(µs, count)] as counts per decade: '1–9: 297, 10–99: 3'."""
    cells = []
    for lo, hi in DECADES:
        n = sum(c for us, c in hist if lo <= us < hi)
        if n:
            cells.append(f"{lo}–{hi - 1}: {n}")
    return ", ".join(cells) or "–"


def ct_cell(run):
    ct = result(run, "cyclictest") if run else None
    if not ct:
        return "–", "–"
    over = f", {ct['overflows']} over" if ct.get("overflows") else ""
    return f"{ct['min_us']} / {ct['avg_us']} / {ct['max_us']}", decades(run["hist"]) + over


def signal_cell(run):
    wl = result(run, "wakeup-latency") if run else None
    return f"{wl['max_us']} / {wl['avg_us']}" if wl else "–"


def who(kernel):
    return "Granule" if kernel == bc.GRANULE else kernel.replace("linux-", "Linux ")


def configurations(runs):
    """(kernel, preset) in plan order."""
    return list(dict.fromkeys((r["kernel"], r["preset"]) for r in runs))


def cyclictest_table(runs):
    lines = ["| kernel | preset | load | signal mode max / avg µs | cyclictest SCHED_OTHER "
             "min / avg / max µs | its histogram (µs: samples) | cyclictest -p 80 min / avg / max µs "
             "| its histogram |", "|---|---|---|---|---|---|---|---|"]
    for kernel, preset in configurations(runs):
        for load in dict.fromkeys(r["load"] for r in runs if r["mode"] == "other"):
            other, fifo = find(runs, kernel, preset, "other", load), find(runs, kernel, preset, "fifo80", load)
            if not other and not fifo:
                continue
            lines.append(f"| {who(kernel)} | {preset} | {load} | {signal_cell(other)} | "
                         + " | ".join(ct_cell(other)) + " | " + " | ".join(ct_cell(fifo)) + " |")
    return lines


def hackbench_table(runs):
    lines = ["| kernel | preset | " + " | ".join(f"`{cmd.format(n='N')}` s | ctxsw/s"
                                                  for cmd in HACKBENCH.values()) + " |",
             "|---|---|" + "---:|---:|" * len(HACKBENCH)]
    for kernel, preset in configurations(runs):
        hb = [result(r, "hackbench") if r else None
              for r in (find(runs, kernel, preset, f"hackbench-{w}", "none") for w in HACKBENCH)]
        if not any(hb):
            continue
        lines.append(f"| {who(kernel)} | {preset} | " + " | ".join(
            f"{h['time_s']:.3f} | {h['ctxsw_per_s']:,}" if h else "– | –" for h in hb) + " |")
    return lines


def fifo_verdict(runs):
    """One sentence on the issue's bound: -p 80's max under 100 µs on every Granule CFS preset."""
    maxima = [result(r, "cyclictest")["max_us"] for r in runs if r["kernel"] == bc.GRANULE and
              r["mode"] == "fifo80" and r["preset"] != "linux-6.12" and result(r, "cyclictest")]
    if not maxima:
        return []
    m = Spread(maxima)
    held = all(v < 100 for v in maxima)
    return [f"At `-p 80` the largest maximum over Granule's {m.n} CFS runs is {m.hi} µs (median {m.median:g}):"
            f" the bound of 100 µs {'holds' if held else 'does NOT hold'} on every CFS preset and load."]


def report(runs, argv, commit, loops, hb_loops):
    bad = [r["label"] for r in runs if "error" in r]
    lines = ["## Debian's cyclictest and hackbench beside the experiment", "",
             f"Produced by `{shlex.join(argv)}` (tools/bench_rt.py) on the image and programs built from "
             f"commit `{commit}`; rt-tests 2.4 for i386 from the boot module {MODULE} on both kernels, "
             f"QEMU `-icount shift=0,sleep=off`, HZ={HZ}, load seed 1, one run per cell.", "",
             f"cyclictest ran `{CYCLICTEST.format(n=loops)}` ({loops} wakeups of 10 ms) as `experiment "
             "measure=...`, the load starting 1 s ahead; the signal-mode column is the experiment's "
             "wakeup-latency test in signal mode (a POSIX timer's signal to a sleeping thread, what "
             "cyclictest's `clock_nanosleep` measures too), run first in the same boot under the same "
             "load for as long. cyclictest rounds to whole µs; its histogram is shown by decade.", ""]
    lines += cyclictest_table(runs) + [""] + fifo_verdict(runs)
    lines += ["", f"### hackbench (N = {hb_loops}, no load, -m {HACKBENCH_MEMORY})", "",
              "Time: what hackbench prints (its 10 groups of 40 tasks each sending N messages); "
              "ctxsw/s: /proc/stat's ctxt over hackbench's whole run (start-up and exit included) per "
              f"second. Both kernels boot with -m {HACKBENCH_MEMORY} for these runs: at 128M Linux 6.1's "
              "out-of-memory killer ends the 400-process run.", ""]
    lines += hackbench_table(runs)
    if bad:
        lines += ["", f"Runs without a result ({len(bad)}): " + "; ".join(bad)]
    return lines


# ---- docs ------------------------------------------------------------------------------

def splice(text, begin, end, body):
    """TEXT with BODY between BEGIN and END (markers kept), or appended with them."""
    section = begin + "\n" + body + "\n" + end
    b, e = text.find(begin), text.find(end)
    if b >= 0 and e > b:
        return text[:b] + section + text[e + len(end):]
    return text.rstrip("\n") + "\n\n" + section + "\n"


def splice_file(name, begin, end, body, after=None, root=None):
    """ROOT/docs/NAME with BODY between BEGIN and END: the section replaced, or the first time
    put after the line-ending marker AFTER (when given and present), else appended."""
    path = os.path.join(root or ROOT, "docs", name)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    at = text.find(after) if after else -1
    if begin not in text and at >= 0:
        at += len(after)
        text = text[:at] + "\n\n" + begin + "\n" + body + "\n" + end + text[at:]
    else:
        text = splice(text, begin, end, body)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def publish(results_name, begin, end, body, after=None, root=None):
    """A bench's section: docs/results/RESULTS_NAME alone, and the same in docs/RESULTS.md
    (under ROOT, the repository's unless given)."""
    results = os.path.join(root or ROOT, "docs", "results")
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, results_name), "w", encoding="utf-8") as f:
        f.write(begin + "\n" + body + "\n" + end + "\n")
    splice_file("RESULTS.md", begin, end, body, after, root)


def write_docs(lines, runs):
    publish("rttests.md", BEGIN, END, "\n".join(lines))
    splice_file("FASTPATHS.md", HB_BEGIN, HB_END, "\n".join(hackbench_table(runs)))
    print("bench_rt: wrote docs/results/rttests.md, its section in docs/RESULTS.md and the hackbench "
          "table in docs/FASTPATHS.md")


def shown_args(words):
    """The options that change a figure: without -j N, --out DIR, --docs and --resume."""
    out, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w in ("-j", "--parallel", "--out"):
            skip = True
        elif not w.startswith(("-j", "--parallel=", "--out=")) and w not in ("--docs", "--resume"):
            out.append(w)
    return out


def options(ap, quick_presets, timeout, out):
    """The options every Debian-program bench shares: --presets, --linux/--no-linux, --quick,
    -j N, --timeout S, --out DIR (results/OUT), --docs, --report-only, --resume."""
    ap.add_argument("--presets", help="comma list (default: all of tools/presets; quick: "
                                      + ",".join(quick_presets) + ")")
    ap.add_argument("--linux", dest="linux", action="store_true", default=None)
    ap.add_argument("--no-linux", dest="linux", action="store_false")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("-j", "--parallel", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=timeout)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", out))
    ap.add_argument("--docs", action="store_true")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--resume", action="store_true", help="reuse the runs saved in DIR/jobs (same job, same image)")


def measured(tool, args, argv, jobs, **extra):
    """Run JOBS() into ARGS.out, DIR/command.json first (the command without the options that
    change no figure, the commit, EXTRA), or with --report-only read what DIR holds; returns
    (that command's dict, the runs)."""
    command = os.path.join(args.out, "command.json")    # what --report-only reports
    if not args.report_only:
        os.makedirs(args.out, exist_ok=True)
        with open(command, "w", encoding="utf-8") as f:
            json.dump(dict(argv=[f"tools/{tool}.py"] + shown_args(sys.argv[1:] if argv is None else argv),
                           commit=bj.source_commit() or "unknown", **extra), f)
        bj.run_all(jobs(), args.parallel, args.timeout, sink=lambda run, wall: bj.save_result(args.out, run, wall),
                   resume=args.out if args.resume else None)
    if not os.path.exists(command):
        raise SystemExit(f"{tool}: --report-only: no {command} (nothing measured into {args.out})")
    with open(command, encoding="utf-8") as f:
        cmd = json.load(f)
    return cmd, bj.load_results(args.out)[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loops", type=int, help="cyclictest -l N (1000; quick: 100)")
    ap.add_argument("--hackbench-loops", type=int, default=100, help="hackbench -l N (100)")
    ap.add_argument("--loads", help="space-separated (default: '" + " ".join(LOADS) + "'; quick: kbuild:10)")
    options(ap, QUICK_PRESETS, 900, "rt")
    args = ap.parse_args(argv)
    loops = args.loops if args.loops is not None else 100 if args.quick else 1000
    names = bc.preset_names()
    presets = args.presets.split(",") if args.presets else QUICK_PRESETS if args.quick else names
    loads = args.loads.split() if args.loads else LOADS[:1] if args.quick else LOADS
    unknown = [p for p in presets if p not in names]
    if unknown:
        raise SystemExit(f"bench_rt: --presets: unknown {', '.join(unknown)} (one of {', '.join(names)})")
    if not 1 <= loops <= 100000 or not 1 <= args.hackbench_loops <= 100000:
        raise SystemExit(f"bench_rt: --loops {loops} --hackbench-loops {args.hackbench_loops}: "
                         "expected 1..100000 each")
    if not args.report_only and not os.path.exists(os.path.join(ROOT, MODULE)):
        raise SystemExit(f"bench_rt: no {MODULE}: run `make deps` (tools/fetch-rttests) first")
    linux = args.linux if args.linux is not None else os.environ.get("LINUX", "1") != "0"
    cmd, runs = measured("bench_rt", args, argv, lambda: plan(presets, loads, loops, args.hackbench_loops, linux),
                         loops=loops, hackbench_loops=args.hackbench_loops)
    lines = report(runs, cmd["argv"], cmd["commit"], cmd["loops"], cmd["hackbench_loops"])
    with open(os.path.join(args.out, "RT.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if args.docs:
        write_docs(lines, runs)
    return 1 if any("error" in r for r in runs) else 0
