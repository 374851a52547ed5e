"""tools/granule/trace/plot.py - gnuplot pictures of a trace (PNG and SVG):

  timeline   one row per task that ran: a bar while it runs (sched_switch),
             an arrow from each POSIX timer expiry to the first instruction
             of the thread it woke (tools/granule/trace/sched.py's samples);
  vruntime   each task's vruntime - min_vruntime (sched_stat_runtime, sched_place),
             one line per busy task
             (sched_place) over time, in ms;
  worst      the timeline around the worst sample, from 1 ms before its
             expiry to 1 ms after its thread started.
"""
import os

from ..gnuplot import gnuplot


def run_intervals(events):
    """[(pid, start ns, end ns)] from the sched_switch chain."""
    out, cur, since = [], None, None
    for e in events:
        if e["name"] != "sched_switch":
            continue
        f = e["fields"]
        if cur is not None:
            out.append((cur, since, e["ts"]))
        cur, since = int(f["next_pid"]), e["ts"]
    return out


def _timeline(sched, samples, outdir, base, t0, t1, title):
    runs = [r for r in run_intervals(sched.ev) if r[2] >= t0 and r[1] <= t1 and r[0] != 0]
    pids = sorted({r[0] for r in runs})
    row = {p: i for i, p in enumerate(pids)}
    dat = os.path.join(outdir, base + ".dat")
    with open(dat, "w") as f:
        for p, a, b in runs:
            f.write("%.6f %d %.6f\n" % (max(a, t0) / 1e6, row[p], (min(b, t1) - max(a, t0)) / 1e6))
        f.write("\n\n")
        for s in samples:
            if t0 <= s["expiry"] <= t1 and s["thread"] in row:
                f.write("%.6f %d %.6f %d\n" % (s["expiry"] / 1e6, -1, (s["start"] - s["expiry"]) / 1e6,
                                               row[s["thread"]] + 1))
    tics = ", ".join('"%s" %d' % (sched.name(p), i) for p, i in row.items())
    step = max(1, len(pids) // 40)
    tics = ", ".join('"%s" %d' % (sched.name(p), i) for p, i in row.items() if i % step == 0)
    gnuplot("set terminal @TERM\nset output '@OUT'\nset title '%s'\nset xlabel 'time (ms)'\n"
            "set ytics (%s) font ',7'\nset yrange [-2:%d]\nset key off\n"
            "plot '%s' index 0 using 1:2:3:(0) with vectors nohead lw 4 lc rgb '#3060c0', "
            "'' index 1 using 1:2:3:4 with vectors head filled lc rgb '#d03020'\n"
            % (title, tics, len(pids) + 1, dat), os.path.join(outdir, base))


def plots(sched, samples, outdir):
    ev = sched.ev
    if not ev:
        return
    t0, t1 = ev[0]["ts"], ev[-1]["ts"]
    _timeline(sched, samples, outdir, "timeline", t0, t1, "who ran when; arrows: timer expiry -> woken thread")
    if samples:
        w = max(samples, key=lambda s: s["latency"])
        _timeline(sched, samples, outdir, "worst", w["expiry"] - 10**6, w["start"] + 10**6,
                  "worst sample: %.1f us (%s)" % (w["latency"] / 1e3, sched.name(w["thread"])))
    _vruntime(sched, outdir)


VRUNTIME_LINES = 8      # tasks drawn as their own line (the most run events); the rest as dots
KEY_LIMIT_NS = 100 * 10**6  # keys beyond +-100 ms are left out: a task not on this cfs_rq (no
                            # min_vruntime of its own yet) would squash the others to a line


def _vruntime(sched, outdir):
    """vruntime.png/.svg: each task's vruntime - min_vruntime (ms) over the run,
    one line per busy task.  Absolute vruntimes all sit within a few ms of
    min_vruntime, which grows by seconds over a run, so on that scale the
    tasks would be one thick line; the key (what the rbtree sorts by) keeps
    them apart.  min_vruntime is the last sched_place event's value."""
    mv, rows = None, {}
    for e in sched.ev:
        if e["name"] == "sched_place":
            mv = int(e["fields"]["min_vruntime"]) % 2**64
        elif e["name"] == "sched_stat_runtime" and mv is not None:
            key = int(e["fields"]["vruntime"]) - mv
            if abs(key) <= KEY_LIMIT_NS:
                rows.setdefault(e["pid"], []).append((e["ts"] / 1e6, key / 1e6))
    if not rows:
        return
    busy = sorted(rows, key=lambda p: -len(rows[p]))[:VRUNTIME_LINES]
    dat = os.path.join(outdir, "vruntime.dat")
    with open(dat, "w") as f:
        for pid in busy + ["rest"]:
            pts = rows[pid] if pid != "rest" else [x for p in rows if p not in busy for x in rows[p]]
            f.write("".join("%.6f %.6f\n" % x for x in (pts or [(0, 0)])) + "\n\n")
    plots = ["'%s' index %d using 1:2 with lines lw 1.5 title '%s'" % (dat, i, sched.name(p).replace("'", ""))
             for i, p in enumerate(busy)]
    plots.append("'%s' index %d using 1:2 with dots lc rgb '#a0a0a0' title 'other tasks'" % (dat, len(busy)))
    gnuplot("set terminal @TERM\nset output '@OUT'\n"
            "set title 'vruntime - min_vruntime of each task (the rbtree key)'\n"
            "set xlabel 'time (ms)'\nset ylabel 'vruntime - min_vruntime (ms)'\n"
            "set key outside right font ',8'\nplot " + ", ".join(plots) + "\n",
            os.path.join(outdir, "vruntime"))
