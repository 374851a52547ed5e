"""tools/bench and tools/bench_report.py: the matrix runner and its report.

One tiny matrix (one preset, signal mode, kbuild:10, 1 s, no microbench) runs
under QEMU -icount; the tests check that what the report prints is what the
guest's RESULT line said, that rebuilding the report from runs.json gives the
same bytes, and that the docs writer replaces (not appends) the VARIANTS.md
table block between its markers.
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

PRESET = "commit-0bf377bbb0be"


@pytest.fixture(scope="module")
def bench_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    p = subprocess.run([os.path.join(TOOLS, "bench"), "--presets", PRESET, "--modes", "signal",
                        "--loads", "kbuild:10", "--duration", "1", "--no-micro", "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return out


def load_runs(out):
    with open(out / "runs.json") as f:
        return json.load(f)


def test_report_rows_come_from_the_runs(bench_out):
    saved = load_runs(bench_out)
    assert saved["micro"] is None and len(saved["runs"]) == 1
    run = saved["runs"][0]
    assert run["cmdline"] == f"sched_preset={PRESET} run=experiment mode=signal load=kbuild:10 duration=1 hist=1"
    wl = run["results"]["wakeup-latency"]
    assert (wl["preset"], wl["mode"], wl["samples"], wl["missed"]) == (PRESET, "signal", 100, 0)
    assert sum(n for _, n in run["hist"]) == wl["samples"]
    report = (bench_out / "REPORT.md").read_text()
    row = (f"| {PRESET} | kbuild:10 | 1000 | {br.fnum(wl['max_us'])} | {br.fnum(wl['avg_us'])} | "
           f"{br.fnum(wl['p50_us'])} | {br.fnum(wl['p99_us'])} |")
    assert row in report
    # The seeds' signal-mode rows are printed beside ours, from tools/seeds.json.
    assert "| M1/2 | 2.6.35-era without patch | linux-2.6.35 | YouTube + make -j10 | 8608.3 | 101.3 | 0 |" in report
    for plot in ("cdf-signal", "hist-signal", "max-avg", "throughput-vs-latency"):
        assert (bench_out / f"{plot}.svg").stat().st_size > 1000, plot


def test_report_only_rebuilds_the_same_report(bench_out, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(bench_out / "runs.json", copy / "runs.json")
    p = subprocess.run([os.path.join(TOOLS, "bench"), "--report-only", "--out", str(copy)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (copy / "REPORT.md").read_text() == (bench_out / "REPORT.md").read_text()


def test_docs_block_is_replaced_not_appended(bench_out, tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(os.path.join(br.ROOT, "docs", "VARIANTS.md"), docs / "VARIANTS.md")
    monkeypatch.setattr(br, "ROOT", str(tmp_path))
    saved = load_runs(bench_out)
    for _ in range(2):
        br.write_docs(saved["runs"], None, saved["argv"], str(bench_out))
    v = (docs / "VARIANTS.md").read_text()
    assert v.count(br.BEGIN) == 1 and v.count(br.END) == 1
    block = v[v.index(br.BEGIN):v.index(br.END)]
    assert block.count(f"| {PRESET} | ") == 1
    wl = saved["runs"][0]["results"]["wakeup-latency"]
    assert f"{br.fnum(wl['max_us'])} / {br.fnum(wl['avg_us'])} ({wl['missed']})" in block
    text = (docs / "RESULTS.md").read_text()
    assert "generated" in text and "](results/cdf-signal.svg)" in text
    assert (docs / "results" / "cdf-signal.svg").exists()


def test_fnum_marks_missing_figures():
    assert br.fnum(None) == br.fnum(-1) == br.fnum("") == "–"
    assert br.fnum(12.345) == "12.3" and br.fnum(">100000") == ">100000"


def test_docs_writer_refuses_without_markers(bench_out, tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    text = "# Variants\n\nno markers here\n" + br.END + "\n" + br.BEGIN + " -->\n"   # END before BEGIN
    (docs / "VARIANTS.md").write_text(text)
    monkeypatch.setattr(br, "ROOT", str(tmp_path))
    saved = load_runs(bench_out)
    br.write_docs(saved["runs"], None, saved["argv"], str(bench_out))
    assert (docs / "VARIANTS.md").read_text() == text
