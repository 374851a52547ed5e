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
KNOWN_OFF = {
    "mixed.json": "fair thread behind rt: QEMU mean 3776 us, max 12735; sim 2450, 11997",
    "experiment-2010.json": "QEMU mean 3.2 us, max 245; sim 5.8, 950 (us-scale, where a cost model "
                            "of the switch path is all there is)",
}


def sim_logs(path, *args):
    p = subprocess.run([os.path.join(ROOT, "tools", "sim"), "experiment", "--rt-app", path] + list(args),
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    return p


@pytest.mark.parametrize("w", WORKLOADS)
def test_sim_matches_qemu(runs, w, request):
    """tools/sim experiment --rt-app FILE against the QEMU run of the same file: the periodic
    task's mean wu_lat within 10 %, its maximum within 25 % (at least 2 us apart: the logs
    count whole us)."""
    if w in KNOWN_OFF:
        request.node.add_marker(pytest.mark.xfail(reason=KNOWN_OFF[w], strict=True))
    _, cfg, qlogs = runs[w]
    p = sim_logs(os.path.join(ROOT, "workloads", w))
    assert p.returncode == 0, p.stderr
    slogs = rtapp.split_logs(p.stdout)
    paths = rtapp.log_paths(cfg)
    assert set(slogs) == set(paths.values()), sorted(slogs)
    for i, name, task in rtapp.threads(cfg):
        check_rows(f"sim {w}: {name}-{i}", task, slogs[paths[i]], cfg["global"]["duration"])
    i = next(i for i, name, _ in rtapp.threads(cfg) if name == PERIODIC[w])
    q, s = rtapp.summary(qlogs[paths[i]]), rtapp.summary(slogs[paths[i]])
    assert abs(s["wu_lat_mean"] - q["wu_lat_mean"]) <= max(0.10 * q["wu_lat_mean"], 2), (q, s)
    assert abs(s["wu_lat_max"] - q["wu_lat_max"]) <= max(0.25 * q["wu_lat_max"], 2), (q, s)


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
