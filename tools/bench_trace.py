"""tools/bench_trace.py - the bench's traced runs: why the headline's worst sample waited.

For the headline presets (TRACE_PRESETS) the matrix adds one job each that
boots the headline configuration (thread mode, kbuild:10, HZ=250, first load
seed) with the tracer on (trace_event=sched:*,timer:*, a 4 MiB buffer) for
TRACE_DURATION seconds at most: 3 s of this load write about 18,000 events,
which the buffer holds whole, so the trace's worst sample is the run's.
If the buffer did overflow, the report says how many events were lost and
gives the worst sample the trace holds beside the run's own maximum.

  trace_jobs(presets, modes, loads, duration, cmdline)  the jobs (bench "trace")
  analyse(lines)         from a traced boot's serial lines: the worst sample's
                         attribution (tools/trace_sched.py) and the events of
                         its zoom window, small enough for runs.json
  plots(runs, out)       worst-PRESET.png/.svg: the zoom (tools/trace_plot.py)
  report(runs)           the Markdown section: picture, table, and a sentence
                         on why it waited, computed from the attribution
"""
import trace_plot
import trace_sched
import trace_text

TRACE_PRESETS = ["linux-2.6.35", "no-start-debit", "commit-0bf377bbb0be"]
TRACE_MODE, TRACE_LOAD, TRACE_HZ, TRACE_SEED = "thread", "kbuild:10", 250, 1
TRACE_DURATION = 3              # seconds: the 4 MiB buffer holds the whole run
TRACE_KNOBS = "trace_event=sched:*,timer:* trace_buf_size=4M"
ZOOM_NS = 10**6                 # the zoom: 1 ms before the expiry to 1 ms after the first run
PLACE_WHAT = {"initial": ("fork: START_DEBIT vslice", "fork: no debit"),
              "wakeup": ("wakeup: sleeper credit",) * 2,
              "start_nice": ("fork: START_NICE penalty",) * 2}


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


def _slim(ev):
    return {k: ev[k] for k in ("name", "ts", "pid", "comm", "fields")}


def analyse(lines):
    """{events, lost, samples, worst: {...}} of a traced boot, or {error}."""
    try:
        dump = trace_text.find_dump("\n".join(lines))
    except ValueError as e:
        return {"error": str(e)}
    s = trace_sched.Sched(dump.events)
    samples = s.samples()
    out = {"events": len(dump.events), "lost": dump.lost, "samples": len(samples)}
    if not samples:
        return out
    w = max(samples, key=lambda x: x.get("measured", x["latency"]))
    th = w["thread"]
    worst = {"index": w["index"], "expiry": w["expiry"], "start": w["start"],
             "latency": w["latency"], "thread": s.name(th), "pid": th}
    pl = s.placement(th, w["i1"])
    v_woken = None
    if pl:
        f = pl["fields"]
        v_woken = int(f["vruntime"])
        worst["placement"] = {"ts": pl["ts"], "reason": f["reason"], "delta": int(f["delta"]),
                              "vruntime": v_woken, "min_vruntime": int(f["min_vruntime"])}
    worst["ran"] = [{"task": s.name(pid), "pid": pid, "run_ns": t,
                     "vrel_ns": vr - v_woken if vr is not None and v_woken is not None else None}
                    for pid, t, vr in sorted(s.ran_between(w["i0"], w["i1"]), key=lambda r: -r[1])
                    if pid not in (0, th)]
    t0, t1 = w["expiry"] - ZOOM_NS, w["start"] + ZOOM_NS
    # the zoom's events, and the switch that tells who was running when it opens
    before = [e for e in dump.events if e["ts"] < t0 and e["name"] == "sched_switch"][-1:]
    worst["window"] = [_slim(e) for e in before + [e for e in dump.events if t0 <= e["ts"] <= t1]]
    out["worst"] = worst
    return out


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


def why(run):
    """Sentences on why the worst sample waited, from the attribution alone."""
    w, tr = run["trace"]["worst"], run["trace"]
    ms = lambda ns: f"{ns / 1e6:.3f} ms"  # noqa: E731
    text = f"{w['thread']} waited {w['latency'] / 1e3:.1f} µs."
    pl = w.get("placement")
    if pl:
        what, off = PLACE_WHAT[pl["reason"]][0 if pl["delta"] > 0 else 1], \
            pl["vruntime"] - pl["min_vruntime"]
        where = "at min_vruntime" if off == 0 else \
            f"{ms(abs(off))} of vruntime {'right' if off > 0 else 'left'} of min_vruntime"
        text += f" The placement ({what}) put it {where}."
    ran = w["ran"]
    if ran:
        left = [r for r in ran if r["vrel_ns"] is not None and r["vrel_ns"] < 0]
        top = ran[0]                    # the table's order: longest first
        text += (f" Before it first ran, {len(ran)} other task{'s' if len(ran) > 1 else ''} ran for "
                 f"{ms(sum(r['run_ns'] for r in ran))} in all, {len(left)} of them with a vruntime "
                 f"left of its own (the longest: {top['task']}, {ms(top['run_ns'])}).")
    else:
        text += " No other task ran in between."
    result = run["results"].get("wakeup-latency", {})
    mx = result.get("max_us")
    if tr.get("lost"):
        text += (f" The buffer lost its {tr['lost']} oldest events, so this is the worst sample "
                 f"the trace holds; the run's own maximum was {mx} µs.")
    elif mx is not None and abs(w["latency"] / 1e3 - mx) <= 0.01 * mx:
        text += f" The trace lost no event, and this is the run's maximum (RESULT: {mx} µs)."
    elif mx is not None:
        text += (f" The trace lost no event; the run's maximum (RESULT: {mx} µs) is a sample "
                 "the trace could not tie to a thread.")
    return text


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
