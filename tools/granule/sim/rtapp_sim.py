"""tools/sim experiment --rt-app FILE, tools/sim tasks --rt-app FILE: an rt-app workload simulated.

  tools/sim experiment --rt-app FILE [--preset P] [--hz H] [--tick-phase US] [--trace OUT]
                        [KNOB=VALUE...]
        every thread's log as rt-app writes it (each after "==> PATH <==", as rt-app-logs
        prints them on the image), then one summary line per thread; --tick-phase US puts
        rt-app's start (t_zero) US microseconds past a tick, where a run on the image had it
        (granule.rtapp.tick_phase reads it off the run's output; without it, where the
        calibration put tools/sim experiment's start); --trace OUT writes the run's
        sched_wakeup and sched_switch events to OUT in ftrace's text, as tools/trace writes
        a traced boot's trace.txt, to read the two side by side
  tools/sim tasks --rt-app FILE [...]
        the summary lines alone

The JSON is read here, in Python, with the reader the tests and tools/linux-peer use
(granule.rtapp), because a parser of json-c's dialect in the engine would be a second one to
keep in step; the engine (build/sim rtapp, tools/granule/sim/engine/rtapp.c) gets a flat list
of threads, phases and events.  What the engine cannot simulate is refused here with one line
naming the task, the key and what is accepted, and nothing runs: SCHED_DEADLINE (Granule has no
deadline class) and any policy but SCHED_OTHER/FIFO/RR, a key rt-app does not know (rt-app
itself ignores it; here a typo would silently change the workload), and the events the engine
does not model (suspend/resume, yield, mem, iorun, an "absolute" timer, priority inheritance:
"pi_enabled").  The machine has one
CPU, so "cpus" is ignored.  The costs are the image's (tools/sim calibrate), as for tools/sim
experiment; the default preset is the image's default, commit-0bf377bbb0be.
"""
import os
import subprocess
import sys
import tempfile

from .. import rtapp
from ..paths import ENGINE, ROOT

# What rt-app's own code costs on the image, ns: one pass of its busy loop (waste_cpu_cycles():
# twelve ldexp() calls; under -icount, its instructions), main's pthread_create() (CREATE), a
# thread's set-up before the start barrier (PRE), the barrier's wakeup of one waiter (WAKE),
# the "starting thread" line and the log's header (START), a log line into the FILE buffer
# between two passes (LOG), the write() of a full buffer (WRITE) and a timer's sleep's way
# back in user mode to the clock read that ends wu_lat (RESUME).  `tools/sim calibrate`
# measures them on the image (tools/granule/sim/rtapp_costs.py says how) and writes them to the
# calibration file as rtapp.NAME lines beside the kernel's costs.
class Refused(Exception):
    """str(e): the one line that says why the file is not simulated."""


RTAPP_COSTS = ("loop", "create", "pre", "wake", "start", "log", "write", "resume")


def image_costs(path=None):
    """{NAME: ns} of RTAPP_COSTS from the calibration file (SIM_CALIB, as tools/sim sets it, or
    the engine's); Refused naming the first one missing."""
    path = path or os.environ.get("SIM_CALIB") or os.path.join(ENGINE, "calibration")
    c = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                w = line.split()
                if len(w) == 2 and w[0].startswith("rtapp.") and w[1].isdigit():
                    c[w[0][len("rtapp."):]] = int(w[1])
    except OSError as e:
        raise Refused(f"{path}: cannot read the calibration file ({e.strerror})") from None
    for k in RTAPP_COSTS:
        if k not in c:
            raise Refused(f"{path}: no rtapp.{k} (rt-app's own costs: tools/sim calibrate --rtapp-only)")
    return c

POLICIES = {"SCHED_OTHER": 0, "SCHED_FIFO": 1, "SCHED_RR": 2}
TASK_KEYS = {"instance", "loop", "policy", "priority", "cpus", "delay", "phases", "dl-runtime", "dl-period",
             "dl-deadline"}
PHASE_KEYS = {"loop", "cpus"}
EVENTS = ("run", "runtime", "sleep", "timer", "lock", "unlock", "signal", "broad", "wait", "barrier")
NOT_MODELLED = {"suspend", "resume", "yield", "mem", "iorun", "sync"}
GLOBAL_KEYS = {"duration", "calibration", "default_policy", "pi_enabled", "lock_pages", "logdir", "log_size",
               "log_basename", "ftrace", "gnuplot", "io_device", "mem_buffer_size", "cumulative_slack"}


def rt_app_calibration(loop_ns):
    """The ns per loop rt-app 1.0's calibrate_cpu_cycles() reports ("calibration" : "CPU0")
    when each loop takes LOOP_NS: it times 10000 loops (more at each trial), takes the
    integer ns per loop and keeps a running average, avg = (avg + ns) >> 1 from 0, and
    returns the average as soon as it is within 2 % of the last trial, |ns - avg| * 50 <
    avg.  Starting from 0, the average gets there after six trials at 63/64 of the truth:
    221 for 225.  So rt-app asks for about 2 % more loops than the run's time, and a run
    takes that much longer, on the image as on Linux."""
    avg = 0
    for _ in range(1000):
        avg = (avg + loop_ns) >> 1
        if abs(loop_ns - avg) * 50 < avg:
            return avg
    return 0


def _kind(key):
    return key.rstrip("0123456789")


class Spec:
    """The engine's flat description of CFG (rtapp.c's header has the format)."""

    def __init__(self, cfg):
        self.cfg, self.lines, self.ids = cfg, [], {}
        self.users = self._barrier_users()

    def _id(self, kind, name):
        table = self.ids.setdefault(kind, {})
        return table.setdefault(name, len(table))

    def _barrier_users(self):
        users = {}
        for _, _, task in rtapp.threads(self.cfg):
            for phase in self._phases(task):
                for k, v in phase.items():
                    if _kind(k) == "barrier":
                        users[v] = users.get(v, 0) + 1
        return users

    @staticmethod
    def _phases(task):
        return list(task["phases"].values()) if "phases" in task else [task]

    def event(self, where, key, v, index):
        kind = _kind(key)
        if kind in ("run", "runtime", "sleep"):
            if not isinstance(v, int) or v < 0:
                raise Refused(f"{where}: \"{key}\" : {v!r}: expected a time in us >= 0")
            return f"{'sleep' if kind == 'sleep' else 'run'} {v * 1000}"
        if kind == "timer":
            if v.get("mode", "relative") != "relative":
                raise Refused(f"{where}: timer mode {v['mode']!r}: not simulated (expected \"relative\")")
            if not isinstance(v.get("period"), int) or v["period"] <= 0:
                raise Refused(f"{where}: timer period {v.get('period')!r}: expected a time in us > 0")
            ref = f"unique#{index}" if v.get("ref", "unique") == "unique" else v["ref"]
            return f"timer {self._id('timer', ref)} {v['period'] * 1000}"
        if kind in ("lock", "unlock"):
            return f"{kind} {self._id('mutex', v)}"
        if kind in ("signal", "broad"):
            return f"{kind} {self._id('cond', v)}"
        if kind == "wait":
            return f"wait {self._id('cond', v['ref'])} {self._id('mutex', v['mutex'])}"
        return f"barrier {self._id('barrier', v)} {self.users[v]}"

    @staticmethod
    def check_keys(where, obj, known):
        for k in obj:
            if k in TASK_KEYS and k not in known:
                raise Refused(f"{where}: \"{k}\": a task's key, which rt-app 1.0 reads for the whole "
                              f"task and ignores in a phase (a phase sets only {', '.join(sorted(known))}); "
                              f"move it to the task")
            if k not in known and _kind(k) not in EVENTS:
                what = "not simulated" if _kind(k) in NOT_MODELLED else "unknown key (rt-app ignores it)"
                raise Refused(f"{where}: \"{k}\": {what}; expected {', '.join(sorted(known))} "
                              f"or the events {', '.join(EVENTS)}")

    def thread(self, index, name, task, default_policy):
        where = f"task {name}"
        self.check_keys(where, task, TASK_KEYS)
        for pname, phase in task.get("phases", {}).items():
            self.check_keys(f"{where}, phase {pname}", phase, PHASE_KEYS)
        policy = task.get("policy", default_policy)
        if policy not in POLICIES:
            raise Refused(f"{where}: policy {policy}: not simulated (expected SCHED_OTHER, SCHED_FIFO or "
                          f"SCHED_RR; Granule has no deadline class)")
        prio = task.get("priority", 0 if policy == "SCHED_OTHER" else 10)
        lo, hi = (-20, 19) if policy == "SCHED_OTHER" else (1, 99)
        if not isinstance(prio, int) or not lo <= prio <= hi:
            raise Refused(f"{where}: priority {prio!r} out of range for {policy} (expected {lo}..{hi})")
        phased = "phases" in task
        self.lines.append(f"thread {name} {POLICIES[policy]} {prio} {int(task.get('delay', 0)) * 1000} "
                          f"{task.get('loop', -1) if phased else -1} {rtapp.log_paths(self.cfg)[index]}")
        for pname, phase in (task["phases"].items() if phased else [(name, task)]):
            self.lines.append(f"phase {phase.get('loop', 1) if phased else task.get('loop', -1)}")
            for k, v in phase.items():
                if _kind(k) in EVENTS:
                    self.lines.append(self.event(f"{where}, phase {pname}", k, v, index))

    def text(self):
        g = self.cfg.get("global", {})
        for k in g:
            if k not in GLOBAL_KEYS:
                raise Refused(f"global: \"{k}\": unknown key (rt-app ignores it); expected "
                              f"{', '.join(sorted(GLOBAL_KEYS))}")
        if g.get("pi_enabled"):
            raise Refused("global: \"pi_enabled\" : true: not simulated (the engine's mutexes hand over "
                          "in FIFO order, without priority inheritance); expected false")
        duration = g.get("duration", -1)
        if not isinstance(duration, int) or not 1 <= duration <= 3600:
            raise Refused(f"global: duration {duration!r}: expected 1..3600 s (a simulation needs an end)")
        cal = g.get("calibration", "CPU0")
        c = image_costs()
        pload = cal if isinstance(cal, int) and cal > 0 else rt_app_calibration(c["loop"])
        self.lines = [f"duration {duration * 1_000_000_000}", f"pload {pload}", f"loop {c['loop']}",
                      "costs " + " ".join(str(c[k]) for k in RTAPP_COSTS[1:])]
        for index, name, task in rtapp.threads(self.cfg):
            self.thread(index, name, task, g.get("default_policy", "SCHED_OTHER"))
        return "\n".join(self.lines) + "\n"


def simulate(path, engine_args=()):
    """The engine's output (the logs) for the rt-app file PATH; Refused or WorkloadError."""
    spec = Spec(rtapp.load(path)).text()
    engine_args = list(engine_args)
    for i, a in enumerate(engine_args[:-1]):
        if a == "--trace":              # the engine runs in ROOT: the caller's relative path
            engine_args[i + 1] = os.path.abspath(engine_args[i + 1])
    engine = os.environ.get("SIM_ENGINE") or os.path.join(ROOT, "build", "sim")
    with tempfile.NamedTemporaryFile("w", suffix=".spec", prefix="rtapp-") as f:
        f.write(spec)
        f.flush()
        p = subprocess.run([engine, "rtapp", f.name] + list(engine_args), capture_output=True, text=True,
                           cwd=ROOT)
    if p.returncode:
        line = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "the engine failed"
        raise Refused(line.removeprefix("sim: "))
    return p.stdout


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    sub = argv.pop(0) if argv and argv[0] in ("experiment", "tasks") else "experiment"
    if "--rt-app" not in argv or argv.index("--rt-app") + 1 >= len(argv):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    i = argv.index("--rt-app")
    path = argv[i + 1]
    try:
        out = simulate(path, argv[:i] + argv[i + 2:])
    except rtapp.WorkloadError as e:
        print(f"sim: {e}", file=sys.stderr)
        return 2
    except (Refused, OSError) as e:
        print(f"sim: rt-app {path}: {e}", file=sys.stderr)
        return 2
    if sub == "experiment":
        sys.stdout.write(out)
    for log, rows in sorted(rtapp.split_logs(out).items()):
        s = rtapp.summary(rows)
        if s["n"]:
            print(f"{log}: periods {s['n']} wu_lat mean {s['wu_lat_mean']:.0f} max {s['wu_lat_max']} "
                  f"slack min {s['slack_min']} run mean {s['run_mean']:.0f} period mean {s['period_mean']:.0f}")
    return 0
