"""tools/granule/trace/sched.py - read scheduling out of a trace (tools/granule/trace/text.py
events): per-task latency like 'perf sched latency', and for the worst
wakeup-latency samples, who ran between the timer expiry and the woken
thread's first instruction, like 'perf sched timehist'.

A sample starts at a posix_timer_expire event (ts = the expiry, as the
hrtimer ran it) for a target thread T.  The measured thread is T itself
(SIGEV_SIGNAL), or, if T forks before it sleeps again, T's child: the
SIGEV_THREAD notification thread, which glibc (and Granule's libc) start
at every expiry.  The sample ends when that thread is first switched in.
wakeup-latency's trace_marker lines (sample=K expiry=NS latency=NS) give
the latency the program measured; they are matched to expiries in order.
"""
from . import text as trace_text

INF = float("inf")


def ms(ns):
    return ns / 1e6


def f_int(ev, k):
    return int(ev["fields"][k])


class Sched:
    """The events, indexed for the questions below."""

    def __init__(self, events):
        self.ev = events
        self.switches = [(i, e) for i, e in enumerate(events) if e["name"] == "sched_switch"]
        self.comm = {}
        for e in events:
            for p, c in (("prev_pid", "prev_comm"), ("next_pid", "next_comm"), ("pid", "comm"),
                         ("child_pid", "child_comm")):
                if p in e["fields"] and c in e["fields"]:
                    self.comm[int(e["fields"][p])] = e["fields"][c]

    def name(self, pid):
        return "%s[%d]" % (self.comm.get(pid, "?"), pid)

    # ---- samples ----
    def samples(self):
        out = []
        expiries = [(i, e) for i, e in enumerate(self.ev) if e["name"] == "posix_timer_expire"]
        for i, e in expiries:
            target = f_int(e, "pid")
            thread, start, j = target, None, i + 1
            while j < len(self.ev):
                x = self.ev[j]
                if x["name"] == "sched_process_fork" and x["pid"] == target and thread == target:
                    thread = f_int(x, "child_pid")
                elif x["name"] == "sched_switch" and f_int(x, "next_pid") == thread:
                    if thread != target or not self._forks_before_sleep(j, target):
                        start = j
                        break
                j += 1
            if start is not None:
                out.append({"index": len(out), "expiry": e["ts"], "i0": i, "i1": start, "thread": thread,
                            "start": self.ev[start]["ts"], "latency": self.ev[start]["ts"] - e["ts"]})
        marks = [m for m in self.ev if m["name"] == "print" and "sample=" in m["fields"]["buf"]]
        for s, m in zip(out, marks):
            kv = dict(w.split("=", 1) for w in m["fields"]["buf"].split() if "=" in w)
            s["measured"] = int(kv.get("latency", -1))
            s["index"] = int(kv.get("sample", -1))
        return out

    def _forks_before_sleep(self, j, pid):
        """Does PID, switched in at event J, fork before it next sleeps?"""
        for x in self.ev[j + 1:]:
            if x["name"] == "sched_process_fork" and f_int(x, "pid") == pid:
                return True
            if x["name"] == "sched_switch" and f_int(x, "prev_pid") == pid:
                return False
        return False

    # ---- attribution ----
    def ran_between(self, i0, i1):
        """[(pid, run ns, vruntime when it started running)] of the tasks
        that ran in events i0..i1 (the vruntime before its first charge)."""
        t_prev, cur, ran, vr = self.ev[i0]["ts"], self.ev[i0]["pid"], {}, {}
        for x in self.ev[i0:i1 + 1]:
            if x["name"] == "sched_stat_runtime" and f_int(x, "pid") not in vr:
                vr[f_int(x, "pid")] = f_int(x, "vruntime") - f_int(x, "runtime")
            if x["name"] == "sched_switch":
                ran[cur] = ran.get(cur, 0) + x["ts"] - t_prev
                t_prev, cur = x["ts"], f_int(x, "next_pid")
        return [(p, t, vr.get(p)) for p, t in ran.items() if p != 0 or t > 0]

    def placement(self, pid, before):
        """The last sched_place of PID before event index BEFORE."""
        for x in reversed(self.ev[:before]):
            if x["name"] == "sched_place" and f_int(x, "pid") == pid:
                return x
        return None

    # ---- perf sched latency ----
    def latency_table(self):
        """{comm: [runtime, switches, delay sum, delay count, max delay, max at]}."""
        ready, rows, pid_comm = {}, {}, {}
        for e in self.ev:
            n, f = e["name"], e["fields"]
            if n in ("sched_wakeup", "sched_wakeup_new"):
                ready.setdefault(int(f["pid"]), e["ts"])
            elif n == "sched_stat_runtime":
                p = int(f["pid"])
                pid_comm[p] = f["comm"]
                rows.setdefault(f["comm"], [0, 0, 0, 0, 0, 0, set()])[0] += int(f["runtime"])
            elif n == "sched_switch":
                prev, nxt = int(f["prev_pid"]), int(f["next_pid"])
                if f["prev_state"].startswith("R"):
                    ready[prev] = e["ts"]          # preempted: waits again from now
                if nxt == 0:
                    continue
                r = rows.setdefault(f["next_comm"], [0, 0, 0, 0, 0, 0, set()])
                r[1] += 1
                r[6].add(nxt)
                if nxt in ready:
                    d = e["ts"] - ready.pop(nxt)
                    r[2] += d
                    r[3] += 1
                    if d > r[4]:
                        r[4], r[5] = d, e["ts"]
        return rows


def latency_report(s):
    rows = s.latency_table()
    bar = " " + "-" * 108
    out = [bar, "  %-22s|  %13s | %9s | %-16s | %-16s | %-20s |" % (
        "Task", "Runtime ms", "Switches", "Avg delay ms", "Max delay ms", "Max delay at"), bar]
    tot_rt = tot_sw = 0
    for comm, (rt, sw, dsum, dn, dmax, dat, pids) in sorted(rows.items(), key=lambda kv: -kv[1][4]):
        task = "%s:(%d)" % (comm, len(pids)) if len(pids) > 1 else "%s:%d" % (comm, min(pids) if pids else -1)
        out.append("  %-22s|%11.3f ms |%10d | avg:%9.3f ms | max:%9.3f ms | max at: %10.6f s |" % (
            task[:22], ms(rt), sw, ms(dsum / dn) if dn else 0.0, ms(dmax), dat / 1e9))
        tot_rt, tot_sw = tot_rt + rt, tot_sw + sw
    out += [bar, "  TOTAL:                |%11.3f ms |%10d |" % (ms(tot_rt), tot_sw), bar]
    return "\n".join(out) + "\n"


def attribution_report(s, worst=10, result=None):
    """The worst WORST samples' attribution; RESULT (the program's
    wakeup-latency RESULT fields) gives the run's own sample count, so the
    header says how many samples the trace does not hold."""
    samples = s.samples()
    key = (lambda x: x.get("measured", x["latency"]))
    out = ["wakeup latency attribution: %s, the worst %d" % (trace_text.not_traced(len(samples), result),
                                                              min(worst, len(samples))), ""]
    for smp in sorted(samples, key=key, reverse=True)[:worst]:
        th = smp["thread"]
        out.append("sample %s: expiry %.6f s, %s first ran at %.6f s: latency %.1f us%s" % (
            smp.get("index", "?"), smp["expiry"] / 1e9, s.name(th), smp["start"] / 1e9,
            smp["latency"] / 1e3,
            " (measured by the program: %.1f us)" % (smp["measured"] / 1e3) if "measured" in smp else ""))
        pl = s.placement(th, smp["i1"])
        v_woken = None
        if pl:
            f = pl["fields"]
            v_woken = int(f["vruntime"])
            what = {"initial": "fork: START_DEBIT vslice" if int(f["delta"]) > 0 else "fork: no debit",
                    "wakeup": "wakeup: sleeper credit", "start_nice": "fork: START_NICE penalty"}[f["reason"]]
            out.append("  placed at %.6f s (%s): vruntime %s = min_vruntime %s %+.3f ms" % (
                pl["ts"] / 1e9, what, f["vruntime"], f["min_vruntime"],
                ms(int(f["vruntime"]) - int(f["min_vruntime"]))))
        out.append("    %-28s %12s %22s" % ("task that ran", "run (ms)", "vruntime - woken's (ms)"))
        for pid, t, vr in sorted(s.ran_between(smp["i0"], smp["i1"]), key=lambda r: -r[1]):
            rel = "%+22.3f" % ms(vr - v_woken) if vr is not None and v_woken is not None else "%22s" % "-"
            out.append("    %-28s %12.3f %s" % (s.name(pid), ms(t), rel))
        out.append("")
    return "\n".join(out)
