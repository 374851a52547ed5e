"""tools/bench, bench_jobs.py, bench_stats.py and bench_report.py: the matrix and its report.

One tiny matrix (one preset, signal mode, kbuild:10, 1 s, two load seeds, no
microbench, no Linux runs) runs under QEMU -icount three ways: tools/bench -j1,
tools/bench -j2, and a plan file run by GNU parallel -j2 then --collect.  The
tests check that the three give the same bytes, that the report prints what
the guest's RESULT lines said (median [min-max] over the seeds), that
--report-only rebuilds the same report, and that the docs writer replaces (not
appends) the VARIANTS.md block.  The seed statistics and the verdicts are
checked on constructed runs, where the right answer is known.
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "tools")
sys.path.insert(0, TOOLS)
import bench_report as br  # noqa: E402
from bench_stats import Spread, seeds_for_stable_verdict, verdict  # noqa: E402

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
    assert json.loads((bench_out / "timing.json").read_text())["parallel"] == 1


def test_parallel_gives_the_same_bytes(bench_out, tmp_path):
    bench(*MATRIX, "-j", "2", "--out", str(tmp_path))
    for name in ("REPORT.md", "runs.json"):
        assert (tmp_path / name).read_bytes() == (bench_out / name).read_bytes(), name


def test_plan_through_gnu_parallel_then_collect(bench_out, tmp_path):
    plan = tmp_path / "plan.jsonl"
    bench(*MATRIX, "--plan", str(plan))
    jobs = [json.loads(line) for line in plan.read_text().splitlines()[1:]]
    assert [j["id"] for j in jobs] == ["0001", "0002"]
    assert all(len(j["image"]) == 64 and j["cmdline"] for j in jobs)
    ids = bench("--job-ids", str(plan)).split()
    out = tmp_path / "out"
    p = subprocess.run(["parallel", "-j2", os.path.join(TOOLS, "bench"), "--run-job", str(plan),
                        "--job", "{}", "--out", str(out), ":::", *ids],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    bench("--collect", str(out), "--plan-file", str(plan))
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


# ---- the traced runs of the headline presets (tools/bench_trace.py) ----

import bench_trace  # noqa: E402

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
    assert "Why: " + bench_trace.why(run) in report
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
    text = bench_trace.why(traced_run(2_000_000))
    assert text == ("experiment[9] waited 10000.0 µs. The placement (fork: START_DEBIT vslice) put it "
                    "2.000 ms of vruntime right of min_vruntime. Before it first ran, 3 other tasks ran "
                    "for 10.000 ms in all, 2 of them with a vruntime left of its own (the longest: "
                    "hog[6], 5.000 ms). "
                    "The trace lost no event, and this is the run's maximum (RESULT: 10000.0 µs).")
    text = bench_trace.why(traced_run(0, lost=42, max_us=20000.0))
    assert "(fork: no debit) put it at min_vruntime" in text
    assert text.endswith("The buffer lost its 42 oldest events, so this is the worst sample the "
                         "trace holds; the run's own maximum was 20000.0 µs.")
    section = "\n".join(bench_trace.report([traced_run(0)]))
    assert "| hog[7] | 2.000 | +0.100 |" in section and "![worst sample, x](worst-x.svg)" in section


# ---- Granule beside Linux: the CDF pairs and the differences in words (tools/bench_linux.py) ----

import bench_linux  # noqa: E402


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
    assert "thread-mode maximum ratio 3.00, average ratio 8.00" in text and "the two EEVDFs differ" in text
    assert bench_linux.differences([r for r in linux_matrix() if r["kernel"] == "granule"]) == []
    table = "\n".join(br.fidelity_table(linux_matrix()))
    assert "### Where Granule and Linux differ, and why" in table
    assert "| linux-2.6.35 | thread | 2 | 2000.0 / 1000.0 / 2000.0 | 1000.0 / 1000.0 / 1000.0 |" in table


def test_linux_cdf_plot_pairs_each_preset(tmp_path):
    runs = linux_matrix()
    bench_linux.plot_cdfs(runs, str(tmp_path), str(tmp_path))
    for mode in ("thread", "signal"):
        assert (tmp_path / f"cdf-linux-{mode}.svg").stat().st_size > 1000
    svg = (tmp_path / "cdf-linux-thread.svg").read_text()
    for title in ("Granule linux-2.6.35", "linux-6.1 linux-2.6.35", "Granule linux-6.12",
                  "linux-6.12 linux-6.12", "median of 2 seeds"):
        assert title in svg, title
    assert (tmp_path / "cdf-granule-linux-2.6.35-thread.dat").read_text().count("\n") == 2   # grid 100, 200
