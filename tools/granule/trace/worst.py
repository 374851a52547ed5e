"""tools/granule/trace/worst.py - why the worst sample waited: its attribution, read from a
trace (who ran between the timer's expiry and the woken thread's first run, and where
place_entity put it), and the sentences that say so.  tools/trace ends with them and
the bench's traced runs (granule/bench/trace.py) report them.

  analyse(lines)   from a traced boot's serial lines: the worst sample's attribution
                   (trace/sched.py) and the events of its zoom window, small enough for runs.json
  why(run)         the sentences, from the attribution alone
"""
from . import sched as trace_sched
from . import text as trace_text

ZOOM_NS = 10**6                 # the zoom: 1 ms before the expiry to 1 ms after the first run
PLACE_WHAT = {"initial": ("fork: START_DEBIT vslice", "fork: no debit"),
              "wakeup": ("wakeup: sleeper credit",) * 2,
              "start_nice": ("fork: START_NICE penalty",) * 2}


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
