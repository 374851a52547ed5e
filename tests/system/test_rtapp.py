"""Debian's rt-app 1.0 runs unchanged on Granule, and every file in workloads/ with it.

The program, json-c, glibc and the workloads come as a boot module
(build/rt-app/rt-app.tar, tools/fetch-rtapp); `sh /usr/share/granule/rt-app-logs FILE`
runs rt-app and prints each per-thread log it left in /tmp (tmpfs).  The logs are read
with tools/granule/rtapp.py and checked against what the file asks for: one row per
period (duration / period of them), the configured run and period in c_duration and
c_period, wu_lat >= 0, and rt-app's own bookkeeping, period = run + slack + wu_lat when
the period did not overrun (slack >= 0), period = run with wu_lat 0 when it did.

One file also runs on Debian's Linux 6.12 (tools/linux-peer; LINUX=0 skips it), and its logs
hold the same sums.

The files under tests/system/rtapp/ are this test's: every policy and event kind rt-app
asks the kernel for, and the bad inputs, each answered by rt-app's own message while the
system carries on.
"""
import glob
import os
import subprocess
import sys

import pytest

from conftest import boot, check_clean
from granule import rtapp

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODULE = os.path.join(ROOT, "build", "rt-app", "rt-app.tar")
TESTDATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rtapp")
WORKLOADS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "workloads", "*.json")))
LOGS = "sh /usr/share/granule/rt-app-logs"
TOL_US = 20     # rt-app's own overhead between the events it times, and its rounding to us (measured: -1..4)

pytestmark = pytest.mark.skipif(not os.path.exists(MODULE),
                                reason="no build/rt-app (make deps fetches it: tools/fetch-rtapp)")


@pytest.fixture(scope="module")
def test_module(tmp_path_factory):
    """The module with this test's files added under t/."""
    tmp = tmp_path_factory.mktemp("rtapp")
    root = tmp / "root"
    root.mkdir()
    subprocess.run(["tar", "-x", "-C", str(root), "-f", MODULE], check=True)
    args = []
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                args.append(f"{os.path.relpath(p, root)}={p}")
    args += ["lib/ld-linux.so.2->i386-linux-gnu/ld-linux.so.2", "bin/rt-app->../usr/bin/rt-app"]
    args += [f"t/{os.path.basename(p)}={p}" for p in glob.glob(os.path.join(TESTDATA, "*.json"))]
    out = tmp / "rt-app-t.tar"
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mkinitrd"), "-o", str(out)] + args,
                   check=True)
    return str(out)


def boot_rtapp(run, module=MODULE, timeout=300, status=0):
    r = boot(f'run="{run}"', extra=["-initrd", module], timeout=timeout)
    check_clean(r, status=status)
    return r


def exits(r):
    """[(program, status)] of init's "exited with status" lines, in order."""
    out = []
    for line in r.lines:
        if line.startswith("init: ") and " exited with status " in line:
            out.append((line.split()[1], int(line.rsplit(None, 1)[1])))
    return out


def events(task):
    """The event keys of a one-phase task, without their numeric suffix (run0 -> run)."""
    return [k.rstrip("0123456789") for k in task if k.rstrip("0123456789") in
            ("run", "sleep", "timer", "lock", "unlock", "signal", "wait", "barrier")]


def check_rows(name, task, rows, duration_s):
    """What every log must hold; for a task of just run + timer, the count and rt-app's sums."""
    assert rows, f"{name}: no period rows"
    assert all(r["wu_lat"] >= 0 for r in rows), f"{name}: negative wu_lat"
    if events(task) != ["run", "timer"]:
        return
    period, run = task["timer"]["period"], task["run"]
    assert {r["c_period"] for r in rows} == {period}, f"{name}: c_period is not {period}"
    assert {r["c_duration"] for r in rows} == {run}, f"{name}: c_duration is not {run}"
    if task.get("loop", -1) == -1:
        expected = duration_s * 1_000_000 // period
        assert expected - 2 <= len(rows) <= expected, f"{name}: {len(rows)} periods, expected {expected}"
    for r in rows:
        if r["slack"] >= 0:
            assert abs(r["period"] - (r["run"] + r["slack"] + r["wu_lat"])) <= TOL_US, (name, r)
        else:
            assert r["wu_lat"] == 0 and abs(r["period"] - r["run"]) <= TOL_US, (name, r)


@pytest.fixture(scope="module")
def runs():
    """One boot per workload file: {file: (run, cfg, {path: rows})}."""
    out = {}
    for w in WORKLOADS:
        r = boot_rtapp(f"{LOGS} workloads/{w}")
        out[w] = (r, rtapp.load(os.path.join(ROOT, "workloads", w)), rtapp.split_logs(r.output))
    return out


@pytest.mark.parametrize("w", WORKLOADS)
def test_workload_logs(runs, w):
    r, cfg, logs = runs[w]
    assert exits(r)[-1] == ("sh", 0), r.output[-2000:]
    assert "unknown syscall 219" not in r.output      # madvise: glibc's thread exit
    paths = rtapp.log_paths(cfg)
    assert set(logs) == set(paths.values()), sorted(logs)
    for i, name, task in rtapp.threads(cfg):
        check_rows(f"{w}: {name}-{i}", task, logs[paths[i]], cfg["global"]["duration"])


def test_ramp_phases_in_order(runs):
    """The ramp's rows follow its phases: ten periods at each step of run, 1.6 ms to 14.4 ms."""
    _, cfg, logs = runs["ramp.json"]
    rows = logs[rtapp.log_paths(cfg)[0]]
    steps = [p["run"] for p in cfg["tasks"]["ramp"]["phases"].values()]
    assert [r["c_duration"] for r in rows] == [s for s in steps for _ in range(10)]


def test_mixed_rt_before_fair(runs):
    """SCHED_FIFO 50 preempts everything here: it runs within a few us of its timer; the fair
    periodic thread at nice 5 waits behind the rt threads (its worst wakeup is at least one rt
    burst, 2 ms)."""
    _, cfg, logs = runs["mixed.json"]
    paths = rtapp.log_paths(cfg)
    fifo = rtapp.summary(logs[paths[0]])
    fair = rtapp.summary(logs[paths[3]])
    assert fifo["wu_lat_max"] <= TOL_US, fifo
    assert fair["wu_lat_max"] >= 2000, fair


def test_consumer_follows_producer(runs):
    """The consumer wakes once per item: as many rows as the producer (+-1 at the end), no timer."""
    _, cfg, logs = runs["producer-consumer.json"]
    paths = rtapp.log_paths(cfg)
    prod, cons = logs[paths[0]], logs[paths[1]]
    assert abs(len(prod) - len(cons)) <= 1, (len(prod), len(cons))
    assert {r["c_period"] for r in cons} == {0} and {r["wu_lat"] for r in cons} == {0}


def test_experiment_2010_hogs(runs):
    """Ten hogs each log their four jobs in turn (c_duration 9, 24 + 3, 39, 57 + 3 ms: the
    bursts, and the "as" of every other job)."""
    _, cfg, logs = runs["experiment-2010.json"]
    paths = rtapp.log_paths(cfg)
    assert len(paths) == 11
    for i in range(1, 11):
        cd = [r["c_duration"] for r in logs[paths[i]]]
        assert cd[:4] == [9000, 27000, 39000, 60000], cd


def test_deterministic_under_icount(runs):
    """The same image and file give the same logs, byte for byte (-icount)."""
    r, _, _ = runs["producer-consumer.json"]
    again = boot_rtapp(f"{LOGS} workloads/producer-consumer.json")
    assert again.output == r.output


def test_features(test_module):
    """Every policy and event kind rt-app 1.0 asks the kernel for: SCHED_FIFO/RR with
    priority, SCHED_OTHER with a nice value, mlockall (lock_pages), PI mutexes, a
    barrier, phases, instances, a start delay, an affinity; each log as the file says."""
    r = boot_rtapp(f"{LOGS} t/features.json", module=test_module)
    assert exits(r)[-1] == ("sh", 0), r.output[-2000:]
    for notice in ("[0] Using SCHED_FIFO policy with priority 50", "[1] Using SCHED_RR policy with priority 10",
                   "[3] Using SCHED_OTHER policy with priority 5", "[0] Locking pages in memory"):
        assert any(notice in l for l in r.lines), notice
    assert "unknown syscall" not in r.output.replace("unknown syscall 435", "")   # clone3: ENOSYS, as 2.6.35
    cfg = rtapp.load(os.path.join(TESTDATA, "features.json"))
    logs = rtapp.split_logs(r.output)
    paths = rtapp.log_paths(cfg)
    assert set(logs) == set(paths.values()), sorted(logs)
    for i, name, task in rtapp.threads(cfg):
        check_rows(f"features: {name}-{i}", task, logs[paths[i]], 1)
    fifo = logs[paths[0]]
    assert max(r["wu_lat"] for r in fifo) <= TOL_US
    assert len(fifo) >= 1_000_000 // 5000 - 2


@pytest.mark.skipif(os.environ.get("LINUX") == "0", reason="LINUX=0: no Linux boots")
def test_same_file_on_linux_6_12():
    """tools/linux-peer: the same module and file on Debian's Linux 6.12; its logs hold the
    same sums and counts (the figures differ: EEVDF, and Linux's own costs)."""
    from granule.peer import linux as lp
    r = lp.run("linux-6.12", f"/bin/busybox {LOGS} workloads/duty-cycles.json", module=MODULE,
               timeout=600)
    assert not r.timed_out and r.status() == 0, r.text[-2000:]
    cfg = rtapp.load(os.path.join(ROOT, "workloads", "duty-cycles.json"))
    logs, paths = rtapp.split_logs(r.text), rtapp.log_paths(cfg)
    assert set(logs) == set(paths.values()), sorted(logs)
    for i, name, task in rtapp.threads(cfg):
        check_rows(f"linux-6.12: {name}-{i}", task, logs[paths[i]], cfg["global"]["duration"])


def test_phase_policy_is_ignored(test_module):
    """rt-app 1.0 reads "policy" and "priority" for a whole task; in a phase it ignores them
    (a phase sets "loop" and "cpus"): the thread runs both phases as SCHED_OTHER, says so once,
    and logs all six passes.  The simulator refuses the file with one line saying so, rather
    than run a workload whose author meant something else."""
    r = boot_rtapp(f"{LOGS} t/phase-policy.json", module=test_module)
    assert exits(r)[-1] == ("sh", 0), r.output[-2000:]
    notices = [l for l in r.lines if "policy with priority" in l]
    assert len(notices) == 1 and "[0] Using SCHED_OTHER policy with priority 0" in notices[0], notices
    rows = rtapp.split_logs(r.output)["/tmp/pp-t-0.log"]
    assert len(rows) == 6, rows
    p = sim_logs(os.path.join(TESTDATA, "phase-policy.json"))
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.splitlines()) == 1, p.stderr
    assert 'task t, phase q: "policy": a task\'s key, which rt-app 1.0 reads for the whole task and ' \
           'ignores in a phase' in p.stderr, p.stderr


# --- bad input: rt-app's own answer, and the system carries on ------------------------------

@pytest.fixture(scope="module")
def bad(test_module):
    r = boot_rtapp("rt-app t/malformed.json; rt-app t/unknown-key.json; "
                   f"{LOGS} t/run-over-period.json; rt-app t/unknown-policy.json; "
                   "rt-app t/deadline.json; hello", module=test_module, status=1)
    assert exits(r) == [("rt-app", 2), ("rt-app", 0), ("sh", 0), ("rt-app", 2), ("rt-app", 1),
                        ("hello", 0)], r.output[-3000:]
    return r


def test_malformed_json(bad):
    assert "[rt-app] <error> [json] Error while parsing input JSON" in bad.output


def test_unknown_key_is_ignored(bad):
    """rt-app 1.0 skips a key it does not know inside a task (here "snooze"): no error,
    the task runs its other events."""
    seg = bad.output.split("init: rt-app (pid")[1]
    assert "[0] starting thread" in seg and "<error>" not in seg and "<crit>" not in seg


def test_run_over_period(bad):
    """run 20 ms in a 10-ms period: rt-app accepts it, and every period overruns:
    negative slack, wu_lat 0, period = run (the timer has always expired)."""
    logs = rtapp.split_logs(bad.output)
    rows = logs["/tmp/o-t-0.log"]
    assert rows and all(r["slack"] < 0 and r["wu_lat"] == 0 for r in rows), rows[:3]
    assert all(r["c_duration"] == 20000 and r["c_period"] == 10000 for r in rows)


def test_unknown_policy(bad):
    assert "[rt-app] <crit> [json]         Invalid policy SCHED_BATCH" in bad.output


def test_deadline_refused(bad):
    """No deadline class: sched_setattr(SCHED_DEADLINE) is EINVAL, as Linux's
    __sched_setscheduler for a policy it has no class for; rt-app says so and stops."""
    assert "[rt-app] <crit> [0] sched_setattr returned -1" in bad.output
    assert "sched_setattr: Invalid argument" in bad.output
    assert "hello from user space" in bad.output


# --- the simulator: the same file, cross-validated against the runs above ----------------------

# The periodic task of each file: the thread whose wakeups the file is about.
PERIODIC = {"duty-cycles.json": "duty40", "ramp.json": "ramp", "producer-consumer.json": "producer",
            "mixed.json": "fair", "experiment-2010.json": "periodic"}
# Where the simulator is known to miss, with the figures (docs/RTAPP.md, "In the simulator"):
# a strict xfail, so that a fix shows as a pass to be recorded.
KNOWN_OFF = {}		# none on this image: experiment-2010.json's periodic thread, 4.7 against 2.5 us
			# on the previous one, is 3.5 against 3.5 (docs/RTAPP.md, "Several tick phases")


def sim_logs(path, *args):
    p = subprocess.run([os.path.join(ROOT, "tools", "sim"), "experiment", "--rt-app", path] + list(args),
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    return p


# The files whose periodic task turns on which side of a tick a few wakeups fall (docs/RTAPP.md,
# "Several tick phases"): each runs again after `usleep D` for each D here, which moves rt-app's
# start D us (and the usleep's own exec) against the tick, and the cross-validation compares the
# runs and the simulations at the same phases over all of them.
PHASED = ("mixed.json", "experiment-2010.json")
PHASE_DELAYS_US = (333, 667, 1000)


def sim_periodic(w, cfg, phase):
    """The simulated periodic task's summary at PHASE (us past a tick), every log checked."""
    assert phase is not None, "the run's tick phase: no hrtimer line or no timer in thread 0"
    p = sim_logs(os.path.join(ROOT, "workloads", w), "--tick-phase", str(phase))
    assert p.returncode == 0, p.stderr
    slogs = rtapp.split_logs(p.stdout)
    paths = rtapp.log_paths(cfg)
    assert set(slogs) == set(paths.values()), sorted(slogs)
    for i, name, task in rtapp.threads(cfg):
        check_rows(f"sim {w}: {name}-{i}", task, slogs[paths[i]], cfg["global"]["duration"])
    return rtapp.summary(slogs[paths[periodic_index(cfg, w)]])


def periodic_index(cfg, w):
    return next(i for i, name, _ in rtapp.threads(cfg) if name == PERIODIC[w])


def assert_within(q_mean, q_max, s_mean, s_max, what):
    """The mean within 10 %, the maximum within 25 % (each at least 2 us apart: whole us)."""
    assert abs(s_mean - q_mean) <= max(0.10 * q_mean, 2), what
    assert abs(s_max - q_max) <= max(0.25 * q_max, 2), what


@pytest.mark.parametrize("w", [w for w in WORKLOADS if w not in PHASED])
def test_sim_matches_qemu(runs, w, request):
    """tools/sim experiment --rt-app FILE against the QEMU run of the same file: the periodic
    task's mean wu_lat within 10 %, its maximum within 25 %.  The simulation starts where the
    run started against the tick (--tick-phase, read off the run by rtapp.tick_phase): six
    seconds of boot and of rt-app's calibration put it there (docs/RTAPP.md)."""
    if w in KNOWN_OFF:
        request.node.add_marker(pytest.mark.xfail(reason=KNOWN_OFF[w], strict=True))
    r, cfg, qlogs = runs[w]
    s = sim_periodic(w, cfg, rtapp.tick_phase(r.output, cfg))
    q = rtapp.summary(qlogs[rtapp.log_paths(cfg)[periodic_index(cfg, w)]])
    assert_within(q["wu_lat_mean"], q["wu_lat_max"], s["wu_lat_mean"], s["wu_lat_max"], (q, s))


@pytest.fixture(scope="module")
def phase_runs(runs):
    """{file: [(tick phase, QEMU summary of the periodic task)]}: the run above and one boot
    after each usleep of PHASE_DELAYS_US."""
    out = {}
    for w in PHASED:
        r, cfg, _ = runs[w]
        outputs = [r.output] + [boot_rtapp(f"usleep {d}; {LOGS} workloads/{w}").output for d in PHASE_DELAYS_US]
        path = rtapp.log_paths(cfg)[periodic_index(cfg, w)]
        out[w] = [(rtapp.tick_phase(o, cfg), rtapp.summary(rtapp.split_logs(o)[path])) for o in outputs]
    return out


@pytest.mark.parametrize("w", PHASED)
def test_sim_matches_qemu_over_phases(runs, phase_runs, w, request):
    """The same comparison over several tick phases: QEMU at each phase the runs fell on, the
    simulation at the same phases; the mean of the per-phase means within 10 %, the largest
    maximum within 25 %.  One run decides its mean by which side of a tick a few wakeups
    fall, and a model good to a few us per period puts some on the other side; over the
    phases the two sample the same edges (docs/RTAPP.md, "Several tick phases")."""
    if w in KNOWN_OFF:
        request.node.add_marker(pytest.mark.xfail(reason=KNOWN_OFF[w], strict=True))
    cfg = runs[w][1]
    pairs = [(phase, q, sim_periodic(w, cfg, phase)) for phase, q in phase_runs[w]]
    assert len({phase for phase, _, _ in pairs}) == len(pairs), "two runs at one phase"
    table = [(phase, round(q["wu_lat_mean"], 1), q["wu_lat_max"], round(s["wu_lat_mean"], 1), s["wu_lat_max"])
             for phase, q, s in pairs]
    n = len(pairs)
    assert_within(sum(q["wu_lat_mean"] for _, q, _ in pairs) / n, max(q["wu_lat_max"] for _, q, _ in pairs),
                  sum(s["wu_lat_mean"] for _, _, s in pairs) / n, max(s["wu_lat_max"] for _, _, s in pairs),
                  table)


@pytest.mark.parametrize("f,line", [
    ("malformed.json", "not JSON rt-app can parse"),
    ("unknown-key.json", 'task t, phase p: "snooze": unknown key (rt-app ignores it); expected cpus, loop'),
    ("unknown-policy.json", "task t: policy SCHED_BATCH: not simulated (expected SCHED_OTHER, SCHED_FIFO or"),
    ("deadline.json", "task dl: policy SCHED_DEADLINE: not simulated"),
    ("features.json", '"pi_enabled" : true: not simulated'),
])
def test_sim_refuses_with_one_line(f, line):
    """What the simulator cannot run gets one line naming the key and what is accepted, exit
    status 2, and nothing on stdout."""
    p = sim_logs(os.path.join(TESTDATA, f))
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout[-500:])
    assert len(p.stderr.splitlines()) == 1 and line in p.stderr, p.stderr


def test_sim_run_over_period():
    """run 20 ms in a 10-ms period: simulated as rt-app runs it, every period overruns."""
    p = sim_logs(os.path.join(TESTDATA, "run-over-period.json"))
    assert p.returncode == 0, p.stderr
    rows = rtapp.split_logs(p.stdout)["/tmp/o-t-0.log"]
    assert len(rows) == 5 and all(r["slack"] < 0 and r["wu_lat"] == 0 for r in rows), rows


def sim_one_fifo(tmp_path):
    """The simulated log of one SCHED_FIFO thread, 2 ms every 10 ms for a second."""
    f = tmp_path / "one.json"
    f.write_text("""{ "tasks" : { "f" : { "policy" : "SCHED_FIFO", "priority" : 50, "loop" : -1,
        "run" : 2000, "timer" : { "ref" : "unique", "period" : 10000 } } },
      "global" : { "duration" : 1, "logdir" : "/tmp", "log_basename" : "one" } }""")
    p = sim_logs(str(f))
    assert p.returncode == 0, p.stderr
    return rtapp.split_logs(p.stdout)["/tmp/one-f-0.log"]


def test_sim_run_is_a_count_of_rt_app_loops(tmp_path):
    """A run event is rt-app's loadwait(): RUN * 1000 / pLoad loops of its busy function, a
    fixed count whatever the interrupts cost.  On the image a loop takes 225 ns and rt-app's
    calibration reports 221 (its running average stops short, rtapp_sim.rt_app_calibration),
    so a 2-ms run is 9049 loops, 2036 us of CPU, plus the ticks it sits through (the image's
    fifo thread of mixed.json logs 9049 and 2038)."""
    from granule.sim import rtapp_sim
    assert rtapp_sim.rt_app_calibration(rtapp_sim.image_costs()["loop"]) == 221
    rows = sim_one_fifo(tmp_path)
    assert {r["perf"] for r in rows} == {2000 * 1000 // 221}, rows[:3]
    assert all(2036 <= r["run"] <= 2038 for r in rows), sorted({r["run"] for r in rows})


def test_sim_rounds_as_rt_app(runs):
    """rt-app's timespec_to_usec() rounds to the nearest us (round()), and its log's times and
    sums are of rounded us: mixed.json's fifo thread runs 9049 loops at 225 ns and two ticks,
    2037.5 us, which the image logs as 2038 in 97 passes of 99; the simulation at the run's tick
    phase logs the image's figure in every pass (it truncated, 2037)."""
    r, cfg, qlogs = runs["mixed.json"]
    log = "/tmp/mixed-fifo-0.log"
    q = [r["run"] for r in qlogs[log]]
    image = max(set(q), key=q.count)
    p = sim_logs(os.path.join(ROOT, "workloads", "mixed.json"), "--tick-phase", str(rtapp.tick_phase(r.output, cfg)))
    assert p.returncode == 0, p.stderr
    assert {r["run"] for r in rtapp.split_logs(p.stdout)[log]} == {image}, image


def test_sim_rt_app_own_costs(tmp_path):
    """rt-app's own code between two passes, as the image's logs show it: 8-9 us from a
    pass's end to the next one's start (the log line into the FILE buffer), more when the
    4096-byte buffer is written out, after the 32nd line and every 33 from there; and the
    start barrier's console line before the first pass (60-75 us on the image)."""
    rows = sim_one_fifo(tmp_path)
    gaps = [b["start"] - a["end"] for a, b in zip(rows, rows[1:])]
    flushes = [i for i, g in enumerate(gaps) if g > 9]
    assert flushes == [31, 64, 97] and all(g in (8, 9) for i, g in enumerate(gaps) if i not in flushes), gaps
    t_zero = rows[0]["end"] - rows[0]["wu_lat"] - rows[0]["c_period"]
    assert 60 <= rows[0]["start"] - t_zero <= 80, rows[0]


def test_sim_delay_moves_the_timers(tmp_path):
    """rt-app 1.0 starts a thread with "delay" D at t_zero + D and counts its timers from
    there: two 10-ms periodic threads, one delayed 5 ms, wake 5 ms apart."""
    f = tmp_path / "delay.json"
    f.write_text("""{ "tasks" : {
        "a" : { "loop" : -1, "run" : 500, "timer" : { "ref" : "unique", "period" : 10000 } },
        "b" : { "loop" : -1, "delay" : 5000, "run" : 500, "timer" : { "ref" : "unique", "period" : 10000 } } },
      "global" : { "duration" : 1, "logdir" : "/tmp", "log_basename" : "d" } }""")
    p = sim_logs(str(f))
    assert p.returncode == 0, p.stderr
    logs = rtapp.split_logs(p.stdout)
    expiry = [[r["end"] - r["wu_lat"] for r in logs[f"/tmp/d-{n}-{i}.log"][:5]] for i, n in enumerate("ab")]
    assert all(abs((b - a) % 10000 - 5000) <= 2 for a, b in zip(*expiry)), expiry


def test_sim_calibration_is_the_images(runs):
    """The pLoad rt-app printed on the image ("calibration" : "CPU0") is the one the
    simulator derives from the image's loop cost."""
    from granule.sim import rtapp_sim
    r, _, _ = runs["mixed.json"]
    assert f"pLoad = {rtapp_sim.rt_app_calibration(rtapp_sim.image_costs()['loop'])}ns" in r.output


def test_sim_rt_app_costs_are_this_images(runs):
    """rt-app's own costs as the simulator charges them (the calibration's rtapp.* lines,
    tools/granule/sim/rtapp_costs.py) land where the image spends them: in mixed.json's fifo
    log, the image's and the simulator's mean gap from one pass's end to the next one's start
    where no buffer is written (gaps under 9.5 us; LOG) agree within the logs' 1-us grain (the
    simulator's passes keep one phase against the microsecond, so its rounding does not
    average out as the image's does), and their first pass's offset from t_zero (the barrier's
    wakeup and START) within 10 %."""
    def figures(rows):
        gaps = [b["start"] - a["end"] for a, b in zip(rows, rows[1:])]
        plain = [g for g in gaps if g < 9.5]
        t_zero = rows[0]["end"] - rows[0]["wu_lat"] - rows[0]["c_period"]
        return sum(plain) / len(plain), rows[0]["start"] - t_zero

    log = "/tmp/mixed-fifo-0.log"
    p = sim_logs(os.path.join(ROOT, "workloads", "mixed.json"))
    assert p.returncode == 0, p.stderr
    (q_gap, q_start), (s_gap, s_start) = figures(runs["mixed.json"][2][log]), figures(rtapp.split_logs(p.stdout)[log])
    assert abs(s_gap - q_gap) <= 1.0, (q_gap, s_gap)
    assert abs(s_start - q_start) <= 0.10 * q_start, (q_start, s_start)


def test_rt_app_costs_are_the_calibrations(runs):
    """The calibration's rtapp.* lines are what this image measures: tools/sim calibrate's step
    (rtapp_costs.derive) on the plain run of mixed.json above and one traced boot of it gives
    each within 10 %, the loop's cost exactly (pLoad follows from it); rtapp.resume, counted in
    another kind of boot, is test_rtapp_wakeup.py's.  A kernel change that moves them fails
    here until `tools/sim calibrate` (or --rtapp-only) runs again."""
    from granule.sim import rtapp_costs, rtapp_sim
    traced = boot(rtapp_costs.cmdlines()[1], extra=["-initrd", MODULE], timeout=300)
    check_clean(traced)
    tick = next(int(l.split()[1]) for l in open(os.path.join(ROOT, "tools", "granule", "sim", "engine",
                                                               "calibration")) if l.startswith("tick "))
    measured = rtapp_costs.derive(runs["mixed.json"][0].output, traced.output, runs["mixed.json"][1], tick)
    calibrated = rtapp_sim.image_costs()
    assert measured["loop"] == calibrated["loop"], (measured, calibrated)
    assert all(abs(measured[k] - calibrated[k]) <= 0.10 * calibrated[k] for k in measured), (measured, calibrated)


def test_tick_phase():
    """rtapp.tick_phase: the tick armed a microsecond before the hrtimer line's timestamp
    (20.027 ms: ticks at 26 us past each ms), thread 0's first timer expiring 10 ms after
    t_zero, at 6393396 (its wakeup ended 6393397 with wu_lat 1): t_zero 6383396, 370 us past
    a tick; overrun, the expiry is the present (end) plus slack."""
    cfg = rtapp.loads('''{ "tasks" : { "f" : { "run" : 2000, "timer" : { "ref" : "unique", "period" : 10000 } } },
        "global" : { "duration" : 1, "logdir" : "/tmp", "log_basename" : "m" } }''')
    head = "[    0.020027] hrtimer: high-resolution mode (one-shot clock event, tick emulated every 1000000 ns)\n"
    row = "   0     9049     2038     9925         6383471         %d             948 %10d       2000      10000 %10d\n"
    assert rtapp.tick_phase(head + "==> /tmp/m-f-0.log <==\n" + row % (6393397, 7885, 1), cfg) == 370
    assert rtapp.tick_phase(head + "==> /tmp/m-f-0.log <==\n" + row % (6403397, -9999, 0), cfg) == 372
    assert rtapp.tick_phase("==> /tmp/m-f-0.log <==\n" + row % (6393397, 7885, 1), cfg) is None


@pytest.mark.parametrize("args,line", [
    (("--tick-phase", "1000000"), "--tick-phase 1000000: expected 0..999999 (us past a tick)"),
    (("--tick-phase", "12x"), "--tick-phase 12x: expected 0..999999"),
    (("--trace", "/nonexistent/t.txt"), "--trace /nonexistent/t.txt: cannot write it"),
])
def test_sim_bad_options(args, line):
    """A bad --tick-phase or --trace: one line naming it, exit status 2, nothing on stdout."""
    p = sim_logs(os.path.join(ROOT, "workloads", "mixed.json"), *args)
    assert p.returncode == 2 and p.stdout == "", p.stdout[-300:]
    assert p.stderr.count("\n") == 1 and line in p.stderr, p.stderr


def test_sim_trace(tmp_path):
    """--trace FILE: the simulated run's sched_wakeup and sched_switch events in ftrace's text,
    the lines tools/trace reads from the image: every wakeup of the periodic thread is
    followed by a switch to it, one per period (and its creation, sched_wakeup_new)."""
    from granule.trace import text as trace_text
    out = tmp_path / "trace.txt"
    p = sim_logs(os.path.join(ROOT, "workloads", "mixed.json"), "--trace", str(out))
    assert p.returncode == 0, p.stderr
    rows = rtapp.split_logs(p.stdout)["/tmp/mixed-fifo-0.log"]
    events = [trace_text.parse_line(l) for l in out.read_text().splitlines()]
    assert events and None not in events
    woken = [e for e in events if e["name"].startswith("sched_wakeup") and e["fields"]["comm"] == "fifo"]
    runs = [e for e in events if e["name"] == "sched_switch" and e["fields"]["next_comm"] == "fifo"]
    assert len(woken) == len(runs) and len(rows) <= len(woken) <= len(rows) + 2, (len(woken), len(runs))
    assert all(r["ts"] - w["ts"] < 20_000 for w, r in zip(woken[1:], runs[1:]))   # after its creation


def test_sim_signal_wakes_one_waiter(tmp_path):
    """A producer signals a condition three consumers wait on: each item wakes one consumer
    (pthread_cond_signal), so the consumers' passes add up to the producer's, +-1 each."""
    f = tmp_path / "pc3.json"
    f.write_text("""{ "tasks" : {
      "prod" : { "loop" : -1, "run" : 1000, "lock" : "q", "signal" : "c", "unlock" : "q",
                 "timer" : { "ref" : "unique", "period" : 10000 } },
      "cons" : { "instance" : 3, "loop" : -1, "lock" : "q", "wait" : { "ref" : "c", "mutex" : "q" },
                 "unlock" : "q", "run" : 500 } },
      "global" : { "duration" : 1, "logdir" : "/tmp", "log_basename" : "pc3" } }""")
    p = sim_logs(str(f))
    assert p.returncode == 0, p.stderr
    logs = rtapp.split_logs(p.stdout)
    prod = len(logs["/tmp/pc3-prod-0.log"])
    cons = [len(logs[f"/tmp/pc3-cons-{i}.log"]) for i in (1, 2, 3)]
    assert prod >= 90 and abs(sum(cons) - prod) <= 3 and max(cons) - min(cons) <= 2, (prod, cons)


def test_sim_barrier_wakes_in_the_futexs_order(tmp_path):
    """The start barrier's waiters come off it as the image's futex takes them (2.6.35's
    plist: rt threads first, the highest first, then the others in the order they came):
    of o1, f10, o2, f20 (SCHED_OTHER, FIFO 10, OTHER, FIFO 20, created in that order) the
    barrier's wakeups run f20, f10, then o1 before o2, leaving out the last to arrive."""
    from granule.trace import text as trace_text
    f = tmp_path / "order.json"
    task = '"run" : 100, "timer" : { "ref" : "%s", "period" : 10000 }'
    rt = '"policy" : "SCHED_FIFO", "priority" : %d, '
    f.write_text("""{ "tasks" : { "o1" : { %s }, "f10" : { %s%s }, "o2" : { %s }, "f20" : { %s%s } },
      "global" : { "duration" : 1, "logdir" : "/tmp", "log_basename" : "o" } }"""
                 % (task % "a", rt % 10, task % "b", task % "c", rt % 20, task % "d"))
    out = tmp_path / "trace.txt"
    p = sim_logs(str(f), "--trace", str(out))
    assert p.returncode == 0, p.stderr
    events = [trace_text.parse_line(l) for l in out.read_text().splitlines()]
    first = []
    for e in events:
        c = e["fields"].get("comm")
        if e["name"] == "sched_wakeup" and c in ("o1", "f10", "o2", "f20") and c not in first:
            first.append(c)
    key = {"f20": 0, "f10": 1, "o1": 2, "o2": 3}
    assert len(first) >= 3 and first[:3] == sorted(first[:3], key=key.get), first
