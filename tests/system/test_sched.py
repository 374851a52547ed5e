"""The CFS scheduler inside Granule under QEMU (-icount, deterministic):

- CPU shares of spinning threads at nice levels (user/spin.c) against the
  weight ratio, and Jain's index;
- the boot knob table (`sysctl -a` form from sched_print_tunables()) for
  every preset in tools/presets, and explicit knobs overriding a preset;
- the `sched_debug=end` report (2.6.35 /proc/sched_debug layout + the
  per-task schedstats table), parsed and cross-checked;
- `sched_verify=1` finds no violations;
- bad sched knobs: the registry's one-line error, default kept;
- user/bench/microbench.c runs and its figures are ordered sensibly.
"""
import json
import os

import pytest

from conftest import boot, check_clean

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

# prio_to_weight[nice + 20] (Linux 2.6.35, kernel/sched/core.c)
WEIGHT = {0: 1024, 1: 820, 5: 335}

# Share tolerance: |measured - w_i / sum(w)| in absolute share.  With HZ=1000
# and a 300 ms window the tick quantises slices to 1 ms, about 0.3%% of the
# window per slice boundary; measured errors are <= 0.7%% (see the report).
SHARE_TOL = 0.015
JAIN_MIN = 0.999        # Jain's index over share / expected share


def result_lines(run):
    """The RESULT {json} objects a run printed, in order."""
    return [json.loads(l[len("RESULT "):]) for l in run.lines if l.startswith("RESULT {")]


# ---- CPU shares -------------------------------------------------------------

SPIN_CASES = [(0, 1), (0, 5), (0, 0, 0)]


@pytest.fixture(scope="module")
def spin_run():
    """One boot for all share cases, with the invariant checker and the
    end-of-run report on (about 3 s of wall time)."""
    cmds = "; ".join("spin -t 300 " + " ".join(map(str, c)) for c in SPIN_CASES)
    r = boot(f'run="{cmds}" sched_debug=end sched_verify=1')
    check_clean(r)
    return r


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


@pytest.mark.parametrize("idx", range(len(SPIN_CASES)),
                         ids=["nice " + " vs ".join(map(str, c)) for c in SPIN_CASES])
def test_spinner_shares_match_weights(spin_run, idx):
    nices = SPIN_CASES[idx]
    res = result_lines(spin_run)
    assert len(res) == len(SPIN_CASES), spin_run.output[-3000:]
    r = res[idx]
    assert r["bench"] == "spin"
    assert [t["nice"] for t in r["threads"]] == list(nices)
    # the window really was 300 ms of virtual time
    assert abs(r["window_ns"] - 300_000_000) < 1_000_000
    cpu = [t["cpu_ns"] for t in r["threads"]]
    total = sum(cpu)
    # on one CPU the spinners together use (almost) the whole window
    assert total > 0.98 * r["window_ns"], cpu
    wsum = sum(WEIGHT[n] for n in nices)
    for t, n, c in zip(r["threads"], nices, cpu):
        expected = WEIGHT[n] / wsum
        assert t["weight"] == WEIGHT[n]
        assert abs(t["expected"] - expected) < 1e-6
        assert abs(t["share"] - c / total) < 1e-6           # the program's arithmetic
        assert abs(c / total - expected) <= SHARE_TOL, (n, c / total, expected)
    # Jain's index over share / expected: recomputed here, and above the bar
    j = jain([c / WEIGHT[n] for c, n in zip(cpu, nices)])
    assert abs(r["jain"] - j) < 2e-6
    assert j >= JAIN_MIN
    assert abs(r["jain_raw"] - jain(cpu)) < 2e-6


def test_spin_labels_results_with_the_kernel_params(spin_run):
    """granule_sched_params (private call G+3) reaches user space."""
    for r in result_lines(spin_run):
        assert r["preset"] == "commit-0bf377bbb0be"
        assert r["hz"] == 1000


def test_sched_verify_finds_no_violations(spin_run):
    assert spin_run.has_line("sched_verify: 0 violations")
    assert not any(l.startswith("sched_verify: ") and "violations" not in l
                   for l in spin_run.lines), "a violation was printed"


# ---- sched_debug=end ---------------------------------------------------------

def parse_sched_debug(lines):
    """Parse the end-of-run report into sections:
    header/cpu/cfs_rq: {field: str}; tasks: runnable-table rows;
    stats: schedstats rows; rq: the summary line's fields."""
    i = lines.index("Sched Debug Version: v0.09, granule 0.1")
    d = {"header": {}, "cpu": {}, "cfs_rq": {}, "tasks": [], "stats": [], "rq": {}}
    d["now"] = float(lines[i + 1].split()[2])
    assert lines[i + 1].startswith("now at ") and lines[i + 1].endswith(" msecs")
    sec = "header"
    for l in lines[i + 2:]:
        if l == "sched_debug: end of report":
            break
        if not l.strip() or l.startswith("---"):
            continue
        if l == "cpu#0":
            sec = "cpu"
        elif l == "cfs_rq[0]:":
            sec = "cfs_rq"
        elif l == "runnable tasks:":
            sec = "tasks"
        elif l.startswith("schedstats:"):
            sec = "stats"
        elif l.startswith("rq: "):
            f = l[4:].split()
            d["rq"] = dict(zip(f[0::2], f[1::2]))
        elif l.startswith("  ."):
            k, v = l[3:].split(":", 1)
            d[sec][k.strip()] = v.strip()
        elif sec == "tasks" and not l.lstrip().startswith("task "):
            cur = l[0] == "R"
            f = l[1:].split()
            d["tasks"].append(dict(cur=cur, comm=f[0], pid=int(f[1]), key=float(f[2]),
                                   switches=int(f[3]), prio=int(f[4]), exec=float(f[5]),
                                   sum_exec=float(f[6]), sum_sleep=float(f[7])))
        elif sec == "stats" and not l.lstrip().startswith("task "):
            f = l.split()
            d["stats"].append(dict(comm=f[0], pid=int(f[1]), tgid=int(f[2]), state=f[3],
                                   prio=int(f[4]), nvcsw=int(f[5]), nivcsw=int(f[6]),
                                   sum_exec=float(f[7]), wait_max=float(f[8]),
                                   wait_sum=float(f[9]), wait_count=int(f[10]),
                                   run_delay=float(f[11]), pcount=int(f[12])))
    return d


def test_sched_debug_end_layout_and_values(spin_run):
    d = parse_sched_debug(spin_run.lines)
    h = d["header"]
    assert h["sysctl_sched_latency"] == "6.000000"
    assert h["sysctl_sched_min_granularity"] == "0.750000"
    assert h["sysctl_sched_wakeup_granularity"] == "1.000000"
    assert h["sysctl_sched_features"] == str(0x3C6F)
    assert h["sysctl_sched_tunable_scaling"] == "1 (logaritmic)"
    assert h["sched_nr_latency"] == "8"
    # about 0.12 s of boot + 3 x (50 ms warm-up + 300 ms window)
    assert 1000 < d["now"] < 1500
    assert abs(int(h["jiffies"]) - d["now"]) < 30        # HZ=1000: 1 jiffy per ms
    cpu, cfs = d["cpu"], d["cfs_rq"]
    assert cpu["curr->pid"] == "1"                       # init powers off
    assert cpu["nr_running"] == "1" and cpu["load"] == "1024"
    assert cfs["nr_running"] == "1" and cfs["load"] == "1024"
    assert cfs["nr_spread_over"] == "0"
    assert float(cfs["min_vruntime"]) > 0
    # the runnable table: init alone, running, tree-key = its vruntime
    assert len(d["tasks"]) == 1
    t = d["tasks"][0]
    assert t["cur"] and t["comm"] == "init" and t["pid"] == 1 and t["prio"] == 120
    assert t["key"] == t["exec"]          # 2.6.35 prints vruntime in both columns


def test_schedstats_are_consistent(spin_run):
    d = parse_sched_debug(spin_run.lines)
    stats, rq = d["stats"], d["rq"]
    nr_switches = int(d["cpu"]["nr_switches"])
    assert int(rq["nr_switches"]) == nr_switches
    # every switch is counted once, as prev's voluntary or involuntary switch
    assert sum(s["nvcsw"] + s["nivcsw"] for s in stats) == nr_switches
    # every pick of a non-idle task is one sched_info arrival
    assert sum(s["pcount"] for s in stats) == int(rq["pcount"])
    spinners = [s for s in stats if s["comm"] == "spin" and s["pid"] != s["tgid"]]
    assert len(spinners) == sum(len(c) for c in SPIN_CASES)
    for s in spinners:
        assert s["state"] == "X"
        # a spinner never sleeps: preempted by the tick only, and it waited
        assert s["nivcsw"] >= 30 and s["nvcsw"] == 1      # the one at exit
        assert s["wait_sum"] > 50 and s["wait_count"] >= s["nivcsw"]
        assert 0 < s["wait_max"] <= 12          # ms: a 6 ms period, tick-quantised
        assert abs(s["wait_sum"] - s["run_delay"]) < 1.0
    # the nice-5 spinner (prio 125) waited longer than its nice-0 partner
    by_prio = {s["prio"]: s for s in spinners if s["tgid"] == spinners[2]["tgid"]}
    assert by_prio[125]["wait_sum"] > 2 * by_prio[120]["wait_sum"]


def test_sched_debug_is_off_by_default():
    r = boot("")
    check_clean(r)
    assert r.has_line("  sched_debug = off")
    assert "Sched Debug Version" not in r.output
    assert not any(l.startswith("schedstats:") for l in r.lines)


# ---- the boot knob table and presets ------------------------------------------

DEFAULT_FEATS = ("GENTLE_FAIR_SLEEPERS START_DEBIT WAKEUP_PREEMPT AFFINE_WAKEUPS NO_NEXT_BUDDY "
                 "LAST_BUDDY CACHE_HOT_BUDDY NO_ARCH_POWER NO_HRTICK NO_DOUBLE_TICK LB_BIAS "
                 "LB_SHARES_UPDATE ASYM_EFF_LOAD OWNER_SPIN NO_START_NICE NO_DYN_GRAN "
                 "NO_DEADLINE NO_CPT_FIX").split()


def feats(*changes):
    """The default list with NAME set / NO_NAME cleared."""
    out = list(DEFAULT_FEATS)
    for c in changes:
        name = c[3:] if c.startswith("NO_") else c
        i = [f.replace("NO_", "", 1) for f in out].index(name)
        out[i] = c
    return " ".join(out)


# preset -> (latency, min_gran, wakeup_gran, nr_latency, features,
#            std_gran, nr_latency_max, sleeper_slice, fork_update_clock)
# docs/VARIANTS.md: 2.6.35 = 6/2/1 ms, nr_latency 3; [0bf] = 0.75 ms, 8.
PRESETS = {
    "linux-2.6.35": (6000000, 2000000, 1000000, 3, feats(), 2000000, 8, 0, 0),
    "commit-0bf377bbb0be": (6000000, 750000, 1000000, 8, feats(), 2000000, 8, 0, 1),
    "no-start-debit": (6000000, 750000, 1000000, 8, feats("NO_START_DEBIT"), 2000000, 8, 0, 1),
    "dyn-gran": (6000000, 750000, 1000000, 3, feats("DYN_GRAN"), 2000000, 8, 0, 0),
    "dyn-gran-sleeper": (6000000, 750000, 1000000, 3, feats("DYN_GRAN"), 2000000, 8, 2000000, 0),
    "start-nice": (6000000, 750000, 1000000, 8, feats("START_NICE", "NO_START_DEBIT"),
                   2000000, 8, 0, 1),
    "start-nice-debit": (6000000, 750000, 1000000, 8, feats("START_NICE"), 2000000, 8, 0, 1),
    "deadline": (6000000, 750000, 1000000, 8, feats("DEADLINE"), 2000000, 8, 0, 1),
    "cpt-fix": (6000000, 750000, 1000000, 8, feats("CPT_FIX"), 2000000, 8, 0, 1),
}


def tools_presets():
    with open(os.path.join(ROOT, "tools", "presets")) as f:
        return [l.split("\t")[0] for l in f if l.strip() and not l.startswith("#")]


def sysctl_table(run):
    """The `sysctl -a` style block: {key: value} for 'key = value' lines
    without leading blanks (the knob registry's table is indented)."""
    out = {}
    for l in run.lines:
        if " = " in l and not l.startswith(" ") and (l.startswith("kernel.sched_") or
                                                      l.startswith("sched_")):
            k, v = l.split(" = ", 1)
            out[k] = v
    return out


def expected_table(name, vals):
    lat, mg, wg, nrl, fl, std, nrmax, slp, fuc = vals
    return {
        "kernel.sched_child_runs_first": "0", "kernel.sched_compat_yield": "0",
        "kernel.sched_latency_ns": str(lat), "kernel.sched_min_granularity_ns": str(mg),
        "kernel.sched_tunable_scaling": "1", "kernel.sched_wakeup_granularity_ns": str(wg),
        "sched_features": fl, "sched_nr_latency": str(nrl), "sched_preset": name,
        "sched_std_granularity_ns": str(std), "sched_nr_latency_max": str(nrmax),
        "sched_sleeper_wakeup_slice_ns": str(slp), "sched_fork_update_clock": str(fuc),
    }


def test_every_tools_preset_has_an_expectation():
    # linux-6.12 (EEVDF) has its own checks: tests/system/test_eevdf.py
    assert sorted(tools_presets()) == sorted(list(PRESETS) + ["linux-6.12"])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_boot_table_reflects_preset(name):
    r = boot(f"sched_preset={name}")
    check_clean(r)
    assert sysctl_table(r) == expected_table(name, PRESETS[name])
    assert r.has_line(f"  sched_preset = {name}")
    # the `sysctl -a` block is sorted like sysctl's output
    ks = [l.split(" = ")[0] for l in r.lines if l.startswith("kernel.sched_")]
    assert ks == sorted(ks) and len(ks) == 6


OVERRIDES = [
    # explicit knob after a preset wins; nr_latency recomputed = ceil(6 / 1)
    ("sched_preset=linux-2.6.35 sched_min_granularity_ns=1000000",
     {"sched_preset": "linux-2.6.35", "kernel.sched_min_granularity_ns": "1000000",
      "sched_nr_latency": "6", "kernel.sched_latency_ns": "6000000"}),
    # a preset after a knob overrides the knob (left to right)
    ("sched_min_granularity_ns=1000000 sched_preset=linux-2.6.35",
     {"kernel.sched_min_granularity_ns": "2000000", "sched_nr_latency": "3"}),
    # Linux's sysctl spelling; ceil(10 / 0.75) = 14
    ("sysctl.kernel.sched_latency_ns=10000000",
     {"kernel.sched_latency_ns": "10000000", "sched_nr_latency": "14",
      "sched_preset": "commit-0bf377bbb0be"}),
    ("sched_preset=no-start-debit sched_features=START_DEBIT,NEXT_BUDDY",
     {"sched_features": feats("NEXT_BUDDY"), "sched_preset": "no-start-debit"}),
    ("sched_preset=dyn-gran sched_wakeup_granularity_ns=2000000",
     {"kernel.sched_wakeup_granularity_ns": "2000000",
      "sched_nr_latency": "8"}),  # [M1/2] quirk: any sysctl write gives ceil(6/0.75)
    ("sched_child_runs_first=1 sched_compat_yield=1 sched_tunable_scaling=0",
     {"kernel.sched_child_runs_first": "1", "kernel.sched_compat_yield": "1",
      "kernel.sched_tunable_scaling": "0"}),
]


@pytest.mark.parametrize("cmdline,want", OVERRIDES, ids=[o[0][:40] for o in OVERRIDES])
def test_explicit_knobs_override_presets(cmdline, want):
    r = boot(cmdline)
    check_clean(r)
    got = sysctl_table(r)
    for k, v in want.items():
        assert got[k] == v, (k, got[k], v)


def test_bad_sched_knobs_keep_defaults():
    r = boot("sched_features=FOO sched_latency_ns=50 sched_preset=nope "
             "sched_min_granularity_ns=2000000000 sched_debug=foo sched_verify=2")
    check_clean(r)
    for line in (
        "cmdline: sched_latency_ns=50: out of range (expected an integer "
        "100000..1000000000); keeping 6000000",
        "cmdline: sched_min_granularity_ns=2000000000: out of range (expected an integer "
        "100000..1000000000); keeping 750000",
        "cmdline: sched_debug=foo: invalid (expected one of off|end|domains); keeping off",
        "cmdline: sched_verify=2: invalid (expected 0 or 1); keeping 0",
    ):
        assert r.has_line(line), line
    m = r.find(r"^cmdline: sched_preset=nope: invalid \(expected one of (\S+)\); "
               r"keeping commit-0bf377bbb0be$")
    assert m, r.output[:3000]
    assert sorted(m.group(1).split("|")) == sorted(tools_presets())
    # one line, the parser's: the word and the known names (no second "invalid" line)
    assert r.find(r"^sched_features: unknown feature 'FOO'; known: GENTLE_FAIR_SLEEPERS .*; nothing changed$")
    assert not r.find(r"^cmdline: sched_features=FOO")
    assert sysctl_table(r) == expected_table("commit-0bf377bbb0be",
                                             PRESETS["commit-0bf377bbb0be"])
    assert r.has_line("Boot complete")


# ---- microbench --------------------------------------------------------------

def test_microbench_figures():
    r = boot('run="microbench -s 1,10 -w 30" sched_verify=1')
    check_clean(r)
    assert r.has_line("sched_verify: 0 violations")
    res = result_lines(r)
    assert len(res) == 1
    m = res[0]
    assert m["bench"] == "microbench" and m["preset"] == "commit-0bf377bbb0be"
    assert m["hz"] == 1000
    # a syscall is a few hundred instructions, well under a context switch
    assert 50 < m["null_syscall_ns"] < 2000
    assert m["null_syscall_ns"] < m["ctxsw_yield_ns"] < 20000
    assert m["ctxsw_yield_ns"] < m["thread_ns"] < m["fork_ns"] < m["fork_exec_ns"]
    assert m["switch_1_ns"] == -1                 # nobody to switch to
    assert m["null_syscall_ns"] < m["switch_10_ns"] < 20000
    for n in (1, 10):
        assert 100 < m[f"tick_{n}_ns"] < 20000
    # two yielders alternate: nearly every yield is a switch (each yield
    # of the parent gives two: out and back)
    line = next(l for l in r.lines if l.startswith("ctxsw 2 procs"))
    sw, yields = int(line.split()[-5]), int(line.split()[-2])
    assert sw >= 1.8 * yields
    # the table reports instructions = rounded ns under icount, then Linux
    # 6.1's figure and the ratio (also in the RESULT line as *_vs_linux)
    row = next(l for l in r.lines if l.startswith("null syscall (getppid)"))
    f = row.split()
    assert int(f[5]) == int(float(f[4]) + 0.5)
    assert int(f[6]) == 338 and f[7] == "%.3f" % (m["null_syscall_ns"] / 338 + 1e-9)
    assert m["null_syscall_vs_linux"] == float(f[7])
    assert "switch_10_vs_linux" not in m          # no Linux figure for the scaling rows
    # pipe ping-pong: every round trip is two switches, each with a read and
    # a write and a wakeup, so it costs more than a bare yield switch
    line = next(l for l in r.lines if l.startswith("pipe ping-pong, per switch"))
    assert int(line.split()[4]) == 2000           # 2 x 1000 round trips, none failed
    assert m["ctxsw_yield_ns"] < m["pipe_pingpong_ns"] < 20000
    assert m["pipe_pingpong_vs_linux"] == float("%.3f" % (m["pipe_pingpong_ns"] / 6489 + 1e-9))
    # timer wake: 100 wakes, each after the expiry (late > 0) and long
    # before the next 100 us period could pass
    line = next(l for l in r.lines if l.startswith("timer 100us -> sigwaitinfo"))
    assert int(line.split()[5]) == 100 and "failed" not in line
    assert 0 < m["timer_wake_late_ns"] < 50000
    assert m["timer_wake_late_vs_linux"] == float("%.3f" % (m["timer_wake_late_ns"] / 4416 + 1e-9))
