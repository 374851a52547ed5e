"""tools/bench_rtapp.py: the jobs' command lines, the figures per task from a hand-made run's logs
(tests/system/bench-rtapp/: pair.json and its output pair.out, figures checkable by eye), the JSON
lines, the tables, the plot, the docs writer replacing only its block, a run missing a log counted
as failed, and one real QEMU run of the smallest workload through the bench's own code path (plan,
run_job, results).  Its bad-option lines are checked in test_bench_rt.py, beside bench_rt's."""
import os

import pytest

from granule import qemu as gq
from granule.bench import jobs as bj
from granule.bench import rt
from granule.bench import rtapp as br

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-rtapp")
OUTPUT = open(os.path.join(DATA, "pair.out"), encoding="utf-8").read()


def fixture_run(kernel="granule", preset="linux-2.6.35", error=False):
    r = br.job(kernel, preset, "pair.json", br.rtapp.load(os.path.join(DATA, "pair.json")))
    r.update(logs=br.rtapp.split_logs(OUTPUT), results={}, hist=[])
    if error:
        r["error"] = "no logs"
    return r


RUNS = [fixture_run(), fixture_run("linux-6.12", "linux-6.12"), fixture_run(preset="dyn-gran", error=True)]


def test_plan_cmdlines(monkeypatch):
    monkeypatch.setattr(br.bj, "image_hash", lambda kernel: "h-" + kernel)
    jobs = br.plan(["linux-2.6.35"], ["pair.json"], True, DATA)
    assert [j["label"] for j in jobs] == ["rtapp granule linux-2.6.35 pair.json",
                                          "rtapp linux-6.1 commit-0bf377bbb0be pair.json",
                                          "rtapp linux-6.12 linux-6.12 pair.json"]
    assert jobs[0]["cmdline"] == ('sched_preset=linux-2.6.35 hz=250 '
                                  'run="sh /usr/share/granule/rt-app-logs workloads/pair.json"')
    assert jobs[2]["run"] == "/bin/busybox sh /usr/share/granule/rt-app-logs workloads/pair.json"
    assert all(j["threads"] == 3 and j["module"] == br.MODULE and j["bench"] == "rtapp" for j in jobs)
    assert [j["id"] for j in jobs] == ["0001", "0002", "0003"]
    assert len(br.plan(["linux-2.6.35", "linux-6.12"], ["pair.json"], False, DATA)) == 2


def test_percentile_is_nearest_rank():
    ten = list(range(10, 0, -1))
    assert [br.percentile(ten, p) for p in (50, 90, 99, 100)] == [5, 9, 10, 10]
    assert br.percentile([7], 50) == 7 and br.percentile([3, 1], 50) == 1


def test_figures_per_task_pool_the_instances():
    """tick's two logs: wu_lat 1..5 and 6, 7, 8, 9, 0 (an overrun), slack 100..60 and 50..20, -10."""
    res = br.results(RUNS, DATA)
    assert len(res) == 4        # two tasks on each good run; the failed run has none
    tick = res[0]
    assert tick == {"bench": "rt-app", "kernel": "granule", "preset": "linux-2.6.35", "hz": 250,
                    "workload": "pair.json", "task": "tick", "threads": 2, "periods": 10,
                    "timed_periods": 10, "wu_lat_p50_us": 4, "wu_lat_p90_us": 8, "wu_lat_p99_us": 9,
                    "wu_lat_max_us": 9, "wu_lat_mean_us": 4.5, "slack_min_us": -10, "slack_mean_us": 53.0}
    assert res[1] == {"bench": "rt-app", "kernel": "granule", "preset": "linux-2.6.35", "hz": 250,
                      "workload": "pair.json", "task": "hog", "threads": 1, "periods": 3}


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_table_and_report():
    res = br.results(RUNS, DATA)
    rows = [cells(line) for line in br.table("pair.json", res, br.configurations(RUNS))[2:]]
    assert rows == [["tick", "Granule", "linux-2.6.35", "10 (2 threads)", "4", "8", "9", "9", "4.5", "-10", "53"],
                    ["tick", "Linux 6.12", "linux-6.12", "10 (2 threads)", "4", "8", "9", "9", "4.5", "-10", "53"],
                    ["hog", "Granule", "linux-2.6.35", "3", "–", "–", "–", "–", "–", "–", "–"],
                    ["hog", "Linux 6.12", "linux-6.12", "3", "–", "–", "–", "–", "–", "–", "–"]]
    lines = br.report(RUNS, ["tools/bench_rtapp.py", "--quick"], "abc123", res, [("pair.json", "tick")],
                      "results/")
    text = "\n".join(lines)
    assert "Produced by `tools/bench_rtapp.py --quick`" in text and "`abc123`" in text
    assert "on Granule and Linux 6.12," in text and "### `pair.json`" in text
    assert "![wu_lat over time, pair.json tick](results/rtapp-pair-tick.svg)" in text
    assert lines[-1] == "Runs without a result (1): rtapp granule dyn-gran pair.json"


def test_plot_has_a_panel_per_configuration(tmp_path):
    assert br.plot(RUNS, "pair.json", "tick", str(tmp_path), DATA)
    svg = (tmp_path / "rtapp-pair-tick.svg").read_text()
    assert "Granule linux-2.6.35" in svg and "Linux 6.12 linux-6.12" in svg and "dyn-gran" not in svg
    data = (tmp_path / "data" / "rtapp-pair-tick-Granule_linux-2.6.35.dat").read_text().split("\n")
    assert data[0] == "0.000000 1" and data[9] == "0.090000 1" and data[5] == "0.050000 6"   # 0 drawn at 1
    assert not br.plot(RUNS, "pair.json", "nosuch", str(tmp_path), DATA)


def test_write_docs_replaces_only_its_block(tmp_path, monkeypatch):
    """The first time after the RTTESTS block, then in place; docs/results/rtapp.md is the very
    block that tools/bench --docs appends."""
    docs = tmp_path / "docs"
    docs.mkdir()
    before = f"# Results\n\n{rt.BEGIN}\nrt\n{rt.END}\n\n<!-- SOAK -->\nsoak\n<!-- /SOAK -->\n"
    (docs / "RESULTS.md").write_text(before)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "rtapp-pair-tick.svg").write_text("<svg/>")
    monkeypatch.setattr(br, "ROOT", str(tmp_path))
    for body in (["first"], ["second", "table"]):
        br.write_docs(body, str(tmp_path / "out"), [("pair.json", "tick")])
    block = (docs / "results" / "rtapp.md").read_text()
    assert block == f"{br.BEGIN}\nsecond\ntable\n{br.END}\n"
    assert (docs / "RESULTS.md").read_text() == before.replace(f"{rt.END}\n", f"{rt.END}\n\n{block}", 1)
    assert (docs / "results" / "rtapp-pair-tick.svg").read_text() == "<svg/>"


def test_committed_section_is_the_kept_block():
    """docs/RESULTS.md holds docs/results/rtapp.md's block as it stands (tools/bench --docs keeps it)."""
    block = open(os.path.join(ROOT, "docs", "results", "rtapp.md"), encoding="utf-8").read()
    assert block.startswith(br.BEGIN) and block in open(os.path.join(ROOT, "docs", "RESULTS.md"),
                                                        encoding="utf-8").read()
    for w, task in br.PLOTS:
        assert f"(results/{br.plot_name(w, task)}.svg)" in block
        assert os.path.exists(os.path.join(ROOT, "docs", "results", br.plot_name(w, task) + ".svg"))


def test_a_missing_log_fails_the_run(monkeypatch):
    """run_job keeps every log of the output; fewer logs than threads, or a non-zero status, is an error."""
    j = fixture_run()
    j.pop("logs")

    def fake(status, text):
        return lambda cmdline, **kw: gq.Run(cmdline, (status << 1) | 1, text)
    monkeypatch.setattr(bj.gq, "run", fake(0, OUTPUT))
    good, _ = bj.run_job(j, check_image=False)
    assert "error" not in good and sorted(good["logs"]) == ["/tmp/pair-hog-2.log", "/tmp/pair-tick-0.log",
                                                            "/tmp/pair-tick-1.log"]
    assert bj.summary(good) == "3 logs, 13 periods"
    monkeypatch.setattr(bj.gq, "run", fake(0, OUTPUT.split("==> /tmp/pair-hog-2.log")[0]))
    assert "error" in bj.run_job(j, check_image=False)[0]
    monkeypatch.setattr(bj.gq, "run", fake(2, OUTPUT))
    assert "error" in bj.run_job(j, check_image=False)[0]


@pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, br.MODULE)), reason="no build/rt-app (make deps)")
def test_one_real_run():
    """producer-consumer.json on linux-2.6.35 under QEMU (about 7 s): both logs, 99 periods each
    (1 s of 10-ms periods; the last ends after the duration), and the producer woken within
    microseconds, as docs/RTAPP.md reads it."""
    [j] = br.plan(["linux-2.6.35"], ["producer-consumer.json"], False)
    run, _ = bj.run_job(j, timeout=120)
    assert "error" not in run, run.get("error")
    res = {r["task"]: r for r in br.results([run])}
    assert res["producer"]["periods"] == res["consumer"]["periods"] == 99
    assert 0 <= res["producer"]["wu_lat_p50_us"] <= res["producer"]["wu_lat_max_us"] < 20
    assert res["producer"]["slack_min_us"] > 0 and "wu_lat_max_us" not in res["consumer"]
