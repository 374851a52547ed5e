"""EEVDF (Linux 6.12's fair class, kernel/sched/eevdf*.c) under QEMU with
sched_preset=linux-6.12 (-icount, deterministic):

- the preset prints its configuration (the boot block and the knob table);
- a CFS knob under EEVDF prints one line and changes nothing, and the
  other way round; 6.12 feature names in sched_features=;
- CPU shares of the spin program by nice level match the weights, as
  CFS's do (same tolerances as tests/system/test_sched.py), with the
  invariant checker on after every schedule, tick and wakeup;
- sched_debug=end prints Linux 6.12's cfs_rq fields and task columns;
- the experiment runs, its RESULT names the class, it is deterministic,
  and under kbuild:10 in thread mode its latencies are far below CFS's
  (a fresh thread joins at V with half a slice, and EEVDF preempts for it
  when the pick would choose it; CFS's START_DEBIT puts it one slice
  behind);
- slice_us=100 (sched_setattr's custom slice on the notifying threads)
  lowers the average further, deterministically.
"""

import pytest

from conftest import boot, check_clean
from test_sched import JAIN_MIN, SHARE_TOL, WEIGHT, jain, result_lines

FEATS_612 = ("PLACE_LAG PLACE_DEADLINE_INITIAL PLACE_REL_DEADLINE RUN_TO_PARITY "
             "PREEMPT_SHORT NO_NEXT_BUDDY PICK_BUDDY CACHE_HOT_BUDDY DELAY_DEQUEUE "
             "DELAY_ZERO WAKEUP_PREEMPTION NO_HRTICK NO_HRTICK_DL NO_DOUBLE_TICK "
             "NONTASK_CAPACITY TTWU_QUEUE SIS_UTIL NO_WARN_DOUBLE_CLOCK RT_PUSH_IPI "
             "NO_RT_RUNTIME_SHARE NO_LB_MIN ATTACH_AGE_LOAD WA_IDLE WA_WEIGHT WA_BIAS "
             "UTIL_EST NO_LATENCY_WARN NI_RANDOM")


def test_preset_prints_its_configuration():
    r = boot("sched_preset=linux-6.12")
    check_clean(r)
    for line in (
        "sched_class = eevdf (Linux 6.12 fair.c: EEVDF, lag placement, delayed dequeue)",
        "sched_base_slice_ns = 700000",        # Debian's 6.12 stable: 0.70 ms
        "sched_tunable_scaling = 1",
        "sched_features = " + FEATS_612,
        "sched_preset = linux-6.12",
        # the knob table (indented)
        "  sched_preset = linux-6.12",
        "  sched_base_slice_ns = 700000",
        "  sched_features = 0xBE5C7DF (default)",
    ):
        assert r.has_line(line), (line, r.output[:4000])
    # no 2.6.35 sysctl block under EEVDF
    assert not any(l.startswith("kernel.sched_") for l in r.lines)


def test_knobs_of_the_other_class_are_refused():
    r = boot("sched_preset=linux-6.12 sched_min_granularity_ns=1000000 "
             "sched_wakeup_granularity_ns=0 sched_base_slice_ns=3000000 "
             "sched_features=NO_PLACE_LAG,NO_RUN_TO_PARITY")
    check_clean(r)
    assert r.has_line("sched_min_granularity_ns has no effect under linux-6.12 (EEVDF); "
                      "see sched_base_slice_ns")
    assert r.has_line("sched_wakeup_granularity_ns has no effect under linux-6.12 (EEVDF); "
                      "see sched_base_slice_ns")
    assert r.has_line("  sched_min_granularity_ns = 750000")      # unchanged
    assert r.has_line("  sched_wakeup_granularity_ns = 1000000")
    assert r.has_line("sched_base_slice_ns = 3000000")
    feats = FEATS_612.replace("PLACE_LAG PLACE_DEADLINE", "NO_PLACE_LAG PLACE_DEADLINE")
    feats = feats.replace(" RUN_TO_PARITY", " NO_RUN_TO_PARITY")
    assert r.has_line("sched_features = " + feats)

    r = boot("sched_base_slice_ns=1000000")
    check_clean(r)
    assert r.has_line("sched_base_slice_ns has no effect under commit-0bf377bbb0be (CFS); "
                      "see sched_min_granularity_ns")
    assert r.has_line("  sched_base_slice_ns = 700000")


def test_bad_eevdf_knobs_keep_defaults():
    r = boot("sched_preset=linux-6.12 sched_base_slice_ns=50 sched_features=START_DEBIT")
    check_clean(r)
    assert r.has_line("cmdline: sched_base_slice_ns=50: out of range (expected an integer "
                      "100000..1000000000); keeping 700000")
    assert r.find(r"^sched_features: unknown feature 'START_DEBIT'; known: PLACE_LAG ")
    assert r.has_line("sched_features = " + FEATS_612)


# ---- CPU shares by nice level, and the end-of-run report ---------------------

SPIN_CASES = [(0, 1), (0, 5), (0, 0, 0)]


@pytest.fixture(scope="module")
def spin_run():
    cmds = "; ".join("spin -t 300 " + " ".join(map(str, c)) for c in SPIN_CASES)
    r = boot(f'sched_preset=linux-6.12 run="{cmds}" sched_debug=end sched_verify=1')
    check_clean(r)
    return r


@pytest.mark.parametrize("idx", range(len(SPIN_CASES)),
                         ids=["nice " + " vs ".join(map(str, c)) for c in SPIN_CASES])
def test_spinner_shares_match_weights(spin_run, idx):
    nices = SPIN_CASES[idx]
    res = result_lines(spin_run)
    assert len(res) == len(SPIN_CASES), spin_run.output[-3000:]
    r = res[idx]
    assert r["bench"] == "spin" and r["preset"] == "linux-6.12"
    cpu = [t["cpu_ns"] for t in r["threads"]]
    total = sum(cpu)
    assert total > 0.98 * r["window_ns"], cpu
    wsum = sum(WEIGHT[n] for n in nices)
    for n, c in zip(nices, cpu):
        assert abs(c / total - WEIGHT[n] / wsum) <= SHARE_TOL, (n, c / total)
    assert jain([c / WEIGHT[n] for c, n in zip(cpu, nices)]) >= JAIN_MIN


def test_sched_verify_finds_no_violations(spin_run):
    assert spin_run.has_line("sched_verify: 0 violations")
    assert not any(l.startswith("sched_verify: ") and "violations" not in l
                   for l in spin_run.lines)


def test_sched_debug_shows_612_fields(spin_run):
    lines = spin_run.lines
    i = lines.index("Sched Debug Version: v0.09, granule 0.1")
    report = lines[i:]
    for field in ("sysctl_sched_base_slice", "left_deadline", "left_vruntime",
                  "zero_vruntime", "avg_vruntime", "right_vruntime", "h_nr_delayed"):
        assert any(l.startswith(f"  .{field} ") for l in report), field
    assert any(l.startswith(" S            task   PID       vruntime   eligible    deadline")
               for l in report)
    assert not any(l.startswith("  .min_vruntime ") for l in report)


# ---- the experiment -------------------------------------------------------------

EXP = "run=experiment mode=thread load=kbuild:10 duration=2"


@pytest.fixture(scope="module")
def eevdf_exp():
    r = boot("sched_preset=linux-6.12 " + EXP, timeout=300)
    check_clean(r)
    return r


def latency_result(run):
    res = [x for x in result_lines(run) if x["bench"] == "wakeup-latency"]
    assert len(res) == 1, run.output[-3000:]
    return res[0]


def test_experiment_runs_under_eevdf(eevdf_exp):
    r = latency_result(eevdf_exp)
    assert r["preset"] == "linux-6.12" and r["sched_class"] == "eevdf"
    assert r["sched_base_slice_ns"] == 700000
    assert r["feat_PLACE_LAG"] is True and r["feat_DELAY_DEQUEUE"] is True
    assert r["feat_NEXT_BUDDY"] is False
    assert r["sched_features"] == FEATS_612
    assert r["samples"] == r["expected"] == 200 and r["missed"] == 0


def test_experiment_is_deterministic(eevdf_exp):
    again = boot("sched_preset=linux-6.12 " + EXP, timeout=300)
    check_clean(again)
    got = [l for l in again.lines if l.startswith("RESULT ")]
    assert got == [l for l in eevdf_exp.lines if l.startswith("RESULT ")]


def test_eevdf_thread_latency_below_cfs(eevdf_exp):
    cfs = boot(EXP, timeout=300)
    check_clean(cfs)
    e, c = latency_result(eevdf_exp), latency_result(cfs)
    assert c["preset"] == "commit-0bf377bbb0be"
    # CFS's fresh threads wait behind START_DEBIT (several ms on average);
    # EEVDF's start at V and are picked within a slice or two
    assert e["avg_us"] < c["avg_us"] / 2, (e["avg_us"], c["avg_us"])
    assert e["max_us"] < c["max_us"], (e["max_us"], c["max_us"])


SLICE_EXP = "sched_preset=linux-6.12 " + EXP + " slice_us=100"


@pytest.fixture(scope="module")
def slice_exp():
    r = boot(SLICE_EXP, timeout=300)
    check_clean(r)
    return r


def test_custom_slice_lowers_latency(eevdf_exp, slice_exp):
    # slice_us=100: the SIGEV_THREAD helper and the notification threads it
    # clones carry a 0.1 ms slice (sched_setattr before timer_create, copied
    # at each clone), so their deadlines come 0.1 ms (a fork: 0.05 ms) after
    # their placement instead of 0.70 (0.35): they are picked before the
    # compile jobs, and PREEMPT_SHORT lets them cut the running job's slice
    # protection at wakeup.
    s, e = latency_result(slice_exp), latency_result(eevdf_exp)
    assert s["slice_us"] == 100 and "slice_us" not in e
    assert s["samples"] == s["expected"] == 200
    assert s["avg_us"] < e["avg_us"] / 2, (s["avg_us"], e["avg_us"])
    assert s["max_us"] < e["max_us"], (s["max_us"], e["max_us"])


def test_custom_slice_is_deterministic(slice_exp):
    again = boot(SLICE_EXP, timeout=300)
    check_clean(again)
    got = [l for l in again.lines if l.startswith("RESULT ")]
    assert got == [l for l in slice_exp.lines if l.startswith("RESULT ")]

