"""tools/granule/sim/rtapp_costs.py - rt-app's own costs on the image, measured: step 9 of
`tools/sim calibrate` (and `tools/sim calibrate --rtapp-only`, which measures this step alone).

Two boots of workloads/mixed.json under rt-app-logs (the boot module build/rt-app/rt-app.tar,
tools/fetch-rtapp): one plain, whose logs give what the logs show, and one traced with
sched_process_fork, sched_switch and sched_wakeup only (the fewest events that show the
threads' start; the trace's own cost lands in the intervals it times), for what only the trace
shows.  Trace timestamps and rt-app's log times are one clock (CLOCK_MONOTONIC, ns since boot
on the image), so the two read against each other.  mixed.json's thread 0 is a SCHED_FIFO 50
thread that nothing preempts, created first and the last to reach the start barrier.  In ns:

  loop    one pass of rt-app's busy loop: thread 0's run less the ticks it sat through (one per
          ms of run at HZ=1000, the calibration's `tick` each), over its loops, the mean of its
          passes (225: 9049 loops in 2038 us with two ticks in them);
  create  main's pthread_create(): the least interval between its forks (trace);
  pre     a thread's set-up before the start barrier: the least interval from a thread's first
          switch-in to its block at the barrier, or for the last arrival to its first wakeup of
          a waiter (trace; the first threads to run take 20-35 us longer, first touches);
  start   from a thread's return from the barrier (its next switch-in, trace) to its first
          pass's start (its log): the least over the threads that blocked there;
  wake    the barrier's wakeup of one waiter: thread 0's first pass begins wake x waiters +
          start after t_zero (its clock reading before the barrier; plain run's log);
  log     between two passes of thread 0 where no buffer is written (gaps under 9.5 us), the
          mean gap (the logs count whole us; the mean undoes it);
  write   the write() of a full 4096-byte log buffer: the mean of the other gaps less log,
          leaving out the first (the buffer's first fill is not a write);
  resume  a timer's sleep's way back in user mode, from the woken thread's return from
          clock_nanosleep to the vDSO's rdtsc whose reading ends wu_lat: a third boot, under
          gdb with QEMU's exec log (tools/granule/sim/rtapp_resume.py; 136 instructions).

These are what tools/granule/sim/rtapp_sim.py hands the engine (tools/granule/sim/engine/rtapp.c:
CREATE PRE WAKE START LOG WRITE RESUME, and the loop's cost).  The calibration file holds them as
rtapp.NAME lines beside the kernel's costs, under the image's commit.
Imports granule.qemu, granule.rtapp, trace.text and sim.rtapp_resume (downward).
"""
import os

from .. import qemu as gq
from .. import rtapp
from ..paths import ROOT
from ..trace import text as trace_text
from . import rtapp_resume

MODULE = os.path.join(ROOT, "build", "rt-app", "rt-app.tar")
WORKLOAD = "workloads/mixed.json"
RUN = f'run="sh /usr/share/granule/rt-app-logs {WORKLOAD}"'
TRACE = "trace_event=sched:sched_process_fork,sched:sched_switch,sched:sched_wakeup"
NAMES = ("loop", "create", "pre", "wake", "start", "log", "write")
PLAIN_GAP_US = 9.5          # a gap between passes without a write() (8-9 us), us


class Unmeasurable(Exception):
    """str(e): the one line saying what the runs lacked."""


def cmdlines():
    """The two boots' command lines: plain, traced."""
    return RUN, f"{TRACE} {RUN}"


def loop_ns(rows, tick_ns, hz=1000):
    """ns per busy loop from thread 0's passes (nothing preempts it: its run is its loops and
    the ticks, one per 1/HZ of run)."""
    per = [(r["run"] * 1000 - r["run"] * hz // 1_000_000 * tick_ns) / r["perf"] for r in rows if r["perf"]]
    if not per:
        raise Unmeasurable("thread 0 logged no loops")
    return sum(per) / len(per)


def gap_costs(rows):
    """(log, write) in ns from thread 0's gaps between passes."""
    gaps = [b["start"] - a["end"] for a, b in zip(rows, rows[1:])]
    plain = [g for g in gaps if g < PLAIN_GAP_US]
    writes = [g for g in gaps[1:] if g >= PLAIN_GAP_US]
    if not plain or not writes:
        raise Unmeasurable(f"thread 0's {len(gaps)} gaps: none plain or none with a write()")
    log = sum(plain) / len(plain)
    return log * 1000, (sum(writes) / len(writes) - log) * 1000


def first_offset_us(rows):
    """Thread 0's first pass start less t_zero (its first expiry less the period), us."""
    r = rows[0]
    expiry = r["end"] - r["wu_lat"] if r["slack"] >= 0 else r["end"] + r["slack"]
    return r["start"] - (expiry - r["c_period"])


def trace_costs(events, starts):
    """{create, pre, start} in ns and the number of barrier waiters, from the traced boot's
    EVENTS; STARTS: {pid: its first pass's start in us}, pids in thread order (the trace
    names thread I pid main + 1 + I)."""
    pids = set(starts)
    forks = [e for e in events if e["name"] == "sched_process_fork"
             and int(e["fields"]["child_pid"]) in pids]
    if len(forks) != len(pids):
        raise Unmeasurable(f"the trace shows {len(forks)} of rt-app's {len(pids)} thread forks")
    create = min(b["ts"] - a["ts"] for a, b in zip(forks, forks[1:]))
    on, pre, start, back, last, waiters = {}, [], [], set(), None, 0
    for e in events:
        if e["ts"] < forks[0]["ts"]:
            continue
        f = e["fields"]
        if e["name"] == "sched_switch":
            prev, nxt = int(f["prev_pid"]), int(f["next_pid"])
            if prev in on and prev not in back and prev != last and f["prev_state"] == "S":
                pre.append(e["ts"] - on[prev])          # it blocks at the barrier
                back.add(prev)
            if nxt in pids and nxt not in on:
                on[nxt] = e["ts"]
            elif nxt in back and nxt in starts:         # back from the barrier
                start.append(starts.pop(nxt) * 1000 - e["ts"])
        elif e["name"] == "sched_wakeup" and int(f["pid"]) in back and e["pid"] in on and not start:
            if last is None:                            # the last arrival wakes the others
                last = e["pid"]
                pre.append(e["ts"] - on[last])
            waiters += last == e["pid"]
    if not pre or not start or not waiters:
        raise Unmeasurable("the trace shows no thread blocking at the start barrier and woken from it")
    return dict(create=create, pre=min(pre), start=min(start)), waiters


def derive(plain, traced, cfg, tick_ns):
    """{NAME: ns} (NAMES) from the plain and the traced boot's output (rt-app-logs of CFG)."""
    paths = rtapp.log_paths(cfg)
    logs, tlogs = rtapp.split_logs(plain), rtapp.split_logs(traced)
    rows = logs.get(paths[0])
    if not rows or set(tlogs) != set(paths.values()):
        raise Unmeasurable("the runs left not every log of " + WORKLOAD)
    events = trace_text.find_dump(traced).events
    main = next((int(e["fields"]["pid"]) for e in events if e["name"] == "sched_process_fork"
                 and e["comm"] == "rt-app" and e["fields"]["child_comm"] == "rt-app"), None)
    if main is None:
        raise Unmeasurable("the trace shows no fork by rt-app")
    starts = {main + 1 + i: tlogs[p][0]["start"] for i, p in paths.items() if tlogs[p]}
    c, waiters = trace_costs(events, starts)
    c["loop"] = loop_ns(rows, tick_ns)
    c["log"], c["write"] = gap_costs(rows)
    c["wake"] = (first_offset_us(rows) * 1000 - c["start"]) / waiters
    return {k: max(0, int(round(c[k]))) for k in NAMES}


def measure(tick_ns):
    """Boot the three runs (one at a time) and derive the costs; ([command lines], {NAME: ns})."""
    if not os.path.exists(MODULE):
        raise SystemExit(f"sim calibrate: no {os.path.relpath(MODULE, ROOT)} (tools/fetch-rtapp makes it)")
    out = []
    for cmd in cmdlines():
        r = gq.run(cmd, extra=["-initrd", MODULE], timeout=300)
        if r.timed_out or r.status != 0:
            raise SystemExit(f"sim calibrate: `{cmd}` did not end cleanly:\n{r.output[-2000:]}")
        out.append(r.output)
    try:
        c = derive(out[0], out[1], rtapp.load(os.path.join(ROOT, WORKLOAD)), tick_ns)
    except (Unmeasurable, ValueError) as e:
        raise SystemExit(f"sim calibrate: rt-app's costs: {e}") from None
    cmd, c["resume"] = rtapp_resume.measure(RUN, MODULE)
    return list(cmdlines()) + [cmd], c
