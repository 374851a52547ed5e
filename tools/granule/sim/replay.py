"""tools/granule/sim/replay.py - `tools/sim replay TRACE [options] [KNOB=VALUE ...]`:
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
A burst of a program that burns CPU in burn_cpu_ns() (video-load, and
kbuild-load's jobs and their children) is replayed in its chunks, each
ended by a CPU-time clock read; any other task's runs straight through, so
that, as in the image, a fork or wakeup after it finds the runqueue's clock
where the last system call left it.  When a tick preempts, the leaving
task's last charge (from the tick's update_curr() to schedule()'s) is the
kernel's path; it stays in the task's CPU, and the machine spends it there
at the tick, as the median of those charges (tick_preempt), so that slices
end where the image's did.
A sample starts at a posix_timer_expire and ends when the measured thread
first runs (the notification thread the target forks next, or the target
itself when it forks none: tools/granule/trace/sched.py's definition).  Replayed
under the knobs it was recorded with, the latencies come out as recorded up
to what the model cannot see (docs/EXPLORE.md, "Replay").
Imports granule.trace.text only (downward).
"""
import argparse
import os
import subprocess
import sys
import tempfile

from ..paths import ROOT
from ..trace import text as trace_text
RUNNABLE, DEAD = ("R", "R+"), ("X", "Z")
# the events of a tick that preempts: the tick, its update_curr, the check,
# the leaving task's last update_curr, the switch
TICK_PATH = ("hrtimer_expire_entry", "hrtimer_expire_exit", "sched_stat_runtime",
             "sched_preempt_check", "sched_switch")


def mode(xs):
    """The most common value of XS (the smallest of equally common ones)."""
    n = {}
    for x in xs:
        n[x] = n.get(x, 0) + 1
    return min(n, key=lambda x: (-n[x], x))


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
    cpus = sorted({e["cpu"] for e in out})
    if cpus != [0]:
        die(f"{path}: events on CPUs {','.join(map(str, cpus))}: the simulator replays one CPU "
            f"(trace a -smp 1 run)")
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
        self.ticks = []                   # tick_sched_timer's expiry times (its `now`)
        # a tick's preemption: the tick's update_curr, then the leaving task's
        # last one in schedule() (tick_pid, charges seen, that last runtime)
        self.tick_pid, self.tick_charges, self.tick_b = None, 0, None
        self.tick_preempt = []            # those last runtimes
        self.start = evs[0]["ts"]
        self.end = evs[-1]["ts"]
        for ev in evs:
            if ev["name"] not in TICK_PATH:
                self.tick_pid = None      # not a tick's preemption after all
            getattr(self, "on_" + ev["name"], lambda e: None)(ev)
        for pid, ts in self.pending.items():
            self.samples.append((ts, pid))

    def task(self, pid, comm, parent=0):
        if pid not in self.steps and pid != 0:
            self.steps[pid], self.cpu[pid], self.parent[pid] = [], 0, parent
        if pid != 0:
            self.comm[pid] = comm         # the latest: exec renames

    def pos(self, pid, ts):
        """PID's CPU time at TS: the scheduler's own sum (sched_stat_runtime's
        exact ns), plus the µs since its last update if it is running."""
        return self.cpu[pid] + (max(0, ts - self.seg) if pid == self.cur else 0)

    def on_sched_stat_runtime(self, ev):
        pid = int(ev["fields"]["pid"])
        if pid == self.tick_pid and self.tick_charges < 2:
            self.tick_charges += 1
            if self.tick_charges == 2:
                self.tick_b = int(ev["fields"]["runtime"])
        else:
            self.tick_pid = None
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
            if prev == self.tick_pid and self.tick_b is not None and state in RUNNABLE:
                # the tick preempted it: the path to schedule(), in its CPU
                # time (the machine spends it there, as tick_preempt)
                self.tick_preempt.append(self.tick_b)
            self.tick_pid, self.tick_b = None, None
            if state in DEAD:
                self.steps[prev].append((self.cpu[prev], "exit"))
            elif state not in RUNNABLE:
                self.steps[prev].append((self.cpu[prev], "block"))
                self.blocked[prev] = (len(self.steps[prev]) - 1, ts)
        self.cur, self.seg = nxt, ts

    def on_hrtimer_expire_entry(self, ev):
        self.hrtimer_fn = ev["fields"].get("function")
        self.tick_pid, self.tick_charges, self.tick_b = None, 0, None
        if self.hrtimer_fn == "tick_sched_timer":
            self.ticks.append(int(ev["fields"]["now"]))
            self.tick_pid = self.cur

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

    def reads_clock(self, pid):
        """Whether PID's bursts are burn_cpu_ns() loops, which read the
        CPU-time clock (and with it the runqueue's clock, which a later
        update_curr() charges up to): video-load, and kbuild-load's jobs and
        their `as` children (a kbuild-load whose parent is one); make, init
        and the latency test's threads only run between system calls."""
        comm = self.comm.get(pid)
        return comm == "video-load" or (comm == "kbuild-load" and
                                        self.comm.get(self.parent.get(pid)) == "kbuild-load")

    def tick(self):
        """A tick's time on the trace's tick grid, at or before its start: the
        period is the most common gap between two ticks, the phase the most
        common `now` modulo it.  One tick alone can be off the grid (the boot's
        first, armed at sched_clock() + tick_ns; or one that came late), and the
        last one used to be taken: 24.6 us late in docs/EXPLORE.md's run."""
        if len(self.ticks) < 2:
            return self.ticks[0] if self.ticks else 0
        gaps = [b - a for a, b in zip(self.ticks, self.ticks[1:]) if b > a]
        period = mode(gaps) if gaps else 0
        if period <= 0:
            return self.ticks[-1]
        phase = mode([t % period for t in self.ticks])
        t = self.start - (self.start - phase) % period
        return t if t >= 0 else phase

    def script(self):
        """The engine's input (tools/granule/sim/engine/replay.c)."""
        b = sorted(self.tick_preempt)
        lines = [f"start {self.start}", f"end {self.end}", f"tick {self.tick()}",
                 f"tick_preempt {b[len(b) // 2] if b else 0}"]
        for ts, target in self.expiries:
            lines.append(f"expiry {ts} {target}")
        for ts, pid in self.samples:
            lines.append(f"sample {ts} {pid}")
        for pid in self.steps:
            lines.append(f"task {pid} {self.parent[pid]} {self.born.get(pid, self.start)} "
                         f"{self.comm[pid] or '?'} {int(self.reads_clock(pid))}")
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


def rank(n, permille):
    """The nearest-rank index of user/bench/latency.c (exact values, as the image prints)."""
    return max(0, (n * permille + 999) // 1000 - 1)


def percentile_lines(both):
    """The recorded and replayed latencies side by side, in µs."""
    cols = [("50th", 500), ("90th", 900), ("99th", 990)]
    out = ["latency (µs)  " + "".join(f"{c:>10}" for c, _ in cols) + f"{'max':>10}{'avg':>10}"]
    for name, xs in (("recorded", [a for a, _ in both]), ("replayed", [b for _, b in both])):
        xs = sorted(xs)
        vals = [xs[rank(len(xs), pm)] for _, pm in cols] + [xs[-1], sum(xs) / len(xs)]
        out.append(f"{name:<14}" + "".join(f"{v / 1000:>10.1f}" for v in vals))
    return out


def parting(evs, switches, comm):
    """Where the replayed schedule (SWITCHES: the pids it switched to, in
    order) first picks another task than the recording did, and how far apart
    the two tasks' vruntimes were there (the last sched_stat_runtime or
    sched_place of each, ns): one line."""
    vr, n, nrec = {}, 0, 0
    parted = None
    for ev in evs:
        f = ev["fields"]
        if ev["name"] in ("sched_stat_runtime", "sched_place"):
            vr[int(f["pid"])] = int(f["vruntime"])
        elif ev["name"] == "sched_switch" and int(f["next_pid"]):
            a, nrec = int(f["next_pid"]), nrec + 1
            if parted is None and n < len(switches) and switches[n] != a:
                b = switches[n]
                gap = (f"; in the recording their vruntimes were {abs(vr[a] - vr[b])} ns apart"
                       if a in vr and b in vr else "")
                parted = (n, f"({ev['ts'] / 1e9:.6f} s): the recording ran {f['next_comm']}[{a}], "
                             f"the replay {comm.get(b, '?')}[{b}]{gap}")
            n += 1
    if parted is None:
        return f"the schedules agree for all {min(nrec, len(switches))} switches"
    return f"the schedules part at switch {parted[0] + 1} of {nrec} {parted[1]}"


def report(d, evs, rec, out):
    """Print the engine's lines and the comparison."""
    lines = out.splitlines()
    sw = [int(l.split()[2]) for l in lines if l.startswith("switch ")]
    sim_lat = [int(l.split()[2]) if l.split()[2] != "-" else None for l in lines if l.startswith("sample ")]
    both = [(a, b) for a, b in zip(rec, sim_lat) if a is not None and b is not None]
    for l in lines:
        if not l.startswith(("sample ", "switch ")):
            print(l)
    if both:
        rmax, smax = max(a for a, _ in both), max(b for _, b in both)
        ravg, savg = sum(a for a, _ in both) / len(both), sum(b for _, b in both) / len(both)
        same = sum(1 for a, b in both if abs(a - b) <= 2000)
        print(f"recorded: max {rmax / 1000:.1f} µs, avg {ravg / 1000:.1f} µs over {len(both)} samples")
        print(f"replayed: max {smax / 1000:.1f} µs, avg {savg / 1000:.1f} µs; "
              f"{same} of {len(both)} samples within 2 µs of the recorded one")
        print("\n".join(percentile_lines(both)))
    print(parting(evs, sw, d.comm))


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
    r = subprocess.run([sim, "replay-script", script, "--preset", preset, "--hz", str(hz), "--switches",
                        *args.knobs], capture_output=True, text=True)
    os.unlink(script)
    if r.returncode:
        sys.stderr.write(r.stderr)
        sys.exit(r.returncode)
    print(f"replay: {len(d.steps)} tasks, {len(d.samples)} timer samples from {path}; "
          f"recorded under {rec_preset or '?'} at HZ={rec_hz or '?'}; replayed under --preset {preset} --hz {hz}"
          + (" " + " ".join(args.knobs) if args.knobs else ""))
    report(d, evs, rec, r.stdout)
