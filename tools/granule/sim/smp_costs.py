"""tools/granule/sim/smp_costs.py - the costs of an SMP machine for the simulator's
`--cpus N`, measured on the image at -smp 2 (`tools/sim calibrate --smp-only`, and
step 10 of a full calibration).

Two kinds of boots, both under -icount shift=0 (one instruction, one virtual ns):

 1. gdb on the image at -smp 2: a breakpoint at each path's first instruction, then
    single steps of that CPU alone (scheduler-locking step; QEMU masks interrupts and
    timers while stepping) to the path's end: its return (the stack pointer above the
    entry's, at the return address), or for the IPI's receive path the vector's iret
    or schedule() on the way out.  Steps are instructions, so ns under -icount; the
    cost is the median over the calls stepped, up to SAMPLES.  A call's count is
    exact, but which calls a session steps is not the same on every run (a gdb stop
    moves the virtual clock, and the host's timing decides where the other CPU is):
    idle_balance's median was 636 in one session and 1004 in another.  An exec log (tools/profile-path's way) is exact too, but
    reads 0.3 M instructions a second, and a busy CPU balances every 64 ms:
      ipi_send        smp_send_reschedule() (resched_task() on another CPU's task)
      ipi_recv        the reschedule vector on the target, to its iret or schedule()
      balance         run_rebalance_domains(): the scheduler softirq's periodic pass
      idle_balance    idle_balance(): schedule() about to idle pulls
      migrate         move_tasks(): a balance moves the busiest queue's tasks
                      (pull_task() inlined: deactivate, set_task_cpu(), activate,
                      the preemption check, each); charged to a task that moved
                      (by a balance, the stopper, a wakeup's or a fork's placement)
                      when it next runs
      active_balance  active_load_balance_cpu_stop(): the stopper's work, not its
                      switch (a switch_in, as any)
      proc_sched_read self_nr_migrations() in kbuild-load (open, read and parse
                      /proc/self/sched, close): each job reads it twice at N > 1
    The experiment's kbuild at -smp 2 gives the first four in a second; the pulls come
    from four spin threads forked on CPU 0 and then allowed both
    (tests/system/test_sim_smp.py's workload; its first balance pulls two), and a
    pinned nice-19 spinner beside a nice -15 one, which fails to pull until the
    active balance pushes the running one (docs/EXPLORE.md, "Several CPUs"; it comes
    once), and the read from PROC below.
 2. run=microbench pinned to CPU 0 (busybox taskset 1) at -smp 2, against the same at
    -smp 1: what the SMP kernel adds to the one-CPU paths (its runqueue locks, the
    balancer's hooks): smp_tick (tick_1_ns), smp_switch (ctxsw_yield_ns less the
    yield's system call) and smp_wake (pipe_pingpong_ns, per switch a wake, a block and
    a switch, less ctxsw_yield_ns).
Imports granule.qemu, trace.kernel_text and trace.text (downward).
"""
import os
import statistics
import subprocess
import sys
import tempfile

from .. import qemu as gq
from ..trace import text as trace_text
from ..trace.kernel_text import control_transfers, text_symbols

RESCHED_STUB = "vec_253"        # RESCHEDULE_VECTOR 0xfd (arch/x86/include/arch/apic.h)
FUNCS = {"ipi_send": "smp_send_reschedule", "balance": "run_rebalance_domains",
         "idle_balance": "idle_balance", "migrate": "move_tasks",
         "active_balance": "active_load_balance_cpu_stop"}
USER_FN = ("proc_sched_read", "kbuild-load", "self_nr_migrations")
SAMPLES = 5                     # calls per path
IDLE_SHORT = 100                # steps: an idle_balance() shorter returned at once
STEP_LIMIT = 200000             # steps before a path is given up (a lock the stopped CPU holds)
BUSY = "run=experiment mode=thread load=kbuild:10 duration=1"
PULLS = ("run=\"busybox sh -c 'busybox taskset 1 spin -w 0 -t 300 -q 0 0 0 0 & usleep 30000; "
         "cd /proc/$!/task; for t in *; do busybox taskset -p 3 $t >/dev/null; done; wait'\"")
ACTIVE = ("sched_latency_ns=20000000 run=\"busybox sh -c 'busybox taskset 1 spin -w 0 -t 300 -q 19 -15 & "
          "usleep 30000; cd /proc/$!/task; for t in *; do l=$t; done; busybox taskset -p 3 $l >/dev/null; "
          "wait'\"")
# one job at a time: the other CPU idles, so no stopped CPU holds the giant lock a
# system call takes (a stepped CPU would spin on it for good)
PROC = 'run="kbuild-load -j 1 -d 1 -m"'          # -m: the jobs count their migrations
BOOTS = [  # (cmdline, the costs it is read for, calls stepped of each)
    (BUSY, ("ipi_send", "ipi_recv", "balance", "idle_balance"), SAMPLES),
    (PULLS, ("migrate",), SAMPLES),
    (ACTIVE, ("active_balance",), SAMPLES),
    (PROC, ("proc_sched_read",), 3),    # some 10^4 steps a call: the same path each time
]
MICRO = 'run="busybox taskset 1 microbench -s 1"'

# The gdb side: break at each entry, step each hit to its end, print "SMPCOST name steps".
GDB_SCRIPT = r"""
import gdb
ENTRIES, IRETS, ENDS, USER, K, LIMIT = %r
left = {n: K for n in ENTRIES.values()}
def reg(r):
    return int(gdb.parse_and_eval("$" + r)) & 0xffffffff
def word(a):
    return int(gdb.parse_and_eval("*(unsigned int *)%%d" %% a)) & 0xffffffff
def steps(name):
    esp0, n = reg("esp"), 0
    ret = None if name == "ipi_recv" else word(esp0)
    if name in USER and (ret + word(ret - 4)) & 0xffffffff != USER[name]:
        return None                     # another program's code at that address
    return walk(ret, esp0)
def rearm():
    for b in gdb.breakpoints():
        b.enabled = left[ENTRIES[int(b.location.lstrip("*"))]] > 0
def walk(ret, esp0):
    n = 0
    while n < LIMIT:
        pc = reg("eip")
        if ret is not None and pc == ret and reg("esp") > esp0:
            return n
        if ret is None and pc in ENDS:
            return n
        gdb.execute("stepi", to_string=True)
        n += 1
        if ret is None and pc in IRETS:
            return n
    return None
gdb.execute("set pagination off")
for a in ENTRIES:
    gdb.execute("break *%%d" %% a, to_string=True)
gdb.execute("set scheduler-locking step")
gdb.execute("continue", to_string=True)
while any(left.values()):
    name = ENTRIES.get(reg("eip"))
    if name and left[name]:
        n = steps(name)
        if n is not None:
            left[name] -= 1
            print("SMPCOST %%s %%d" %% (name, n), flush=True)
        rearm()
    gdb.execute("continue", to_string=True)
gdb.execute("kill")
"""


def user_entry(prog, fn):
    out = subprocess.run(["nm", os.path.join(gq.ROOT, "build", "user", f"{prog}.elf")],
                         capture_output=True, text=True, check=True).stdout
    return next(int(p[0], 16) for p in (l.split() for l in out.splitlines()) if p[-1] == fn)


def measure_paths(timeout=300):
    """{cost: median instructions} from the gdb boots, and their command lines."""
    addrs, names = text_symbols()
    ks = dict(zip(names, addrs))
    irets = {a for a, k in control_transfers().items() if k[0] == "iret"}
    ends = {ks["schedule"], ks["preempt_schedule_irq"]}
    cost, prog, fn = USER_FN
    uaddr = user_entry(prog, fn)
    out, cmds = {}, []
    for cmd, want, k in BOOTS:
        entries = {ks[f]: k for k, f in FUNCS.items() if k in want}
        if "ipi_recv" in want:
            entries[ks[RESCHED_STUB]] = "ipi_recv"
        if cost in want:
            entries[uaddr] = cost
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(GDB_SCRIPT % ((entries, irets, ends, {cost: uaddr}, k, STEP_LIMIT),))
        try:
            s = gq.gdb_session(cmd, ["-ex", f"source {f.name}"], timeout=timeout + 100 * (cmd == BUSY),
                               extra=["-smp", "2"])
        finally:
            os.unlink(f.name)
        got = {}
        for line in s.gdb_output.splitlines():
            p = line.split()
            if len(p) == 3 and p[0] == "SMPCOST":
                got.setdefault(p[1], []).append(int(p[2]))
        # an idle balance that returns at once (the CPU idles too briefly: rq->avg_idle
        # under sysctl_sched_migration_cost) is a few dozen steps; the engine charges the pass
        if len([n for n in got.get("idle_balance", []) if n > IDLE_SHORT]) > 0:
            got["idle_balance"] = [n for n in got["idle_balance"] if n > IDLE_SHORT]
        for k in want:
            if not got.get(k):
                raise SystemExit(f"sim calibrate: no {k} path stepped in `{cmd}` at -smp 2:\n"
                                 + s.gdb_output[-2000:])
            out[k] = int(statistics.median(got[k]))
        cmds.append(f"{cmd} (-smp 2, gdb: {', '.join(want)})")
        print(f"sim calibrate: -smp 2 `{cmd}`: " + ", ".join(f"{k} {sorted(got[k])}" for k in want),
              file=sys.stderr, flush=True)
    return out, cmds


def micro(smp):
    r = gq.run(MICRO, smp=smp, timeout=900)
    mb = trace_text.results(r.output).get("microbench")
    if not mb:
        raise SystemExit(f"sim calibrate: `{MICRO}` at -smp {smp} printed no microbench RESULT line")
    return mb


def measure_micro():
    """What the SMP kernel adds to a tick, a switch and a wakeup (step 2 of the module
    comment): ns, and the command lines."""
    one, two = micro(1), micro(2)

    def more(key):
        return two[key] - one[key]
    c = dict(smp_tick=more("tick_1_ns"), smp_switch=more("ctxsw_yield_ns") - more("null_syscall_ns"))
    # a pipe ping-pong's switch is a wake, a block and a switch: less the switch
    c["smp_wake"] = more("pipe_pingpong_ns") - more("ctxsw_yield_ns")
    return ({k: max(0, int(round(v))) for k, v in c.items()},
            [f"{MICRO} (-smp 1 and -smp 2)"])


def measure():
    """The command lines, and every smp.* cost: {name: ns}."""
    paths, cmds = measure_paths()
    m, mcmds = measure_micro()
    paths.update(m)
    return cmds + mcmds, paths
