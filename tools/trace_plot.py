"""tools/trace_plot.py - gnuplot pictures of a trace (PNG and SVG):

  timeline   one row per task that ran: a bar while it runs (sched_switch),
             an arrow from each POSIX timer expiry to the first instruction
             of the thread it woke (tools/trace_sched.py's samples);
  vruntime   each task's vruntime (sched_stat_runtime) and min_vruntime
             (sched_place) over time, in ms;
  worst      the timeline around the worst sample, from 1 ms before its
             expiry to 1 ms after its thread started.
"""
import os

from bench_common import gnuplot


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
    dat = os.path.join(outdir, "vruntime.dat")
    with open(dat, "w") as f:
        for e in ev:
            if e["name"] == "sched_stat_runtime":
                f.write("%.6f %.6f\n" % (e["ts"] / 1e6, int(e["fields"]["vruntime"]) / 1e6))
        f.write("\n\n")
        for e in ev:
            if e["name"] == "sched_place":
                f.write("%.6f %.6f\n" % (e["ts"] / 1e6, (int(e["fields"]["min_vruntime"]) % 2**64) / 1e6))
    gnuplot("set terminal @TERM\nset output '@OUT'\nset title 'vruntime of every task, and min_vruntime'\n"
            "set xlabel 'time (ms)'\nset ylabel 'vruntime (ms)'\nset yrange [0:*]\n"
            "plot '%s' index 0 using 1:2 with dots lc rgb '#3060c0' title 'tasks (sched_stat_runtime)', "
            "'' index 1 using 1:2 with lines lw 2 lc rgb '#d03020' title 'min_vruntime (sched_place)'\n"
            % dat, os.path.join(outdir, "vruntime"))
