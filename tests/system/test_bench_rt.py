"""tools/bench_rt.py on constructed runs and plans, without QEMU: the jobs' command
lines (Granule's quoting, Linux's measure in the environment), the tables' cells
against the RESULT objects they come from, the decade histogram, the -p 80 verdict,
the docs writer replacing its block instead of appending, and the bad-option lines."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
from granule.bench import rt


@pytest.fixture(autouse=True)
def no_image_hash(monkeypatch):
    monkeypatch.setattr(rt.bj, "image_hash", lambda kernel: "h-" + kernel)


def test_plan_cmdlines_and_environment():
    jobs = rt.plan(["commit-0bf377bbb0be", "dyn-gran"], ["kbuild:10"], 200, 50, True)
    by = {j["label"]: j for j in jobs}
    other = by["rt granule dyn-gran other kbuild:10"]
    assert other["cmdline"] == (
        "sched_preset=dyn-gran hz=250 run=\"experiment mode=signal load=kbuild:10 duration=3 measure=; "
        "experiment load=kbuild:10 duration=3 'measure=cyclictest -t1 -i 10000 -l 200 -h 20000 -q'\"")
    assert other["expect"] == ["wakeup-latency", "cyclictest"] and other["module"] == rt.MODULE
    fifo = by["rt linux-6.12 linux-6.12 fifo80 kbuild:10"]
    assert fifo["run"] == "experiment load=kbuild:10 duration=3"
    assert fifo["env"] == {"measure": "cyclictest -t1 -i 10000 -l 200 -h 20000 -q -p 80"}
    hb = by["rt linux-6.1 commit-0bf377bbb0be hackbench-processes none"]
    assert hb["env"] == {"measure": "hackbench -p -l 50"} and hb["memory"] == rt.HACKBENCH_MEMORY
    # hackbench only on its presets (dyn-gran is not one); ids in plan order
    assert not any(j["preset"] == "dyn-gran" and j["mode"].startswith("hackbench") for j in jobs)
    assert [j["id"] for j in jobs] == [f"{i:04d}" for i in range(1, len(jobs) + 1)]
    assert len(jobs) == 2 * 2 + 2 + 2 * (2 + 2)
    assert not any(j["kernel"] != "granule" for j in rt.plan(["linux-6.12"], ["kbuild:10"], 100, 10, False))


def test_duration_covers_the_samples():
    assert [rt.duration(n) for n in (1, 100, 101, 1000)] == [2, 2, 3, 11]


def ct(mn, avg, mx, over=0):
    return {"bench": "cyclictest", "min_us": mn, "avg_us": avg, "max_us": mx, "overflows": over,
            "samples": 200}


def run(kernel, preset, mode, load, results, hist=(), error=False):
    r = {"kernel": kernel, "preset": preset, "mode": mode, "load": load, "results": results,
         "hist": list(hist), "label": f"{kernel} {preset} {mode} {load}"}
    if error:
        r["error"] = "no RESULT"
    return r


RUNS = [
    run("granule", "linux-2.6.35", "other", "kbuild:10",
        {"wakeup-latency": {"max_us": 20.7, "avg_us": 3.8}, "cyclictest": ct(1, 2, 996)},
        [(1, 150), (2, 40), (15, 9), (996, 1)]),
    run("granule", "linux-2.6.35", "fifo80", "kbuild:10", {"cyclictest": ct(0, 1, 3)}, [(0, 50), (1, 147), (3, 3)]),
    run("granule", "linux-6.12", "fifo80", "kbuild:10", {"cyclictest": ct(0, 1, 150)}, [(150, 1)]),
    run("linux-6.1", "commit-0bf377bbb0be", "other", "kbuild:10", {}, error=True),
    run("linux-6.1", "commit-0bf377bbb0be", "fifo80", "kbuild:10", {"cyclictest": ct(3, 3, 25000, 2)},
        [(3, 198)]),
    run("granule", "commit-0bf377bbb0be", "hackbench-threads", "none",
        {"hackbench": {"time_s": 0.847, "ctxsw_per_s": 123456}}),
    run("linux-6.1", "commit-0bf377bbb0be", "hackbench-processes", "none",
        {"hackbench": {"time_s": 1.025, "ctxsw_per_s": 5750}}),
]


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_cyclictest_table_cells():
    rows = {tuple(cells(l)[:3]): cells(l) for l in rt.cyclictest_table(RUNS)[2:]}
    g = rows[("Granule", "linux-2.6.35", "kbuild:10")]
    assert g[3:] == ["20.7 / 3.8", "1 / 2 / 996", "0–9: 190, 10–99: 9, 100–999: 1", "0 / 1 / 3", "0–9: 200"]
    lx = rows[("Linux 6.1", "commit-0bf377bbb0be", "kbuild:10")]
    assert lx[3:] == ["–", "–", "–", "3 / 3 / 25000", "0–9: 198, 2 over"]     # the failed run: dashes
    assert ("Granule", "commit-0bf377bbb0be", "kbuild:10") not in rows        # hackbench only


def test_hackbench_table_cells():
    lines = rt.hackbench_table(RUNS)
    assert "`hackbench -p -T -l N` s" in lines[0] and "`hackbench -p -l N` s" in lines[0]
    rows = {tuple(cells(l)[:2]): cells(l)[2:] for l in lines[2:]}
    assert rows[("Granule", "commit-0bf377bbb0be")] == ["0.847", "123,456", "–", "–"]
    assert rows[("Linux 6.1", "commit-0bf377bbb0be")] == ["–", "–", "1.025", "5,750"]
    assert len(rows) == 2


def test_fifo_verdict_counts_cfs_presets_only():
    [line] = rt.fifo_verdict(RUNS)      # linux-6.12's 150 µs is EEVDF's: not in the CFS bound
    assert "over Granule's 1 CFS runs is 3 µs" in line and "holds" in line
    bad = RUNS + [run("granule", "dyn-gran", "fifo80", "kbuild:10,video", {"cyclictest": ct(0, 1, 120)})]
    assert "does NOT hold" in rt.fifo_verdict(bad)[0]
    assert rt.fifo_verdict(RUNS[3:]) == []


def test_report_names_command_commit_and_failures():
    lines = rt.report(RUNS, ["tools/bench_rt.py", "--loops", "200"], "abc123def456", 200, 100)
    text = "\n".join(lines)
    assert "Produced by `tools/bench_rt.py --loops 200`" in text and "`abc123def456`" in text
    assert "`cyclictest -t1 -i 10000 -l 200 -h 20000 -q` (200 wakeups of 10 ms)" in text
    assert lines[-1] == "Runs without a result (1): linux-6.1 commit-0bf377bbb0be other kbuild:10"


def test_splice_replaces_its_block():
    once = rt.splice("intro\n", rt.BEGIN, rt.END, "body 1")
    assert once == f"intro\n\n{rt.BEGIN}\nbody 1\n{rt.END}\n"
    twice = rt.splice(once + "after\n", rt.BEGIN, rt.END, "body 2")
    assert twice == f"intro\n\n{rt.BEGIN}\nbody 2\n{rt.END}\nafter\n"


def test_shown_args_drop_what_does_not_change_a_figure():
    assert rt.shown_args(["-j", "2", "--loops", "200", "--out", "/x", "--docs", "-j3"]) == ["--loops", "200"]


@pytest.mark.parametrize("tool, args, line", [
    ("bench_rt", ["--presets", "nosuch"], "bench_rt: --presets: unknown nosuch (one of linux-2.6.35,"),
    ("bench_rt", ["--loops", "0"], "bench_rt: --loops 0 --hackbench-loops 100: expected 1..100000 each"),
    ("bench_rt", ["--report-only", "--out", "/nonexistent-bench-rt"],
     "bench_rt: --report-only: no /nonexistent-bench-rt/command.json (nothing measured into"),
    # tools/bench_rtapp.py shares the options and the runner (tests/system/test_bench_rtapp.py)
    ("bench_rtapp", ["--presets", "nosuch"], "bench_rtapp: --presets: unknown nosuch (one of linux-2.6.35,"),
    ("bench_rtapp", ["--workloads", "nosuch.json"], "bench_rtapp: --workloads: unknown nosuch.json (one of "),
    ("bench_rtapp", ["--report-only", "--out", "/nonexistent-bench-rtapp"],
     "bench_rtapp: --report-only: no /nonexistent-bench-rtapp/command.json (nothing measured into"),
])
def test_bad_options_one_line(tool, args, line):
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", f"{tool}.py")] + args,
                       capture_output=True, text=True, check=False)
    assert p.returncode != 0 and p.stderr.strip().startswith(line) and p.stderr.count("\n") == 1, p.stderr


def test_missing_module_is_named(monkeypatch):
    monkeypatch.setattr(rt, "MODULE", "build/no-such/rt-tests.tar")
    with pytest.raises(SystemExit, match=r"bench_rt: no build/no-such/rt-tests.tar: run `make deps`"):
        rt.main(["--quick"])


def test_write_docs_replaces_both_blocks(tmp_path, monkeypatch):
    """RESULTS.md gets the section (appended the first time, replaced after), FASTPATHS.md the
    hackbench table between its markers, and docs/results/rttests.md the very block that
    tools/bench --docs appends when it rewrites RESULTS.md."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "RESULTS.md").write_text("# Results\n\nthe bench's text\n")
    (docs / "FASTPATHS.md").write_text(f"# hackbench\n\n{rt.HB_BEGIN}\nold\n{rt.HB_END}\nafter\n")
    monkeypatch.setattr(rt, "ROOT", str(tmp_path))
    for _ in range(2):
        rt.write_docs(rt.report(RUNS, ["tools/bench_rt.py"], "abc", 200, 100), RUNS)
    results = (docs / "RESULTS.md").read_text()
    assert results.count(rt.BEGIN) == 1 and results.count(rt.END) == 1
    assert results == "# Results\n\nthe bench's text\n\n" + (docs / "results" / "rttests.md").read_text()
    fast = (docs / "FASTPATHS.md").read_text()
    assert fast == (f"# hackbench\n\n{rt.HB_BEGIN}\n" + "\n".join(rt.hackbench_table(RUNS))
                    + f"\n{rt.HB_END}\nafter\n")


def committed_rows():
    """docs/results/rttests.md's cyclictest rows: (kernel, preset, load, other
    [min, avg, max], other histogram, fifo [min, avg, max])."""
    rows = []
    for line in open(os.path.join(ROOT, "docs", "results", "rttests.md")):
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) == 8 and c[0] in ("Granule", "Linux 6.1", "Linux 6.12"):
            rows.append((c[0], c[1], c[2], [int(x) for x in c[4].split(" / ")], c[5],
                         [int(x) for x in c[6].split(" / ")]))
    return rows


def over(hist, lower_us):
    """Samples of a decade histogram cell ("0–9: 199, 1000–9999: 1") at or above LOWER_US."""
    return sum(int(n) for rng, n in (p.split(": ") for p in hist.split(", "))
               if int(rng.split("–")[0]) >= lower_us)


def test_experiment_doc_states_the_committed_table():
    """docs/EXPERIMENT.md's reading of the committed cyclictest run is the table's."""
    doc = " ".join(open(os.path.join(ROOT, "docs", "EXPERIMENT.md")).read().split())
    rows = committed_rows()
    cfs = [r for r in rows if r[0] == "Granule" and r[1] != "linux-6.12"]
    assert cfs, "no Granule CFS rows in docs/results/rttests.md"
    assert f"at most {max(r[5][2] for r in cfs)} µs over the {len(cfs)} CFS runs" in doc
    quiet = sum(1 for r in cfs if r[3][2] < 10)
    assert f"stay under 10 µs in {quiet} of the {len(cfs)} CFS runs" in doc
    eevdf = {k: [over(r[4], 100) for r in rows if r[0] == k and r[1] == "linux-6.12"]
             for k in ("Granule", "Linux 6.12")}
    assert (f"{eevdf['Granule'][0]} and {eevdf['Granule'][1]} of 200 on Granule, "
            f"{eevdf['Linux 6.12'][0]} and {eevdf['Linux 6.12'][1]} on Linux") in doc
