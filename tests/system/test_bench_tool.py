"""tools/bench (tools/granule/bench/: cli, jobs, report; granule/stats.py): the matrix and its report.

One tiny matrix (one preset, signal mode, kbuild:10, 1 s, two load seeds, no
microbench, no Linux runs) runs under QEMU -icount three ways: tools/bench -j1,
tools/bench -j2, and a plan file run by GNU parallel -j2 then --collect.  The
tests check that the three give the same bytes, that the report prints what
the guest's RESULT lines said (median [min-max] over the seeds), that
--report-only rebuilds the same report, and that the docs writer replaces (not
appends) the VARIANTS.md block.  A second tiny matrix holds a variant row
(tools/granule/bench/variants.py: "linux-6.12 slice_us=100", beside its base and the
2.6.36 default, thread mode, one seed) and goes the same three ways: its row
and its line in the "What Linux did later" table are the guest's RESULT
figures.  The full matrix's variant rows are checked in the plan alone.  The
seed statistics, the verdicts, the later table's words and the Linux pairs
are checked on constructed runs, where the right answer is known.
"""
import json
import re
import os
import shutil
import subprocess

import pytest

TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "tools")
from granule.bench import cli as bench_cli
from granule.bench import eevdf as bench_eevdf
from granule.bench import linux as bench_linux
from granule.bench import report as br
from granule.bench import trace as bench_trace
from granule.bench import variants as bv
from granule.debian import qemu as qemufetch
from granule.peer import linux as lp
from granule.stats import Spread, seeds_for_stable_verdict, verdict
from granule.trace import worst as trace_worst

PRESET = "commit-0bf377bbb0be"
MATRIX = ["--presets", PRESET, "--modes", "signal", "--loads", "kbuild:10", "--duration", "1",
          "--seeds", "2", "--no-micro", "--no-linux"]


def bench(*args, timeout=600):
    p = subprocess.run([os.path.join(TOOLS, "bench"), *args], capture_output=True, text=True,
                       timeout=timeout)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return p.stdout


@pytest.fixture(scope="module")
def bench_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    stdout = bench(*MATRIX, "-j1", "--out", str(out))
    assert "ETA" in stdout
    return out


def load_runs(out):
    with open(out / "runs.json") as f:
        return json.load(f)


def test_report_rows_come_from_the_runs(bench_out):
    saved = load_runs(bench_out)
    assert saved["micro"] is None and len(saved["runs"]) == 2
    assert [r["seed"] for r in saved["runs"]] == [1, 2]
    assert saved["runs"][0]["cmdline"] == \
        f"sched_preset={PRESET} run=experiment mode=signal load=kbuild:10 duration=1 hist=1"
    assert saved["runs"][1]["cmdline"].endswith("duration=1 seed=2 hist=1")
    wls = [r["results"]["wakeup-latency"] for r in saved["runs"]]
    for wl in wls:
        assert (wl["preset"], wl["mode"], wl["samples"], wl["missed"]) == (PRESET, "signal", 100, 0)
    kbs = [r["results"]["kbuild-load"]["seed"] for r in saved["runs"]]
    assert kbs == [1, 2]
    report = (bench_out / "REPORT.md").read_text()
    cell = lambda key: Spread([w[key] for w in wls]).fmt()  # noqa: E731
    row = f"| {PRESET} | kbuild:10 | 1000 | 2 | {cell('max_us')} | {cell('avg_us')} | {cell('p99_us')} |"
    assert row in report
    # The published signal-mode rows are printed beside ours, from tools/seeds.json.
    assert "| M1/2 | 2.6.35-era without patch | linux-2.6.35 | YouTube + make -j10 | 8608.3 | 101.3 | 0 |" \
        in report
    for plot in ("cdf-signal", "hist-signal", "max-avg", "throughput-vs-latency"):
        assert (bench_out / f"{plot}.svg").stat().st_size > 1000, plot
    assert "wall" not in report     # wall times live in timing.json only
    timing = json.loads((bench_out / "timing.json").read_text())
    assert timing["parallel"] == 1
    # one wall time per run, and their sum (what -j1 takes) beside the total
    assert sorted(timing["per_job"]) == ["0001", "0002"]
    assert timing["run_wall_s"] == round(sum(timing["per_job"].values()), 1) > 0
    # the commit the measured image was built from, for the docs' first lines
    assert re.fullmatch(r"[0-9a-f]{12}(-dirty)?", timing["commit"])
    # and the QEMU it ran on: the pinned one, as it names itself
    assert timing["qemu"] == qemufetch.version().replace("QEMU emulator version ", "QEMU ")
    assert re.fullmatch(r"QEMU \d+\.\d+\.\d+ \(Debian [^)]+\)", timing["qemu"]), timing["qemu"]


def assert_j2_same_bytes(matrix, ref_out, out):
    """MATRIX run -j2 into OUT writes the bytes REF_OUT's -j1 run wrote."""
    bench(*matrix, "-j", "2", "--out", str(out))
    for name in ("REPORT.md", "runs.json"):
        assert (out / name).read_bytes() == (ref_out / name).read_bytes(), name


def through_parallel(matrix, tmp_path):
    """MATRIX's plan run by GNU parallel -j2, then --collect: (its jobs, the output dir)."""
    plan = tmp_path / "plan.jsonl"
    bench(*matrix, "--plan", str(plan))
    jobs = [json.loads(line) for line in plan.read_text().splitlines()[1:]]
    ids = bench("--job-ids", str(plan)).split()
    assert ids == [j["id"] for j in jobs]
    out = tmp_path / "out"
    p = subprocess.run(["parallel", "-j2", os.path.join(TOOLS, "bench"), "--run-job", str(plan),
                        "--job", "{}", "--out", str(out), ":::", *ids],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    bench("--collect", str(out), "--plan-file", str(plan))
    return jobs, out


def test_parallel_gives_the_same_bytes(bench_out, tmp_path):
    assert_j2_same_bytes(MATRIX, bench_out, tmp_path)


def test_plan_through_gnu_parallel_then_collect(bench_out, tmp_path):
    jobs, out = through_parallel(MATRIX, tmp_path)
    assert [j["id"] for j in jobs] == ["0001", "0002"]
    assert all(len(j["image"]) == 64 and j["cmdline"] for j in jobs)
    assert (out / "REPORT.md").read_text() == (bench_out / "REPORT.md").read_text()


def test_run_job_refuses_another_image(tmp_path):
    plan = tmp_path / "plan.jsonl"
    bench(*MATRIX, "--plan", str(plan))
    lines = plan.read_text().splitlines()
    job = json.loads(lines[1])
    job["image"] = "0" * 64
    plan.write_text(lines[0] + "\n" + json.dumps(job) + "\n")
    p = subprocess.run([os.path.join(TOOLS, "bench"), "--run-job", str(plan), "--job", job["id"],
                        "--out", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "another image" in p.stdout + p.stderr


def test_resume_boots_only_what_is_missing(bench_out, tmp_path):
    """make bench RESUME=1: an interrupted matrix (one of its two runs saved) is finished by
    booting the other only, and the report is the uninterrupted one's, byte for byte."""
    (tmp_path / "jobs").mkdir()
    for f in ("0001.json", "0001.wall"):
        shutil.copy(bench_out / "jobs" / f, tmp_path / "jobs" / f)
    out = bench(*MATRIX, "-j1", "--resume", "--out", str(tmp_path))
    assert "bench: 1 of 2 runs reused from" in out and "bench: 1 runs, 1 at a time" in out, out
    assert (tmp_path / "REPORT.md").read_text() == (bench_out / "REPORT.md").read_text()


def test_resume_reuses_only_the_same_job_on_the_same_image(bench_out, tmp_path):
    from granule.bench import jobs as bj
    (tmp_path / "jobs").mkdir()
    run = json.loads((bench_out / "jobs" / "0001.json").read_text())
    job = {k: run[k] for k in ("id", "label", "kernel", "preset", "mode", "load", "hz", "seed",
                               "cmdline", "image", "bench") if k in run}
    (tmp_path / "jobs" / "0001.json").write_text(json.dumps(run))
    assert bj.reusable(str(tmp_path), job) == run
    for key, other in (("image", "0" * 64), ("seed", 99), ("cmdline", job["cmdline"] + " hz=250")):
        assert bj.reusable(str(tmp_path), dict(job, **{key: other})) is None, key
    (tmp_path / "jobs" / "0001.json").write_text(json.dumps(dict(run, error="timed out")))
    assert bj.reusable(str(tmp_path), job) is None
    assert bj.reusable(str(tmp_path), dict(job, id="0002")) is None      # nothing saved


def test_report_only_rebuilds_the_same_report(bench_out, tmp_path):
    shutil.copy(bench_out / "runs.json", tmp_path / "runs.json")
    bench("--report-only", "--out", str(tmp_path))
    assert (tmp_path / "REPORT.md").read_text() == (bench_out / "REPORT.md").read_text()


def test_docs_block_is_replaced_not_appended(bench_out, tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(os.path.join(br.ROOT, "docs", "VARIANTS.md"), docs / "VARIANTS.md")
    monkeypatch.setattr(br, "ROOT", str(tmp_path))
    saved = load_runs(bench_out)
    for _ in range(2):
        br.write_docs(saved["runs"], None, saved["argv"], str(bench_out))
    text = (docs / "VARIANTS.md").read_text()
    assert text.count(br.BEGIN) == 1 and text.count(br.END) == 1
    block = text[text.index(br.BEGIN):text.index(br.END)]
    assert block.count(f"| {PRESET} | ") == 1
    wls = [r["results"]["wakeup-latency"] for r in saved["runs"]]
    median = lambda key: br.fnum(Spread([w[key] for w in wls]).median)  # noqa: E731
    assert f"{median('max_us')} / {median('avg_us')}" in block
    results = (docs / "RESULTS.md").read_text()
    assert "generated" in results and "](results/cdf-signal.svg)" in results
    assert (docs / "results" / "cdf-signal.svg").exists()


def test_docs_writer_refuses_without_markers(bench_out, tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    text = "# Variants\n\nno markers here\n" + br.END + "\n" + br.BEGIN + " -->\n"   # END before BEGIN
    (docs / "VARIANTS.md").write_text(text)
    monkeypatch.setattr(br, "ROOT", str(tmp_path))
    saved = load_runs(bench_out)
    br.write_docs(saved["runs"], None, saved["argv"], str(bench_out))
    assert (docs / "VARIANTS.md").read_text() == text


def test_fnum_marks_missing_figures():
    assert br.fnum(None) == br.fnum(-1) == br.fnum("") == "–"
    assert br.fnum(12.345) == "12.3" and br.fnum(">100000") == ">100000"


def test_spread_and_verdicts():
    assert Spread([3.0, 1.0, 2.0]).fmt() == "2.0 [1.0–3.0]"
    assert Spread([4.0, 1.0]).median == 2.5 and Spread([5.0]).fmt() == "5.0"
    assert Spread([]).fmt() == "–" and Spread([2.0, 4.0, 3.0]).rel_range() == pytest.approx(2 / 3)
    assert verdict({1: 1.5, 2: 1.2, 3: 1.01}) == "holds in 3/3 seeds"
    assert verdict({1: 1.5, 2: 0.9, 3: 1.0}) == "holds in 1/3: within seed spread"
    assert verdict([0.7, 0.99]) == "does not hold" and verdict({}) == "–"
    assert seeds_for_stable_verdict([1.2, 1.3, 1.1]) == 1
    assert seeds_for_stable_verdict([0.9, 1.2, 1.3, 1.1, 1.4]) == 3
    assert seeds_for_stable_verdict([1.2, 0.8, 0.9, 0.7, 0.95]) == 3


def test_micro_table_shows_every_figure_with_its_linux_ratio():
    # a constructed microbench RESULT line: each operation with a Linux 6.1
    # figure is a row with its ns and its KEY_vs_linux ratio
    bench = {"bench": "microbench", "preset": PRESET, "hz": 1000}
    for i, (_, key) in enumerate(br.MICRO_ROWS):
        bench[key] = 100.0 + i
        bench[key[:-3] + "_vs_linux"] = 0.25 + i / 1000
    for n in (1, 10, 100, 1000):
        bench[f"switch_{n}_ns"] = bench[f"tick_{n}_ns"] = 10.0 * n
    table = "\n".join(br.micro_tables(dict(cmdline="run=microbench", results={"microbench": bench})))
    keys = [key for _, key in br.MICRO_ROWS]
    assert "pipe_pingpong_ns" in keys and "timer_wake_late_ns" in keys
    for i, (name, key) in enumerate(br.MICRO_ROWS):
        assert f"| {name} | {br.fnum(100.0 + i)} | {0.25 + i / 1000:.3f} |" in table, key
    assert "| 1000 | 10000.0 | 10000.0 |" in table
    # a figure microbench could not measure (-1) and a missing ratio print as "–"
    bench["pipe_pingpong_ns"] = -1
    del bench["pipe_pingpong_vs_linux"]
    table = "\n".join(br.micro_tables(dict(cmdline="run=microbench", results={"microbench": bench})))
    name = next(n for n, k in br.MICRO_ROWS if k == "pipe_pingpong_ns")
    assert f"| {name} | – | – |" in table


def fake_run(preset, seed, max_us, avg_us, mode="thread", hz=1000):
    wl = dict(max_us=max_us, avg_us=avg_us, p99_us=max_us, p50_us=avg_us, p999_us=max_us,
              missed=0, samples=10, duration_s=1, period_us=10000)
    return dict(label=f"{preset} {seed}", kernel="granule", preset=preset, mode=mode,
                load="kbuild:10", hz=hz, seed=seed, bench="experiment", cmdline="x",
                results={"wakeup-latency": wl}, hist=[], bucket_us=100)


def test_verdict_table_is_computed_per_seed():
    runs = [fake_run("linux-2.6.35", s, m, 100) for s, m in ((1, 300), (2, 200), (3, 90))]
    runs += [fake_run("commit-0bf377bbb0be", s, m, 100) for s, m in ((1, 100), (2, 100), (3, 100))]
    table = "\n".join(br.verdict_table(runs))
    row = next(l for l in table.splitlines() if l.startswith("| 2.6.35's max is above"))
    assert "| 1000 | 3.00 2.00 0.90 | 2.00 [0.90–3.00] |" in row
    assert "holds in 2/3: within seed spread" in row
    assert "1.69 (0bf (Ingo))" in row       # 38278.9 / 22702.1, from tools/seeds.json
    assert "(max − min) / median of the maximum latency" in table


def test_fidelity_table_pairs_linux_with_granule_at_hz250():
    runs = [fake_run("linux-2.6.35", s, 200.0 * s, 100.0, hz=250) for s in (1, 2)]
    linux = [fake_run("linux-2.6.35", s, 100.0 * s, 50.0, hz=250) for s in (1, 2)]
    for r in linux:
        r["kernel"] = "linux-6.1"
    runs += linux + [fake_run("linux-2.6.35", 1, 999.0, 999.0, hz=1000)]   # not paired
    table = "\n".join(br.fidelity_table(runs))
    assert "| linux-2.6.35 | thread | 1 | 200.0 / 100.0 / 200.0 | 100.0 / 50.0 / 100.0 | " \
           "2.00 | 2.00 | 2.00 |" in table
    assert "| linux-2.6.35 | thread | 2 | 400.0 / 100.0 / 400.0 |" in table
    assert "999.0" not in table
    assert br.fidelity_table(runs[:2]) == []        # no Linux runs: no section


# ---- the traced runs of the headline presets (tools/granule/bench/trace.py) ----

TRACE_MATRIX = ["--presets", "no-start-debit", "--modes", "thread", "--loads", "kbuild:10",
                "--duration", "1", "--seeds", "1", "--no-micro", "--no-linux"]


def plan_jobs(tmp_path, *args):
    plan = tmp_path / f"plan{len(list(tmp_path.glob('plan*')))}.jsonl"
    bench(*args, "--plan", str(plan))
    return plan, [json.loads(line) for line in plan.read_text().splitlines()[1:]]


def test_traced_run_is_planned_run_and_reported(tmp_path):
    plan, jobs = plan_jobs(tmp_path, *TRACE_MATRIX)
    assert [j["bench"] for j in jobs] == ["experiment", "trace"]
    trace = jobs[1]
    assert trace["cmdline"] == ("trace_event=sched:*,timer:* trace_buf_size=4M sched_preset=no-start-debit "
                                "hz=250 run=experiment mode=thread load=kbuild:10 duration=1 hist=1")
    assert (trace["preset"], trace["hz"], trace["seed"]) == ("no-start-debit", 250, 1)
    # --quick, --no-trace and a matrix without thread mode plan none
    assert not [j for j in plan_jobs(tmp_path, "--quick", "--no-linux")[1] if j["bench"] == "trace"]
    assert [j["bench"] for j in plan_jobs(tmp_path, *TRACE_MATRIX, "--no-trace")[1]] == ["experiment"]
    assert not [j for j in plan_jobs(tmp_path, *MATRIX)[1] if j["bench"] == "trace"]

    out = tmp_path / "out"
    bench(*TRACE_MATRIX, "-j2", "--out", str(out))
    run = next(r for r in load_runs(out)["runs"] if r["bench"] == "trace")
    tr, wl = run["trace"], run["results"]["wakeup-latency"]
    # the 4 MiB buffer holds the whole run, so the trace's worst sample is the run's maximum
    assert tr["lost"] == 0 and tr["samples"] >= wl["samples"]
    w = tr["worst"]
    assert abs(w["latency"] / 1e3 - wl["max_us"]) <= 0.01 * wl["max_us"]
    assert w["ran"] and sum(r["run_ns"] for r in w["ran"]) <= w["latency"]
    report = (out / "REPORT.md").read_text()
    assert "## Why the worst sample waited (traced runs)" in report
    assert "![worst sample, no-start-debit](worst-no-start-debit.svg)" in report
    assert (out / "worst-no-start-debit.svg").stat().st_size > 1000
    for r in w["ran"]:
        assert f"| {r['task']} | {r['run_ns'] / 1e6:.3f} |" in report
    assert "Why: " + trace_worst.why(run) in report
    assert f"{w['thread']} waited {w['latency'] / 1e3:.1f} µs. The placement (fork: no debit)" in report
    assert run["cmdline"] in report          # the Runs table names the traced command line

    # the same job through --run-job and --collect gives the same report
    ids = bench("--job-ids", str(plan)).split()
    out2 = tmp_path / "out2"
    for job_id in ids:
        bench("--run-job", str(plan), "--job", job_id, "--out", str(out2))
    bench("--collect", str(out2), "--plan-file", str(plan))
    assert (out2 / "REPORT.md").read_text() == report


def traced_run(delta, lost=0, max_us=10000.0):
    ran = [dict(task="hog[6]", pid=6, run_ns=5_000_000, vrel_ns=-500_000),
           dict(task="hog[5]", pid=5, run_ns=3_000_000, vrel_ns=-1_000_000),
           dict(task="hog[7]", pid=7, run_ns=2_000_000, vrel_ns=+100_000)]
    worst = dict(index=3, expiry=10**9, start=10**9 + 10_000_000, latency=10_000_000,
                 thread="experiment[9]", pid=9, ran=ran, window=[],
                 placement=dict(ts=10**9, reason="initial", delta=delta,
                                vruntime=1000 + max(delta, 0), min_vruntime=1000))
    return dict(bench="trace", preset="x", results={"wakeup-latency": {"max_us": max_us}},
                trace=dict(events=100, lost=lost, samples=10, worst=worst))


def test_why_sentence_is_computed_from_the_attribution():
    text = trace_worst.why(traced_run(2_000_000))
    assert text == ("experiment[9] waited 10000.0 µs. The placement (fork: START_DEBIT vslice) put it "
                    "2.000 ms of vruntime right of min_vruntime. Before it first ran, 3 other tasks ran "
                    "for 10.000 ms in all, 2 of them with a vruntime left of its own (the longest: "
                    "hog[6], 5.000 ms). "
                    "The trace lost no event, and this is the run's maximum (RESULT: 10000.0 µs).")
    text = trace_worst.why(traced_run(0, lost=42, max_us=20000.0))
    assert "(fork: no debit) put it at min_vruntime" in text
    assert text.endswith("The buffer lost its 42 oldest events, so this is the worst sample the "
                         "trace holds; the run's own maximum was 20000.0 µs.")
    section = "\n".join(bench_trace.report([traced_run(0)]))
    assert "| hog[7] | 2.000 | +0.100 |" in section and "![worst sample, x](worst-x.svg)" in section


# ---- Granule beside Linux: the CDF pairs and the differences in words (tools/granule/bench/linux.py) ----


def hist_run(preset, seed, max_us, avg_us, mode="thread", hz=250, kernel="granule", hist=None):
    run = fake_run(preset, seed, max_us, avg_us, mode, hz)
    run.update(kernel=kernel, hist=hist or [(0, 5), (100, 5)])
    return run


def test_cdf_band_is_the_seeds_median_and_range():
    a = hist_run("linux-2.6.35", 1, 1, 1, hist=[(0, 5), (100, 5)])      # 10 samples
    b = hist_run("linux-2.6.35", 2, 1, 1, hist=[(100, 10)])
    assert bench_linux.cdf(a) == {100: 0.5, 200: 1.0}
    assert bench_linux.cdf_band([a, b]) == [(100, 0.25, 0.0, 0.5), (200, 1.0, 1.0, 1.0)]


def linux_matrix():
    runs = []
    for seed in (1, 2):
        runs += [hist_run("linux-2.6.35", seed, 2000.0, 1000.0),                      # HZ=250
                 hist_run("linux-2.6.35", seed, 1000.0, 900.0, hz=1000),
                 hist_run("linux-2.6.35", seed, 1000.0, 1000.0, kernel="linux-6.1"),
                 hist_run("linux-2.6.35", seed, 60.0, 6.0, mode="signal"),
                 hist_run("linux-2.6.35", seed, 40.0, 6.0, mode="signal", kernel="linux-6.1"),
                 hist_run("linux-6.12", seed, 3000.0, 800.0),
                 hist_run("linux-6.12", seed, 1000.0, 100.0, kernel="linux-6.12")]
    return runs


def test_differences_are_computed_from_the_runs():
    text = "\n".join(bench_linux.differences(linux_matrix()))
    assert "maximum at HZ=250 over HZ=1000: 2.00 (linux-2.6.35)." in text
    assert "Average ratio in signal mode: 1.00 (linux-2.6.35), within 10 % of 1 (from 1.00 to 1.00); " \
           "under -icount" in text
    assert "maximum ratio: 1.50 (linux-2.6.35)." in text
    assert "the thread-mode maximum ratio is 2.00 (linux-2.6.35), from 2.00 to 2.00, and the average " \
           "ratio 1.00 (linux-2.6.35), within 10 % of 1" in text
    assert "that code, not the knobs, is the difference." in text
    assert "thread-mode maximum ratio 3.00 (linux-6.12); average ratio 8.00 (linux-6.12)" in text
    assert "the two EEVDFs differ" in text and "\"The notification path's cost\" (below" in text
    assert "![CDF, Linux 6.1 thread](cdf-linux-thread.svg)" in text
    assert "![CDF, Linux 6.12 thread](cdf-linux-eevdf-thread.svg)" in text
    assert "cdf-linux-eevdf-signal" not in text       # no EEVDF pair in signal mode: no picture
    assert bench_linux.differences([r for r in linux_matrix() if r["kernel"] == "granule"]) == []
    table = "\n".join(br.fidelity_table(linux_matrix()))
    assert "### Where Granule and Linux differ, and why" in table
    assert "| linux-2.6.35 | linux-2.6.35 | thread | 2 | 2000.0 / 1000.0 / 2000.0 | " \
           "1000.0 / 1000.0 / 1000.0 |" in table


def test_linux_cdf_plot_pairs_each_preset(tmp_path):
    runs = linux_matrix()
    bench_linux.plot_cdfs(runs, str(tmp_path), str(tmp_path))
    for base in ("cdf-linux", "cdf-linux-eevdf"):
        assert (tmp_path / f"{base}-thread.svg").stat().st_size > 1000, base
    assert not (tmp_path / "cdf-linux-eevdf-signal.svg").exists()     # no EEVDF pair in signal mode
    svg = (tmp_path / "cdf-linux-thread.svg").read_text()
    for title in ("Granule linux-2.6.35", "linux-6.1 linux-2.6.35", "median of 2 seeds",
                  "beside Linux 6.1"):
        assert title in svg, title
    assert "Granule linux-6.12" not in svg
    svg = (tmp_path / "cdf-linux-eevdf-thread.svg").read_text()
    for title in ("Granule linux-6.12", "linux-6.12 linux-6.12", "beside Linux 6.12"):
        assert title in svg, title
    assert (tmp_path / "cdf-granule-linux-2.6.35-thread.dat").read_text().count("\n") == 2   # grid 100, 200


# ---- the variant rows (tools/granule/bench/variants.py) and what Linux did later (tools/granule/bench/eevdf.py) ----

VARIANT = "linux-6.12 slice_us=100"
VMATRIX = ["--presets", PRESET, "--variants", VARIANT, "--modes", "thread", "--loads", "kbuild:10",
           "--duration", "1", "--seeds", "1", "--no-micro", "--no-linux", "--no-trace"]


def test_variants_resolve_and_select():
    labels = [bv.label(v) for v in bv.VARIANTS]
    assert len(set(labels)) == len(labels) and all("," not in l for l in labels)
    assert labels == ["linux-6.12 sched_base_slice_ns=3000000", "linux-6.12 slice_us=100",
                      "linux-6.12 sched_features=NO_PLACE_LAG",
                      "linux-6.12 sched_features=NO_RUN_TO_PARITY"]
    assert bv.resolve(VARIANT) == ("linux-6.12", "slice_us=100")
    assert bv.resolve("no-start-debit") == ("no-start-debit", "")
    assert bv.select(None, ["commit-0bf377bbb0be"]) == []
    assert bv.select(None, ["linux-6.12"]) == bv.select("all", []) == bv.VARIANTS
    assert bv.select("none", ["linux-6.12"]) == []
    assert [bv.label(v) for v in bv.select(f"{VARIANT},{labels[0]}", [])] == labels[:2]   # VARIANTS order
    with pytest.raises(SystemExit, match="unknown variant 'linux-6.12 slice_us=5'"):
        bv.select("linux-6.12 slice_us=5", [])
    # a variant's words follow sched_preset=, before the experiment's; a swept knob comes last
    bench_tool = bench_cli
    assert bench_tool.cmdline(VARIANT, "signal", "kbuild:10", 2, seed=3, extra="j=4", hz=250) == \
        "sched_preset=linux-6.12 slice_us=100 hz=250 run=experiment mode=signal load=kbuild:10 " \
        "duration=2 seed=3 hist=1 j=4"


def test_variant_rows_are_planned(tmp_path):
    """The full matrix: each variant under kbuild:10 and kbuild:10,video, both modes, HZ 1000 and
    250, beside its base preset; nothing else changes."""
    _, jobs = plan_jobs(tmp_path, "--no-linux")
    configs = {}
    for j in jobs:
        if j["bench"] == "experiment":
            configs.setdefault((j["preset"], j["mode"], j["load"], j["hz"]), []).append(j)
    cells = [(m, load, hz) for m in ("thread", "signal") for load in ("kbuild:10", "kbuild:10,video")
             for hz in (1000, 250)]
    for v in bv.VARIANTS:
        mine = sorted(c[1:] for c in configs if c[0] == bv.label(v))
        assert mine == sorted(cells), bv.label(v)
        for cell in cells:
            assert (v.base,) + cell in configs       # the base beside it, in every cell
            assert [j["seed"] for j in configs[(bv.label(v),) + cell]] == [1, 2, 3, 4, 5]
    j = configs[("linux-6.12 sched_features=NO_PLACE_LAG", "signal", "kbuild:10,video", 250)][2]
    assert j["cmdline"] == ("sched_preset=linux-6.12 sched_features=NO_PLACE_LAG hz=250 run=experiment "
                            "mode=signal load=kbuild:10,video duration=15 seed=3 hist=1")
    assert j["label"] == "linux-6.12 sched_features=NO_PLACE_LAG signal kbuild:10,video HZ=250 seed=3"
    # the presets' own cells are the matrix's as before: 3 loads at 1000, kbuild:10 at 250
    presets = bench_cli.all_presets()
    for p in presets:
        have = sorted(c[1:] for c in configs if c[0] == p)
        want = [(m, load, 1000) for m in ("thread", "signal")
                for load in ("none", "kbuild:10", "kbuild:10,video")] + \
            [(m, "kbuild:10", 250) for m in ("thread", "signal")]
        if p == "linux-6.12":
            want += [(m, "kbuild:10,video", 250) for m in ("thread", "signal")]   # beside its variants
        assert have == sorted(want), p
    assert len(configs) == len(presets) * 8 + 2 + len(bv.VARIANTS) * 8
    # no variant under --quick, or when the base is not in the matrix, or with --variants none
    for args in (["--quick"], ["--presets", PRESET], ["--presets", "linux-6.12", "--variants", "none"]):
        assert not [j for j in plan_jobs(tmp_path, *args, "--no-linux")[1] if j["preset"] in bv.LABELS]


@pytest.mark.skipif(not lp.fetched(), reason="Debian's kernels not fetched (tools/linux-peer fetch)")
def test_variant_linux_twins_are_planned(tmp_path):
    _, jobs = plan_jobs(tmp_path, "--presets", "linux-6.12", "--modes", "thread", "--loads", "kbuild:10",
                        "--hz", "250", "--seeds", "1", "--linux", "--no-micro")
    linux = [j["preset"] for j in jobs if j["kernel"] == "linux-6.12"]
    assert linux == [p for p, c in lp.LINUX_PRESETS.items() if c[0] == "6.12"]
    assert {lp.GRANULE_TWIN[p] for p in linux} == {j["preset"] for j in jobs if j["kernel"] == "granule"}
    _, jobs = plan_jobs(tmp_path, "--presets", "linux-6.12", "--variants", "none", "--modes", "thread",
                        "--loads", "kbuild:10", "--seeds", "1", "--linux", "--no-micro")
    assert "linux-6.12-slice100us" not in [j["preset"] for j in jobs]     # its twin is not in the matrix


@pytest.fixture(scope="module")
def variant_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("variants")
    bench(*VMATRIX, "-j1", "--out", str(out))
    return out


def test_variant_row_is_the_guest_result(variant_out):
    runs = load_runs(variant_out)["runs"]
    assert [r["preset"] for r in runs] == [PRESET, "linux-6.12", VARIANT]
    var = next(r for r in runs if r["preset"] == VARIANT)
    assert var["cmdline"] == ("sched_preset=linux-6.12 slice_us=100 run=experiment mode=thread "
                              "load=kbuild:10 duration=1 hist=1")
    wl, base, cfs = (next(r for r in runs if r["preset"] == p)["results"]["wakeup-latency"]
                     for p in (VARIANT, "linux-6.12", PRESET))
    assert (wl["preset"], wl["sched_class"], wl["slice_us"], wl["samples"]) == ("linux-6.12", "eevdf", 100, 100)
    assert "slice_us" not in base and base["sched_class"] == "eevdf"
    report = (variant_out / "REPORT.md").read_text()
    figs = " | ".join(br.fnum(wl[k]) for k in ("max_us", "avg_us", "p99_us"))
    assert f"| {VARIANT} | kbuild:10 | 1000 | 1 | {figs} |" in report
    assert f"`{var['cmdline']}`" in report
    assert f"Produced by `tools/bench --presets {PRESET} --variants '{VARIANT}' --modes thread" in report
    # what Linux did later: the 2010 default's figure over the variant's, from the two RESULT lines
    ratios = {k: {1: cfs[key] / wl[key]} for k, key in bench_eevdf.KEYS}
    cells = " | ".join(bench_eevdf.ratio_text(r[1]) for r in ratios.values())
    assert f"| {VARIANT} | {PRESET} | Granule | thread | 1000 | {cells} | " \
           f"{bench_eevdf.words(ratios)} |" in report
    assert "## What Linux did later: EEVDF against the 2010 variants (kbuild:10)" in report
    assert f"| {VARIANT} | " in "\n".join(br.variants_tables(runs, ["tools/bench"]))


def test_variant_matrix_parallel_gives_the_same_bytes(variant_out, tmp_path):
    assert_j2_same_bytes(VMATRIX, variant_out, tmp_path)


def test_variant_plan_through_gnu_parallel(variant_out, tmp_path):
    jobs, out = through_parallel(VMATRIX, tmp_path)
    assert [j["preset"] for j in jobs] == [PRESET, "linux-6.12", VARIANT]
    assert (out / "REPORT.md").read_bytes() == (variant_out / "REPORT.md").read_bytes()


def test_words_count_the_seeds():
    assert bench_eevdf.words({"max": {1: 2.0, 2: 3.0}, "avg": {1: 2.0, 2: 0.5},
                              "p99": {1: 0.5, 2: 0.8}}) == \
        "max lower in 2/2 seeds; avg lower in 1/2, higher in 1/2: within seed spread; " \
        "p99 higher in 2/2 seeds"
    assert bench_eevdf.words({"max": {1: 2.0}, "avg": {1: 4.0}, "p99": {1: 1.0}}) == \
        "max and avg lower in 1/1 seeds; p99 the same in 1/1 seeds"
    assert bench_eevdf.direction({1: 2.0, 2: 0.5, 3: 3.0}) == "lower in 2/3: within seed spread"
    assert bench_eevdf.words({"max": {}}) == "–"
    assert [bench_eevdf.ratio_text(v) for v in (691.3, 47.46, 6.544, 0.62, 0.00142, 1000.0)] == \
        ["691", "47.5", "6.54", "0.620", "0.00142", "1000"]
    assert Spread([0.5, 0.25, 0.001]).fmt(bench_eevdf.ratio_text) == "0.250 [0.00100–0.500]"


def later_matrix():
    runs = []
    for seed in (1, 2):
        runs += [fake_run("commit-0bf377bbb0be", seed, 8000.0, 4000.0),
                 fake_run("no-start-debit", seed, 2000.0, 1000.0),
                 fake_run("linux-6.12", seed, 1000.0, 100.0 * seed),
                 fake_run(VARIANT, seed, 100.0, 10.0),
                 hist_run("commit-0bf377bbb0be", seed, 9000.0, 3000.0, kernel="linux-6.1"),
                 hist_run("linux-6.12-slice100us", seed, 300.0, 30.0, kernel="linux-6.12")]
    return runs


def test_later_table_is_computed_per_seed():
    text = "\n".join(bench_eevdf.table(later_matrix()))
    assert "| linux-6.12 | commit-0bf377bbb0be | Granule | thread | 1000 | 8.00 | 30.0 [20.0–40.0] | " \
           "8.00 | max, avg and p99 lower in 2/2 seeds |" in text
    assert "| linux-6.12 | no-start-debit | Granule | thread | 1000 | 2.00 | 7.50 [5.00–10.0] |" in text
    assert f"| {VARIANT} | commit-0bf377bbb0be | Granule | thread | 1000 | 80.0 | 400 | 80.0 |" in text
    # Linux: the 6.12 run named by its Granule twin, against 6.1; no 6.1 no-start-debit run, no row
    assert f"| {VARIANT} | commit-0bf377bbb0be | Linux | thread | 250 | 30.0 | 100 | 30.0 |" in text
    assert "| Linux | thread | 250 |" in text and "no-start-debit | Linux" not in text
    assert "signal" not in text.split("| in words |")[1]
    assert "- Granule, thread mode, HZ=1000: the lowest median maximum of these 4 configurations is " \
           f"{VARIANT}'s (100.0 µs), the lowest median average {VARIANT}'s (10.0 µs)." in text
    assert bench_eevdf.table([r for r in later_matrix() if r["preset"] != "linux-6.12"
                              and r["kernel"] != "linux-6.12" and VARIANT not in r["preset"]]) == []


def test_fidelity_table_pairs_variants_with_their_twins():
    runs = [hist_run(VARIANT, s, 20.0, 10.0) for s in (1, 2)]
    runs += [hist_run("linux-6.12-slice100us", s, 40.0, 20.0, kernel="linux-6.12") for s in (1, 2)]
    runs += [hist_run("linux-6.12", s, 400.0, 200.0) for s in (1, 2)]
    runs += [hist_run("linux-6.12", s, 400.0, 100.0, kernel="linux-6.12") for s in (1, 2)]
    runs += [hist_run("linux-6.12-slice3ms", 1, 900.0, 90.0, kernel="linux-6.12")]   # twin absent
    table = "\n".join(br.fidelity_table(runs))
    assert f"| linux-6.12-slice100us | {VARIANT} | thread | 2 | 20.0 / 10.0 / 20.0 | 40.0 / 20.0 / 40.0 | " \
           "0.50 | 0.50 | 0.50 |" in table
    without = table.split("## Linux runs without a Granule twin in the matrix")[1]
    assert "| linux-6.12 linux-6.12-slice3ms | thread | kbuild:10 | 1 | 900.0 |" in without
    assert "slice100us" not in without
    assert "`slice_us=100` multiplies the average by 0.05 on Granule and 0.20 on Linux, the maximum " \
           "by 0.05 and 0.10. Both figures move the same way on both kernels for 1 of the 1 " \
           "variants." in table


def test_quick_matrix_pairs_granule_with_linux(tmp_path):
    """make bench QUICK=1: every Linux run has its Granule twin at Linux's HZ in the
    same matrix, so the quick report has Granule/Linux pairs."""
    jobs = plan_jobs(tmp_path, "--quick")[1]
    linux = [j for j in jobs if j["kernel"].startswith("linux-")]
    granule = {(j["preset"], j["mode"], j["load"], j["hz"]) for j in jobs if j["kernel"] == "granule"}
    assert len(linux) == 6, [j["label"] for j in linux]
    for j in linux:
        assert (j["preset"], j["mode"], j["load"], br.LINUX_HZ) in granule, j["label"]

