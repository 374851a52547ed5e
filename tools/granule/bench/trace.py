"""tools/granule/bench/trace.py - the bench's traced runs: why the headline's worst sample waited.

For the headline presets (TRACE_PRESETS) the matrix adds one job each that
boots the headline configuration (thread mode, kbuild:10, HZ=250, first load
seed) with the tracer on (trace_event=sched:*,timer:*, a 4 MiB buffer) for
TRACE_DURATION seconds at most: 3 s of this load write about 18,000 events,
which the buffer holds whole, so the trace's worst sample is the run's.
If the buffer did overflow, the report says how many events were lost and
gives the worst sample the trace holds beside the run's own maximum.

  trace_jobs(presets, modes, loads, duration, cmdline)  the jobs (bench "trace")
  plots(runs, out)       worst-PRESET.png/.svg: the zoom (granule/trace/plot.py)
  report(runs)           the Markdown section: picture, table, and a sentence
                         on why it waited (granule/trace/worst.py's why(), from
                         the attribution its analyse() wrote into the run)
"""
from ..trace import plot as trace_plot
from ..trace import sched as trace_sched
from ..trace import text as trace_text
from ..trace.worst import PLACE_WHAT, ZOOM_NS, why

TRACE_PRESETS = ["linux-2.6.35", "no-start-debit", "commit-0bf377bbb0be"]
TRACE_MODE, TRACE_LOAD, TRACE_HZ, TRACE_SEED = "thread", "kbuild:10", 250, 1
TRACE_DURATION = 3              # seconds: the 4 MiB buffer holds the whole run
TRACE_KNOBS = "trace_event=sched:*,timer:* trace_buf_size=4M"


def trace_jobs(presets, modes, loads, duration, cmdline):
    """One traced job per headline preset in the matrix (thread mode and kbuild:10 must be in it)."""
    if TRACE_MODE not in modes or TRACE_LOAD not in loads:
        return []
    secs = min(duration, TRACE_DURATION)
    return [dict(label=f"trace {p} {TRACE_MODE} {TRACE_LOAD} HZ={TRACE_HZ} seed={TRACE_SEED}",
                 bench="trace", kernel="granule", preset=p, mode=TRACE_MODE, load=TRACE_LOAD,
                 hz=TRACE_HZ, seed=TRACE_SEED,
                 cmdline=TRACE_KNOBS + " " + cmdline(p, TRACE_MODE, TRACE_LOAD, secs, TRACE_SEED,
                                                     hz=TRACE_HZ))
            for p in TRACE_PRESETS if p in presets]


def traced(runs):
    return [r for r in runs if r.get("bench") == "trace" and r.get("trace", {}).get("worst")]


def plots(runs, out):
    """worst-PRESET.png/.svg for every traced run that has a worst sample."""
    for run in traced(runs):
        w = run["trace"]["worst"]
        sched = trace_sched.Sched(w["window"])
        sample = {"expiry": w["expiry"], "start": w["start"], "thread": w["pid"]}
        trace_plot._timeline(sched, [sample], out, f"worst-{run['preset']}",
                             w["expiry"] - ZOOM_NS, w["start"] + ZOOM_NS,
                             f"{run['preset']}: worst sample, {w['latency'] / 1e3:.1f} us "
                             f"({w['thread']}); arrow: expiry -> first run")


def report(runs):
    """The section on the traced runs (empty without them)."""
    mine = [r for r in runs if r.get("bench") == "trace"]
    if not mine:
        return []
    lines = ["## Why the worst sample waited (traced runs)", "",
             f"Each headline preset ran once more with the tracer on ({TRACE_MODE} mode, "
             f"{TRACE_LOAD}, HZ={TRACE_HZ}, load seed {TRACE_SEED}, `{TRACE_KNOBS}`; "
             "docs/TRACING.md). The picture is the timeline from 1 ms before the worst sample's "
             "timer expiry to 1 ms after its thread first ran; the table lists the tasks that ran "
             "in between, longest first, with their vruntime when they started relative to the "
             "woken thread's (negative: CFS's pick came before it).", ""]
    for run in mine:
        tr = run.get("trace", {})
        lines += [f"### {run['preset']}", ""]
        if not tr.get("worst"):
            lines += [f"*no traced sample: {tr.get('error', 'no timer expiry in the trace')}*", ""]
            continue
        w = tr["worst"]
        lines += [f"![worst sample, {run['preset']}](worst-{run['preset']}.svg)", "",
                  f"Trace of a {run['results'].get('wakeup-latency', {}).get('duration_s', '?')} s "
                  f"run: {tr['events']} events, {tr['lost']} lost, "
                  f"{trace_text.not_traced(tr['samples'], run['results'].get('wakeup-latency'))}; "
                  f"the worst is sample {w['index']} (expiry {w['expiry'] / 1e9:.6f} s).", ""]
        pl = w.get("placement")
        if pl:
            lines += [f"Placement at {pl['ts'] / 1e9:.6f} s "
                      f"({PLACE_WHAT[pl['reason']][0 if pl['delta'] > 0 else 1]}): vruntime "
                      f"{pl['vruntime']} = min_vruntime {pl['min_vruntime']} "
                      f"{(pl['vruntime'] - pl['min_vruntime']) / 1e6:+.3f} ms.", ""]
        lines += ["| task that ran | run (ms) | vruntime − woken's (ms) |", "|---|---|---|"]
        for r in w["ran"]:
            rel = f"{r['vrel_ns'] / 1e6:+.3f}" if r["vrel_ns"] is not None else "–"
            lines.append(f"| {r['task']} | {r['run_ns'] / 1e6:.3f} | {rel} |")
        lines += ["", "Why: " + why(run), ""]
    return lines
