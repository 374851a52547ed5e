"""tools/granule/sim/calibrate.py - `tools/sim calibrate`: the kernel's costs for the
simulator, measured on the QEMU image, and the QEMU figures the simulator is
checked against.

  tools/sim calibrate [--reference] [--seeds K] [--duration S] [-j N] [--rtapp-only]

Costs (always): three boots of the image (-icount shift=0, so a cost is the
same on every run):
  1. run=microbench: the kernel's paths one by one (ns = instructions):
     tick_1_ns -> tick; ctxsw_yield_ns - null_syscall_ns -> switch_in;
     null_syscall_ns -> sleep and sig_post; fork_ns (fork + exit + wait)
     less two switches -> fork_parent 55 %, fork_child 10 %, exit 25 %,
     wait 10 % (the split is not measured: docs/EXPLORE.md says why it
     hardly matters); fork_exec_ns - fork_ns -> exec.
  2. a thread-mode experiment without load: the RESULT line's helper_cpu_us
     less a switch-in -> the helper's path (70 % before the new thread is
     queued: helper, 30 % after: clone_parent); notify_cpu_us less a
     switch-in and the clock read -> notify_post (notify_pre is the clock
     read, clone_child 0); the minimum latency (on an idle CPU: expiry,
     switch to the helper, its path, switch to the new thread, its clock
     read) less those -> timer_signal, also used for hrtimer_wake;
  3. a signal-mode experiment without load: its minimum latency (expiry to
     the handler's clock read, on an idle CPU) less timer_signal and
     switch_in -> sig_pre;
  4. a signal-mode experiment under kbuild:10 (seed 9, not one of the
     validation's): its minimum (the same path when it preempts a running
     task) less the idle one -> preempt, paid by every preempting switch
     to a fair task; the same run with the experiment SCHED_FIFO 50 (chrt
     -f -R 50: its loads, forked with SCHED_RESET_ON_FORK, stay fair): its
     minimum less the idle one -> preempt_rt, paid instead when the
     preempting task is rt (the rt class's enqueue, wakeup check and pick
     are shorter than the fair class's rbtree work: 0 where preempt is 500);
  5. burn_chunk: burn_cpu_ns()'s loop, BURN_CHUNK (10000) iterations of 4
     instructions (imul, add, dec, jne) and a CPU-time clock read
     (null_syscall_ns + clock_gettime_ns);
  6. steps 1-4 again under sched_preset=linux-6.12 -> eevdf.NAME, the
     costs of Linux 6.12's class, whose code is another length.  Its
     switch is not its yield's (6.12's yield_task_fair also pushes the
     deadline, and in a yield ring may pick the yielder again): CFS's
     switch plus the difference of the two classes' pipe_pingpong_ns, a
     wake, a block and a switch each way with the same system calls, so
     the difference is what the class's enqueue, dequeue, wakeup check and
     pick cost more per switch;
  7. a traced boot per HZ (100, 250, 300, 1000): where in a tick period the
     experiment forks its first load, past the last tick before it ->
     start_phase_HZ (the timer's phase against the tick follows from it, as
     in the image), and the boot's tick period -> tick_period_HZ (the lapic
     counts a tick in whole counts: 3333328 ns at HZ=300);
  8. a boot at HZ=1000 under kbuild:10 traced with only sched_stat_runtime,
     sched_switch and hrtimer_expire_entry: when a tick preempts, the
     leaving task's last update_curr() charges the path from the tick's
     update_curr() to schedule()'s (tools/granule/sim/replay.py's Demand finds
     them); the median -> tick_preempt, for both classes (6.12's class has
     no such probe).  It includes the one probe on that path, the tick's
     update_curr(): an upper bound (docs/EXPLORE.md).
  9. rt-app's own costs (tools/granule/sim/rtapp_costs.py): workloads/mixed.json
     under rt-app-logs, plain and traced (two boots with build/rt-app/rt-app.tar)
     -> rtapp.loop (its busy loop), rtapp.create, .pre, .wake, .start, .log and
     .write, and a third boot under gdb with QEMU's exec log -> rtapp.resume
     (tools/granule/sim/rtapp_resume.py), which `tools/sim experiment --rt-app` charges.  --rtapp-only
     measures this step alone and replaces the file's rtapp.* lines, keeping the rest.
 10. the costs of an SMP machine (tools/granule/sim/smp_costs.py): the reschedule IPI,
     a balance pass, an idle balance, a migration (move_tasks), the stopper's active
     balance and kbuild-load's /proc/self/sched read, each stepped in gdb at -smp 2,
     and what the SMP kernel adds to a tick, a switch and a wakeup (microbench pinned
     to one CPU at -smp 2 against -smp 1) -> smp.*, charged only at --cpus N > 1.
     --smp-only measures this step alone and replaces the file's smp.* lines.
So the simulator reproduces the image's no-load minima and per-expiry CPU
by construction; everything under load is its own prediction.
It writes tools/granule/sim/engine/calibration with the commit of the image.

--reference also measures in QEMU what the simulator is checked against
(tools/granule/sim/validate.py): the cross-validation matrix (kbuild:10, thread and
signal mode; linux-2.6.35, commit-0bf377bbb0be and no-start-debit at
HZ=1000 and 250; linux-6.12 at HZ=250; K load seeds) into
tools/granule/sim/engine/reference.json, and the off-grid points (other HZ, loads,
periods and knobs, both classes; 3 seeds) into tools/granule/sim/engine/offgrid.json;
then it writes docs/EXPLORE.md's two tables and tools/granule/sim/engine/validated.
--reference-only and --offgrid-only measure one of the two and keep the
rest; --table rewrites only the tables and tools/granule/sim/engine/validated.
tests/system/test_sim_validate.py runs the simulator on the same
configurations and compares.
Imports granule.qemu, bench.jobs, trace.text, sim.replay, sim.rtapp_costs, sim.smp_costs and
sim.validate (downward).
"""
import argparse
import concurrent.futures as cf
import os
import re
import subprocess

from .. import qemu as gq
from ..bench import jobs as bj
from ..paths import ENGINE, ROOT
from ..trace import text as trace_text
from . import replay as sim_replay
from . import rtapp_costs
from . import smp_costs
from . import validate as sv
CALIB = os.path.join(ENGINE, "calibration")
HZS = (100, 250, 300, 1000)
TICK_LINE = re.compile(r"tick emulated every (\d+) ns")   # kernel/time/hrtimer.c's boot line
BURN_CHUNK = 10000          # user/bench/bench.c
# what the costs depend on: a commit touching these makes the file stale (tools/debs.lock
# pins the QEMU and firmware they are measured on, and the initrd's busybox)
MEASURED_PATHS = ["kernel", "arch", "boot", "user", "linker.ld", "tools/debs.lock"]


def commit():
    return subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()


def job(i, label, cmdline, bench="experiment"):
    return dict(id=f"{i:04d}", label=label, kernel="granule", cmdline=cmdline, bench=bench,
                image=bj.image_hash("granule"))


def result(run, bench):
    r = run["results"].get(bench)
    if not r:
        raise SystemExit(f"sim calibrate: {run['label']}: no {bench} RESULT line:\n"
                         + run.get("error", ""))
    return r


def costs(mb, thread, signal, sw=None):
    """The costs in ns from the three runs (see the module comment).  SW: the
    switch's cost, if not this microbench's yield switch."""
    sysc, clock = mb["null_syscall_ns"], mb["clock_gettime_ns"]
    sw = mb["ctxsw_yield_ns"] - sysc if sw is None else sw
    fork = mb["fork_ns"] - 2 * sw
    c = dict(tick=mb["tick_1_ns"], switch_in=sw, sleep=sysc, sig_post=sysc,
             fork_parent=0.55 * fork, fork_child=0.10 * fork, exit=0.25 * fork, wait=0.10 * fork,
             exec=mb["fork_exec_ns"] - mb["fork_ns"], clone_child=0, notify_pre=clock,
             burn_chunk=BURN_CHUNK * 4 + sysc + clock)
    helper = thread["helper_cpu_us"] * 1000 - sw           # its CPU past the switch-in
    c["clone_parent"] = 0.3 * helper                        # after the child is queued
    c["helper"] = helper - c["clone_parent"]
    c["notify_post"] = thread["notify_cpu_us"] * 1000 - sw - clock
    # idle CPU, thread mode: expiry -> helper (timer_signal + switch_in), its
    # CPU, then the new thread (switch_in + its clock read)
    c["timer_signal"] = thread["min_us"] * 1000 - thread["helper_cpu_us"] * 1000 - sw - clock
    c["hrtimer_wake"] = c["timer_signal"]
    # idle CPU, signal mode: expiry -> the handler's clock read
    c["sig_pre"] = signal["min_us"] * 1000 - c["timer_signal"] - sw
    return {k: max(0, int(round(v))) for k, v in c.items()}


BUSY = "mode=signal load=kbuild:10 duration=5 seed=9"
RT = "chrt -f -R 50"            # user/chrt.c: SCHED_FIFO 50, its children SCHED_OTHER


def class_runs(i, words=""):
    """The five boots of one class (WORDS: its preset's boot words)."""
    return [job(i, f"microbench {words}".strip(), f"{words} run=microbench".strip(), "microbench"),
            job(i + 1, f"thread, no load {words}".strip(),
                f"{words} run=experiment mode=thread load=none duration=5".strip()),
            job(i + 2, f"signal, no load {words}".strip(),
                f"{words} run=experiment mode=signal load=none duration=5".strip()),
            job(i + 3, f"signal, busy {words}".strip(), f"{words} run=experiment {BUSY}".strip()),
            job(i + 4, f"signal, busy, rt {words}".strip(), f'{words} run="{RT} experiment {BUSY}"'.strip())]


def class_costs(runs, sw=None):
    mb, t, s, busy, busy_rt = ([result(runs[0], "microbench")]
                               + [result(r, "wakeup-latency") for r in runs[1:5]])
    c = costs(mb, t, s, sw)
    # the timer-to-handler path when it preempts a running task, less on an idle CPU,
    # for a fair and for an rt handler
    for k, b in (("preempt", busy), ("preempt_rt", busy_rt)):
        c[k] = max(0, int(round((b["min_us"] - s["min_us"]) * 1000)))
    return c


def write_calibration(c, head, runs):
    with open(CALIB, "w") as f:
        f.write("# tools/granule/sim/engine/calibration - the kernel's costs (ns of the image's virtual\n"
                "# time) for `tools/sim experiment`; written by `tools/sim calibrate` from:\n")
        for r in runs:
            f.write(f"#   {r['cmdline']}\n")
        f.write(f"commit {head}\n")
        for k in sorted(c):
            f.write(f"{k} {c[k]}\n")
    print(f"sim calibrate: wrote {os.path.relpath(CALIB, ROOT)} (commit {head[:12]})")


def tick_fn():
    """tick_sched_timer's address in the kernel ELF (the trace names hrtimer
    functions by address)."""
    out = subprocess.run(["nm", gq.KERNEL], capture_output=True, text=True, check=True).stdout
    return next(int(l.split()[0], 16) for l in out.splitlines() if l.endswith(" tick_sched_timer"))


def start_phase(hz):
    """(the boot's command line, ns past a tick at which the experiment forks
    its first load, the tick period in ns) at HZ: a traced boot.  The tick is
    the tick_sched_timer hrtimer's expiry, the last one before the fork: the
    first of a boot is off the tick grid (hrtimers_init() arms it at
    sched_clock() + tick_ns, before the periodic lapic tick stops), and
    anchoring on it put HZ=300's phase 0.69 ms and HZ=250's 2.02 ms late.
    The period is the boot's own ("tick emulated every N ns": the lapic
    counts per tick, truncated; 3333328 ns at HZ=300, not 10^9 / 300)."""
    cmd = (f"hz={hz} run=experiment mode=thread load=kbuild:10 duration=1 "
           "trace_event=sched:sched_process_fork,timer:hrtimer_expire_entry")
    r = gq.run(cmd, timeout=300)
    period = next((int(m.group(1)) for m in map(TICK_LINE.search, r.lines) if m), None)
    if period is None:
        raise SystemExit(f"sim calibrate: `{cmd}` printed no '{TICK_LINE.pattern}' line")
    ev = trace_text.find_dump("\n".join(r.lines)).events
    fork = next(e for e in ev if e["name"] == "sched_process_fork" and e["comm"] == "experiment")
    fn = tick_fn()
    ticks = [int(e["fields"]["now"]) for e in ev if e["name"] == "hrtimer_expire_entry"
             and int(e["fields"]["function"], 16) == fn and int(e["fields"]["now"]) <= fork["ts"]]
    if len(ticks) < 2 or ticks[-1] - ticks[-2] != period:
        raise SystemExit(f"sim calibrate: `{cmd}`: no two ticks {period} ns apart before the fork")
    return cmd, fork["ts"] - ticks[-1], period


def tick_preempt():
    """The median CPU from a preempting tick's update_curr() to schedule()'s,
    in ns (step 8 of the module comment)."""
    cmd = ("hz=1000 run=experiment mode=thread load=kbuild:10 duration=1 trace_buf_size=8M "
           "trace_event=sched:sched_stat_runtime,sched:sched_switch,timer:hrtimer_expire_entry")
    dump = trace_text.find_dump("\n".join(gq.run(cmd, timeout=300).lines))
    if dump.lost:
        raise SystemExit(f"sim calibrate: the trace of `{cmd}` lost {dump.lost} events")
    tick = tick_fn()
    for e in dump.events:               # the dump names hrtimer functions by address
        if e["name"] == "hrtimer_expire_entry" and int(e["fields"]["function"], 16) == tick:
            e["fields"]["function"] = "tick_sched_timer"
    b = sorted(sim_replay.Demand(dump.events).tick_preempt)
    if len(b) < 100:
        raise SystemExit(f"sim calibrate: only {len(b)} preempting ticks in `{cmd}`")
    return cmd, b[len(b) // 2]


def calibrate(args, head):
    jobs = class_runs(0) + class_runs(5, "sched_preset=linux-6.12")
    runs, _ = bj.run_all(jobs, args.j)
    c = class_costs(runs[:5])
    # Linux 6.12's class: its own paths; its switch is CFS's plus what the
    # class adds to a pipe ping-pong's switch (step 6 of the module comment)
    pp = [result(r, "microbench")["pipe_pingpong_ns"] for r in (runs[0], runs[5])]
    for k, v in class_costs(runs[5:10], c["switch_in"] + max(0, int(round(pp[1] - pp[0])))).items():
        c["eevdf." + k] = v
    with cf.ThreadPoolExecutor(max_workers=args.j) as ex:
        phases = dict(zip(HZS, ex.map(start_phase, HZS)))
    for hz, (cmd, ns, period) in phases.items():
        c[f"start_phase_{hz}"], c[f"tick_period_{hz}"] = ns, period
        runs.append(dict(cmdline=cmd))
    cmd, c["tick_preempt"] = tick_preempt()
    runs.append(dict(cmdline=cmd))
    cmds, rt = rtapp_costs.measure(c["tick"])
    c.update({f"rtapp.{k}": v for k, v in rt.items()})
    runs += [dict(cmdline=cmd) for cmd in cmds]
    cmds, smp = smp_costs.measure()
    c.update({f"smp.{k}": v for k, v in smp.items()})
    runs += [dict(cmdline=cmd) for cmd in cmds]
    write_calibration(c, head, runs)


def calibrate_part(prefix, head, measure, what):
    """Step 9 or 10 alone: the file's PREFIX.* lines replaced with what MEASURE(the other
    lines) returns, (command lines, {name: ns}), the rest kept (a comment says at which
    commit these were measured)."""
    with open(CALIB) as f:
        lines = [l for l in f if not l.startswith((prefix + ".", "# " + prefix + "."))]
    cmds, values = measure(lines)
    lines.append(f"# {prefix}.* measured at commit {head} by tools/sim calibrate --{prefix}-only from:\n")
    lines += [f"# {prefix}.   {cmd}\n" for cmd in cmds]
    lines += [f"{prefix}.{k} {v}\n" for k, v in sorted(values.items())]
    with open(CALIB, "w") as f:
        f.writelines(lines)
    print(f"sim calibrate: {what} in {os.path.relpath(CALIB, ROOT)}: "
          + " ".join(f"{k} {v}" for k, v in values.items()))


def rtapp_part(lines):
    return rtapp_costs.measure(next(int(l.split()[1]) for l in lines if l.startswith("tick ")))


def main():
    ap = argparse.ArgumentParser(prog="tools/sim calibrate",
                                 description="Measure the kernel's costs on the QEMU image for "
                                 "the simulator (and, with --reference, the QEMU figures it is "
                                 "checked against).")
    ap.add_argument("--reference", action="store_true",
                    help="also measure the cross-validation matrix and the off-grid points in QEMU")
    ap.add_argument("--seeds", type=int, default=5, help="load seeds for --reference (5)")
    ap.add_argument("--duration", type=int, default=10, help="seconds per run for --reference (10)")
    ap.add_argument("--reference-only", action="store_true",
                    help="measure only the matrix (keep the costs and the off-grid points)")
    ap.add_argument("--offgrid-only", action="store_true",
                    help="measure only the off-grid points (keep the costs and the matrix)")
    ap.add_argument("--table", action="store_true",
                    help="only rewrite docs/EXPLORE.md's tables and tools/granule/sim/engine/validated")
    ap.add_argument("--rtapp-only", action="store_true",
                    help="measure only rt-app's own costs (step 9) and keep the rest of the file")
    ap.add_argument("--smp-only", action="store_true",
                    help="measure only the SMP costs (step 10) and keep the rest of the file")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1, help="boots at a time")
    args = ap.parse_args()
    if args.seeds < 1 or args.duration < 1 or args.j < 1:
        ap.error("--seeds, --duration and -j must be at least 1")
    if not args.table:
        subprocess.run(["make", "-s", "-C", ROOT, "all"], check=True)
        head = commit()
        if args.rtapp_only:
            calibrate_part("rtapp", head, rtapp_part, "rt-app's costs")
            return
        if args.smp_only:
            calibrate_part("smp", head, lambda lines: smp_costs.measure(), "the SMP costs")
            return
        if not (args.reference_only or args.offgrid_only):
            calibrate(args, head)
        if args.reference or args.reference_only:
            sv.measure(sv.matrix_cmdlines(args.seeds, args.duration), sv.REFERENCE, head,
                       args.duration, args.j)
        if args.reference or args.offgrid_only:
            sv.measure(sv.offgrid_cmdlines(duration=args.duration), sv.OFFGRID_FILE, head,
                       args.duration, args.j)
        if not (args.reference or args.reference_only or args.offgrid_only):
            return
    sv.write_tables()
    sv.write_envelope()
