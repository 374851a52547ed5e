"""usage: tools/sim sweep KNOB=LO..HI:N[:log] [KNOB2=LO..HI:M[:log]] [experiment options]
                 [KNOB=VAL ...] [-j N] [--out DIR]

A grid of simulated experiments (`tools/sim experiment`), one per configuration,
run N at a time over the host's cores; then, in DIR, the figures and the pictures.

  KNOB=LO..HI:N     N values of a boot-line knob from LO to HI, evenly spaced
                    (:log spaces them evenly on a log scale); one or two knobs.
                    A *_ns knob takes times (750us, 2ms, 0.5s) or ns; values are
                    rounded to whole units (ns) and must stay distinct.
  KNOB=VAL          a fixed knob, the same in every configuration (a *_ns knob
                    takes a time here too: the engine reads 750us as the sweep does)
  --preset P --mode thread|signal --load L --duration S --seed N --hz H
  --period-ms P --pad US --slice-us US
                    passed to every experiment as given (the engine checks them)
  -j N              experiments at a time (default: the number of CPUs)
  --out DIR         default results/sweep-KNOB[-KNOB2]

DIR gets sweep.csv (one row per configuration: the knob values, max_us, avg_us,
p99_us, work_frac, samples, from each experiment's last RESULT line),
sweep.jsonl (those RESULT objects with the knob values), and for max_us,
avg_us, p99_us and work_frac (when the load has a kbuild) a gnuplot heatmap
over the two knobs - a line plot for one knob - as NAME.svg and NAME.png, with
the settings of linux-2.6.35 (2010), 2.6.36 (commit-0bf377bbb0be) and Linux
6.12's defaults marked where the swept knobs are theirs (tools/presets).
Bad input: one line on stderr, exit 2; the engine's own error (an unknown
knob, a value out of range) is passed through as it printed it, and nothing
is written.  When configurations lie outside what was cross-validated against
QEMU, one line of warning says how many and names the first one's settings.
"""
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys
import time

from ..paths import ROOT
from . import sweep_plot as plot

VALUE_OPTS = ("--preset", "--mode", "--load", "--duration", "--seed", "--hz", "--period-ms", "--pad",
              "--slice-us")
FIGURES = ("max_us", "avg_us", "p99_us", "work_frac", "samples")
REQUIRED = ("max_us", "avg_us", "p99_us", "samples")
MAX_POINTS = 1000              # per axis: 1000 x 1000 is already a million experiments
UNITS = {"ns": 1, "us": 1000, "ms": 1000 * 1000, "s": 1000 * 1000 * 1000}
RANGE_HELP = "expected KNOB=LO..HI:N or KNOB=LO..HI:N:log, e.g. sched_min_granularity_ns=0.25ms..4ms:16"


class Usage(Exception):
    """Bad input: the one line that says why (exit 2)."""


class Axis:
    """One swept knob: its name and its N values (integers, increasing)."""

    def __init__(self, knob, lo, hi, n, log):
        self.knob, self.lo, self.hi, self.n, self.log = knob, lo, hi, n, log
        self.values = grid_values(lo, hi, n, log)


def parse_value(knob, text, arg):
    """LO or HI of ARG: a number, or for a *_ns knob a time with a unit -> an integer (ns)."""
    m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|ms|s)?", text)
    if not m:
        raise Usage(f"{arg}: '{text}' is not a number"
                    + (" (expected ns or a time like 750us, 2ms)" if knob.endswith("_ns") else ""))
    if m.group(2) and not knob.endswith("_ns"):
        raise Usage(f"{arg}: '{text}' has a time unit, but {knob} takes a plain number "
                    "(units only for a *_ns knob)")
    return float(m.group(1)) * UNITS[m.group(2) or "ns"]


def grid_values(lo, hi, n, log):
    """N values from LO to HI, evenly spaced (on a log scale with LOG), rounded to integers."""
    if log:
        return [round(lo * (hi / lo) ** (i / (n - 1))) for i in range(n)]
    return [round(lo + (hi - lo) * i / (n - 1)) for i in range(n)]


def parse_axis(arg):
    """KNOB=LO..HI:N[:log] -> Axis, or Usage naming what is wrong."""
    knob, _, spec = arg.partition("=")
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", knob):
        raise Usage(f"{arg}: '{knob}' is not a knob name ({RANGE_HELP})")
    rng, *rest = spec.split(":")
    lo_text, _, hi_text = rng.partition("..")
    if not rest or len(rest) > 2 or (len(rest) == 2 and rest[1] != "log") or not lo_text or not hi_text:
        raise Usage(f"{arg}: {RANGE_HELP}")
    lo, hi = parse_value(knob, lo_text, arg), parse_value(knob, hi_text, arg)
    log = len(rest) == 2
    if not re.fullmatch(r"\d+", rest[0]) or not 2 <= int(rest[0]) <= MAX_POINTS:
        raise Usage(f"{arg}: N={rest[0]}: expected a number of points 2..{MAX_POINTS}")
    if lo >= hi:
        raise Usage(f"{arg}: LO must be below HI")
    if log and lo <= 0:
        raise Usage(f"{arg}: log spacing needs LO > 0")
    axis = Axis(knob, lo, hi, int(rest[0]), log)
    if len(set(axis.values)) != axis.n:
        raise Usage(f"{arg}: {axis.n} points between {round(lo)} and {round(hi)} repeat a value "
                    "once rounded to whole units; use fewer points or a wider range")
    return axis


class Sweep:
    """The parsed command line: axes, the experiment's own words, -j, --out."""

    def __init__(self):
        self.axes, self.preset, self.options, self.knobs = [], [], [], []
        self.jobs = len(os.sched_getaffinity(0))
        self.out = None


def take(argv, i, opt):
    """The value after option argv[i], or Usage."""
    if i + 1 >= len(argv):
        raise Usage(f"{opt}: missing value")
    return argv[i + 1]


def parse_jobs(text):
    if not re.fullmatch(r"\d+", text) or int(text) < 1:
        raise Usage(f"-j {text}: expected a number of experiments at a time >= 1")
    return int(text)


def parse_args(argv):
    """The sweep's command line -> Sweep, or Usage."""
    s = Sweep()
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in VALUE_OPTS:
            v = take(argv, i, a)
            (s.preset if a == "--preset" else s.options).extend([a, v])
            i += 1
        elif a in ("-j", "--jobs"):
            s.jobs = parse_jobs(take(argv, i, a))
            i += 1
        elif re.fullmatch(r"-j\d*", a):
            s.jobs = parse_jobs(a[2:])
        elif a == "--out":
            s.out = take(argv, i, a)
            i += 1
        elif a.startswith("-"):
            raise Usage(f"unknown option '{a}' (expected KNOB=LO..HI:N, KNOB=VAL, "
                        f"{', '.join(VALUE_OPTS)}, -j N, --out DIR)")
        elif "=" in a and ".." in a.partition("=")[2]:
            s.axes.append(parse_axis(a))
        elif "=" in a:
            s.knobs.append(a)
        else:
            raise Usage(f"'{a}': expected KNOB=LO..HI:N or KNOB=VAL")
        i += 1
    names = [ax.knob for ax in s.axes]
    if not names:
        raise Usage("no KNOB=LO..HI:N to sweep (see tools/sim sweep --help)")
    if len(names) > 2:
        raise Usage(f"{len(names)} knobs to sweep ({', '.join(names)}): at most two")
    if len(set(names)) != len(names):
        raise Usage(f"{names[0]} swept twice")
    fixed = [k.partition("=")[0] for k in s.knobs]
    for name in names:
        if name in fixed:
            raise Usage(f"{name} is both swept and fixed ({s.knobs[fixed.index(name)]})")
    if s.out is None:
        s.out = os.path.join(ROOT, "results", "sweep-" + "-".join(names))
    return s


def configurations(axes):
    """Every combination of the axes' values, the first knob outermost."""
    grid = [()]
    for ax in axes:
        grid = [c + (v,) for c in grid for v in ax.values]
    return grid


def experiment_argv(engine, s, config):
    """The engine's command line for one configuration: the preset first (a knob
    after it overrides it), then the options, the fixed knobs, the swept knobs."""
    swept = [f"{ax.knob}={v}" for ax, v in zip(s.axes, config)]
    return [engine, "experiment", *s.preset, *s.options, *s.knobs, *swept]


WARNING = "sim: warning: "


def run_one(argv):
    """One experiment -> (its last RESULT object, None) or (None, (exit status, message));
    the status is None when the engine exited 0 without a usable RESULT line.  The
    engine's warning (outside what was validated), if any, is the result's "_warning"."""
    p = subprocess.run(argv, capture_output=True, text=True, check=False)
    err = [l for l in p.stderr.splitlines() if l.strip()]
    warning = next((l[len(WARNING):] for l in err if l.startswith(WARNING)), None)
    if p.returncode:
        return None, (p.returncode, err[-1] if err else "no message")
    results = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
    if not results:
        return None, (None, "printed no RESULT line")
    try:
        result = json.loads(results[-1][len("RESULT "):])
    except json.JSONDecodeError as e:
        return None, (None, f"printed a last RESULT line that is not JSON ({e})")
    missing = [k for k in REQUIRED if k not in result]
    if missing:
        return None, (None, f"printed a RESULT without {', '.join(missing)}")
    if warning:
        result["_warning"] = warning
    return result, None


def warn_unvalidated(results):
    """One line for the configurations outside what was validated (their engine's warning)."""
    warned = [r["_warning"] for r in results if "_warning" in r]
    if warned:
        print(f"sim sweep: warning: {len(warned)} of {len(results)} configurations lie "
              f"{warned[0]}", file=sys.stderr)
    for r in results:
        r.pop("_warning", None)


class Failure(Exception):
    """An experiment failed: its configuration, exit status and message."""

    def __init__(self, config, status, message):
        super().__init__(message)
        self.config, self.status, self.message = config, status, message


def run_all(engine, s, grid):
    """Run the grid, s.jobs at a time -> [RESULT] in grid order.  The first failure
    (in grid order among those that ran) cancels the rest and raises Failure."""
    argvs = [experiment_argv(engine, s, c) for c in grid]
    results = [None] * len(grid)
    failures = {}
    progress = sys.stderr.isatty()
    with concurrent.futures.ThreadPoolExecutor(max_workers=s.jobs) as pool:
        futures = {pool.submit(run_one, a): k for k, a in enumerate(argvs)}
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            k = futures[fut]
            results[k], failure = fut.result()
            if failure:
                failures[k] = failure
                pool.shutdown(wait=True, cancel_futures=True)
                break
            if progress:
                print(f"\rsim sweep: {done}/{len(grid)}", end="", file=sys.stderr, flush=True)
    if progress:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    if failures:
        k = min(failures)
        raise Failure(grid[k], *failures[k])
    return results


def write_tables(s, grid, results):
    """DIR/sweep.csv and DIR/sweep.jsonl, one row per configuration in grid order."""
    names = [ax.knob for ax in s.axes]
    with open(os.path.join(s.out, "sweep.csv"), "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(names + list(FIGURES))
        for config, r in zip(grid, results):
            w.writerow(list(config) + ["" if r.get(k) is None else r[k] for k in FIGURES])
    with open(os.path.join(s.out, "sweep.jsonl"), "w", encoding="utf-8") as f:
        for config, r in zip(grid, results):
            f.write(json.dumps(dict(r, knobs=dict(zip(names, config))), sort_keys=True) + "\n")


def sweep(argv):
    if "--help" in argv or "-h" in argv:
        print(__doc__.strip())
        return 0
    s = parse_args(argv)
    engine = os.environ.get("SIM_ENGINE") or os.path.join(ROOT, "build", "sim")
    grid = configurations(s.axes)
    start = time.monotonic()
    try:
        results = run_all(engine, s, grid)
    except Failure as f:
        if f.status == 2:       # the engine's own one line (a bad knob, preset, load ...)
            print(f.message, file=sys.stderr)
            return 2
        where = " ".join(f"{ax.knob}={v}" for ax, v in zip(s.axes, f.config))
        if f.status is None:
            how = f.message
        elif f.status < 0:
            how = f"was killed by signal {-f.status}"
        else:
            how = f"exited {f.status}: {f.message}"
        print(f"sim sweep: the experiment at {where} {how}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"sim sweep: cannot run the engine {engine}: {e.strerror}", file=sys.stderr)
        return 1
    secs = time.monotonic() - start
    warn_unvalidated(results)
    os.makedirs(s.out, exist_ok=True)
    write_tables(s, grid, results)
    print(f"sim sweep: {len(grid)} experiments in {secs:.1f} s (-j {s.jobs}); "
          f"wrote {os.path.join(s.out, 'sweep.csv')}")
    try:
        drawn = plot.draw(s.out, s.axes, grid, results)
    except plot.PlotError as e:
        print(f"sim sweep: {e}", file=sys.stderr)
        return 1
    print(f"sim sweep: wrote {', '.join(drawn)} (.svg and .png) in {s.out}")
    return 0


def main():
    try:
        return sweep(sys.argv[1:])
    except Usage as e:
        print(f"sim sweep: {e}", file=sys.stderr)
        return 2
