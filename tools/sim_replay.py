#!/usr/bin/python3
"""tools/sim_replay.py - `tools/sim replay TRACE [options] [KNOB=VALUE ...]`:
what-if.  Rebuild each task's demand from a trace the tracer wrote, replay it
through the scheduler on the simulated machine under the same or other knobs,
and print the timer samples' latencies beside the recorded ones.

TRACE is what `tools/trace run -o DIR` (or `make trace`) wrote: DIR, or
DIR/trace.dat or DIR/trace.txt (the ftrace text beside it is read).  The run
must be traced from boot with the sched and timer events (tools/trace's
default), so that every task's life is in it.

The demand, per task, in the order the trace shows it, each step placed at
the task's own CPU time (the sum of its run segments between sched_switch
events, which includes the interrupts the kernel charged to it):
  burn      the CPU it used until its next action;
  fork C    sched_process_fork with it as parent (C's demand follows);
  sleep N   it blocked (prev_state S or D) and an hrtimer woke it (a
            nanosleep: woken N ns after it blocked, whenever that is);
  sigwait   it blocked and its POSIX timer's expiry woke it (the timer's
            expiries stay at their recorded times);
  block / wake P   it blocked and task P woke it from task context (e.g.
            exit waking a parent in wait): P's step "wake" at P's CPU time;
  exit      prev_state X or Z.
A sample starts at a posix_timer_expire and ends when the measured thread
first runs (the notification thread the target forks next, or the target
itself when it forks none: tools/trace_sched.py's definition).  Replayed
under the knobs it was recorded with, the latencies come out as recorded up
to what the model cannot see (docs/EXPLORE.md, "Replay").
Imports trace_text only (downward).
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_text  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNABLE, DEAD = ("R", "R+"), ("X", "Z")


def die(msg):
    print(f"sim replay: {msg}", file=sys.stderr)
    sys.exit(2)


def trace_file(path):
    if os.path.isdir(path):
        path = os.path.join(path, "trace.txt")
    elif path.endswith(".dat"):
        path = os.path.join(os.path.dirname(path) or ".", "trace.txt")
    if not os.path.exists(path):
        die(f"{path}: no such file (give tools/trace's output directory, its trace.dat or trace.txt)")
    return path


def events(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            ev = trace_text.parse_line(line.rstrip("\n"))
            if ev:
                out.append(ev)
    if not any(e["name"] == "sched_switch" for e in out):
        die(f"{path}: no sched_switch events (trace with trace_event=sched:*,timer:*)")
    return out


class Demand:
    """Each task's steps, rebuilt from the events (see the module comment)."""

    def __init__(self, evs):
        self.cpu, self.steps, self.comm, self.parent, self.born = {}, {}, {}, {}, {}
        self.blocked = {}                 # pid -> (index of its block step, ts)
        self.expiries, self.samples = [], []    # (ts, target); (expiry ts, measured pid)
        self.pending = {}                 # target -> expiry ts not yet tied to a thread
        self.sigwaited = set()            # targets whose last signal ended a traced block
        self.cur, self.seg, self.hrtimer_fn = None, None, None
        self.first_tick = None
        self.start = evs[0]["ts"]
        self.end = evs[-1]["ts"]
        for ev in evs:
            getattr(self, "on_" + ev["name"], lambda e: None)(ev)
        for pid, ts in self.pending.items():
            self.samples.append((ts, pid))

    def task(self, pid, comm, parent=0):
        if pid not in self.steps and pid != 0:
            self.steps[pid], self.cpu[pid], self.comm[pid], self.parent[pid] = [], 0, comm, parent

    def pos(self, pid, ts):
        """PID's CPU time at TS: the scheduler's own sum (sched_stat_runtime's
        exact ns), plus the µs since its last update if it is running."""
        return self.cpu[pid] + (max(0, ts - self.seg) if pid == self.cur else 0)

    def on_sched_stat_runtime(self, ev):
        pid = int(ev["fields"]["pid"])
        if pid in self.cpu:
            self.cpu[pid] += int(ev["fields"]["runtime"])
            if pid == self.cur:
                self.seg = ev["ts"]

    def step(self, pid, ts, *what):
        self.steps[pid].append((self.pos(pid, ts), *what))

    def on_sched_switch(self, ev):
        f = ev["fields"]
        prev, nxt, ts = int(f["prev_pid"]), int(f["next_pid"]), ev["ts"]
        if self.cur is None:
            self.cur, self.seg = prev, self.start
        if nxt in self.blocked:           # woken without a traced wakeup: as a sleep
            i, tb = self.blocked.pop(nxt)
            self.steps[nxt][i] = self.steps[nxt][i][:1] + ("sleep", max(0, ts - tb))
        self.task(prev, f["prev_comm"])
        self.task(nxt, f["next_comm"])
        if prev:
            self.cpu[prev] = self.pos(prev, ts)
            state = f["prev_state"]
            if state in DEAD:
                self.steps[prev].append((self.cpu[prev], "exit"))
            elif state not in RUNNABLE:
                self.steps[prev].append((self.cpu[prev], "block"))
                self.blocked[prev] = (len(self.steps[prev]) - 1, ts)
        self.cur, self.seg = nxt, ts

    def on_hrtimer_expire_entry(self, ev):
        self.hrtimer_fn = ev["fields"].get("function")
        if self.hrtimer_fn == "tick_sched_timer":
            self.first_tick = int(ev["fields"]["now"])  # the last: past the boot's catch-up

    def on_hrtimer_expire_exit(self, ev):
        self.hrtimer_fn = None

    def on_posix_timer_expire(self, ev):
        target, ts = int(ev["fields"]["pid"]), ev["ts"]
        self.expiries.append((ts, target))
        if target in self.pending:        # the previous one's thread never came
            self.samples.append((self.pending.pop(target), target))
        self.pending[target] = ts
        if target in self.blocked:
            i, _ = self.blocked.pop(target)
            self.steps[target][i] = self.steps[target][i][:1] + ("sigwait",)
            self.sigwaited.add(target)

    def on_sched_wakeup(self, ev):
        p, ts = int(ev["fields"]["pid"]), ev["ts"]
        if p not in self.blocked:
            return
        i, tb = self.blocked.pop(p)
        if self.hrtimer_fn is not None or not self.cur:
            self.steps[p][i] = self.steps[p][i][:1] + ("sleep", max(0, ts - tb))
        else:
            self.step(self.cur, ts, "wake", p)

    def on_sched_process_fork(self, ev):
        f, ts = ev["fields"], ev["ts"]
        parent, child = int(f["pid"]), int(f["child_pid"])
        self.task(child, f["child_comm"], parent)
        if parent == 0:                   # the boot's first task: spawned from idle
            self.born[child] = ts
            return
        self.task(parent, f["comm"])
        measure = parent in self.pending
        if measure:
            self.samples.append((self.pending.pop(parent), child))
            if parent not in self.sigwaited:
                # the signal was pending when it called sigwaitinfo (no block in
                # the trace): the call was at the start of this burst
                steps = self.steps[parent]
                steps.append((steps[-1][0] if steps else 0, "sigwait"))
            self.sigwaited.discard(parent)
        self.step(parent, ts, "fork", child, "measure" if measure else "")

    def script(self):
        """The engine's input (tools/simeng/replay.c)."""
        lines = [f"start {self.start}", f"end {self.end}", f"tick {self.first_tick or 0}"]
        for ts, target in self.expiries:
            lines.append(f"expiry {ts} {target}")
        for ts, pid in self.samples:
            lines.append(f"sample {ts} {pid}")
        for pid in self.steps:
            lines.append(f"task {pid} {self.parent[pid]} {self.born.get(pid, self.start)} "
                         f"{self.comm[pid] or '?'}")
        for pid, steps in self.steps.items():
            done = 0
            for pos, *what in steps:
                if pos > done:
                    lines.append(f"{pid} burn {pos - done}")
                    done = pos
                lines.append(f"{pid} " + " ".join(str(w) for w in what if w != ""))
            if self.pos(pid, self.end) > done or not steps or steps[-1][1] not in ("exit",):
                lines.append(f"{pid} burn {max(1, self.pos(pid, self.end) - done)}")
                lines.append(f"{pid} hold")
        return "\n".join(lines) + "\n"


def recorded(d, evs):
    """The recorded latency of each sample: expiry -> the measured thread's first switch-in."""
    first = {}
    for ev in evs:
        if ev["name"] == "sched_switch":
            nxt = int(ev["fields"]["next_pid"])
            first.setdefault(nxt, []).append(ev["ts"])
    out = []
    for ts, pid in d.samples:
        runs = [t for t in first.get(pid, []) if t >= ts]
        out.append(runs[0] - ts if runs else None)
    return out


def main():
    ap = argparse.ArgumentParser(prog="tools/sim replay", description=__doc__.split("\n\n")[0])
    ap.add_argument("trace", help="tools/trace's output directory, or its trace.dat / trace.txt")
    ap.add_argument("--preset", help="sched_preset to replay under (default: the recorded one)")
    ap.add_argument("--hz", help="HZ to replay at (default: the recorded one)")
    ap.add_argument("--script", help="also write the rebuilt demand to this file")
    ap.add_argument("knobs", nargs="*", help="KNOB=VALUE boot-line knobs")
    args = ap.parse_args()
    for k in args.knobs:
        if "=" not in k:
            die(f"{k}: expected KNOB=VALUE")
    path = trace_file(args.trace)
    evs = events(path)
    d = Demand(evs)
    rec = recorded(d, evs)
    log = os.path.join(os.path.dirname(path), "serial.log")
    res = {}
    if os.path.exists(log):
        res = trace_text.results(open(log, errors="replace").read()).get("wakeup-latency", {})
    rec_preset, rec_hz = res.get("preset"), str(res["hz"]) if "hz" in res else None
    preset, hz = args.preset or rec_preset, args.hz or rec_hz
    if not preset or not hz:
        die("the recorded preset and HZ are unknown (no serial.log beside the trace): give --preset and --hz")
    with tempfile.NamedTemporaryFile("w", suffix=".replay", delete=False) as f:
        f.write(d.script())
        script = f.name
    if args.script:
        with open(args.script, "w") as out:
            out.write(d.script())
    sim = os.path.join(ROOT, "tools", "sim")
    r = subprocess.run([sim, "replay-script", script, "--preset", preset, "--hz", str(hz), *args.knobs],
                       capture_output=True, text=True)
    os.unlink(script)
    if r.returncode:
        sys.stderr.write(r.stderr)
        sys.exit(r.returncode)
    print(f"replay: {len(d.steps)} tasks, {len(d.samples)} timer samples from {path}; "
          f"recorded under {rec_preset or '?'} at HZ={rec_hz or '?'}; replayed under --preset {preset} --hz {hz}"
          + (" " + " ".join(args.knobs) if args.knobs else ""))
    lines = r.stdout.splitlines()
    sim_lat = [int(l.split()[2]) if l.split()[2] != "-" else None for l in lines if l.startswith("sample ")]
    both = [(a, b) for a, b in zip(rec, sim_lat) if a is not None and b is not None]
    for l in lines:
        if not l.startswith("sample "):
            print(l)
    if both:
        rmax, smax = max(a for a, _ in both), max(b for _, b in both)
        ravg, savg = sum(a for a, _ in both) / len(both), sum(b for _, b in both) / len(both)
        same = sum(1 for a, b in both if abs(a - b) <= 2000)
        print(f"recorded: max {rmax / 1000:.1f} µs, avg {ravg / 1000:.1f} µs over {len(both)} samples")
        print(f"replayed: max {smax / 1000:.1f} µs, avg {savg / 1000:.1f} µs; "
              f"{same} of {len(both)} samples within 2 µs of the recorded one")


if __name__ == "__main__":
    main()
