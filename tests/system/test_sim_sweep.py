"""tools/sim sweep (tools/granule/sim/sweep.py, sweep_plot.py): a grid of simulated experiments.

Most tests run the sweep on a stub engine (SIM_ENGINE=tests/system/sim_stub_engine):
fast, deterministic, and its figures are functions of the knobs it was given, so
each CSV row can be checked against its own configuration.  Properties checked:
the CSV has N*M rows in grid order with the grid's knob values (linear and log)
and each row's own figures; the heatmaps (two knobs) and line plots (one knob) are
valid SVG and PNG with the 2010 and 2.6.36 settings marked; work_frac is left out
without a kbuild load; the experiment gets the preset first and the swept knobs
last; bad input, an engine's refusal and an engine crash each give one line.  The
last test runs a 3x2 grid on the real engine (tools/sim builds it).
"""
import csv
import json
import os
import re
import shlex
import struct
import subprocess
import xml.etree.ElementTree as ET

import pytest

from granule.sim import sweep as sim_sweep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "tools", "sim")
STUB = os.path.join(ROOT, "tests", "system", "sim_stub_engine")
FIGURES = ["max_us", "avg_us", "p99_us", "work_frac", "samples"]
PICTURES = ["max_us", "avg_us", "p99_us", "work_frac"]


def sweep(*args, engine=STUB, env=None, timeout=300):
    e = dict(os.environ, **(env or {}))
    if engine:
        e["SIM_ENGINE"] = engine
    return subprocess.run([SIM, "sweep", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=e)


def read_csv(out):
    with open(os.path.join(out, "sweep.csv"), newline="") as f:
        return list(csv.reader(f))


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    return struct.unpack(">II", head[16:24])


def svg_root(path):
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", (path, root.tag)
    return open(path).read()


def test_help():
    r = sweep("--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: tools/sim sweep KNOB=LO..HI:N")


def test_grid_rows_and_figures(tmp_path):
    out = str(tmp_path / "o")
    r = sweep("sched_min_granularity_ns=0.5ms..2ms:4", "sched_latency_ns=6ms..12ms:3",
              "--preset", "linux-2.6.35", "-j", "3", "--out", out)
    assert r.returncode == 0, r.stderr
    rows = read_csv(out)
    assert rows[0] == ["sched_min_granularity_ns", "sched_latency_ns"] + FIGURES
    assert len(rows) == 1 + 4 * 3
    grans = [500000, 1000000, 1500000, 2000000]
    lats = [6000000, 9000000, 12000000]
    assert [(int(a), int(b)) for a, b, *_ in rows[1:]] == [(g, l) for g in grans for l in lats]
    for gran, lat, mx, avg, p99, wf, n in rows[1:]:
        # the stub's figures: avg = min_gran/1000, p99 = latency/1000 (this row's own run)
        assert float(avg) == int(gran) / 1000 and float(p99) == int(lat) / 1000
        assert float(mx) == float(avg) + float(p99) and int(n) == 1000
        assert float(wf) == pytest.approx(0.5 + int(gran) / 1e9)
    assert "12 experiments" in r.stdout


def test_log_spacing(tmp_path):
    out = str(tmp_path / "o")
    r = sweep("sched_base_slice_ns=0.5ms..4ms:4:log", "--preset", "linux-6.12", "--out", out)
    assert r.returncode == 0, r.stderr
    assert [int(row[0]) for row in read_csv(out)[1:]] == [500000, 1000000, 2000000, 4000000]


def test_heatmaps_valid_and_marked(tmp_path):
    out = str(tmp_path / "o")
    r = sweep("sched_min_granularity_ns=0.25ms..2ms:8", "sched_latency_ns=2ms..8ms:4",
              "--load", "kbuild:10", "--out", out)
    assert r.returncode == 0, r.stderr
    for name in PICTURES:
        text = svg_root(os.path.join(out, name + ".svg"))
        assert "<image" in text                     # gnuplot's "with image": a heatmap
        assert "2010: linux-2.6.35" in text and "2.6.36" in text
        w, h = png_size(os.path.join(out, name + ".png"))
        assert w > 400 and h > 300


def test_line_plots_without_work_frac(tmp_path):
    out = str(tmp_path / "o")
    r = sweep("sched_min_granularity_ns=0.25ms..4ms:16", "--load", "none", "--out", out)
    assert r.returncode == 0, r.stderr
    rows = read_csv(out)
    assert len(rows) == 17 and all(row[4] == "" for row in rows[1:])   # no kbuild: no work_frac
    for name in PICTURES[:3]:
        text = svg_root(os.path.join(out, name + ".svg"))
        assert "<image" not in text and "2010: linux-2.6.35" in text and "2.6.36" in text
        png_size(os.path.join(out, name + ".png"))
    assert not os.path.exists(os.path.join(out, "work_frac.svg"))


def test_eevdf_default_marked(tmp_path):
    out = str(tmp_path / "o")
    r = sweep("sched_base_slice_ns=0.1ms..1ms:10", "--preset", "linux-6.12", "--out", out)
    assert r.returncode == 0, r.stderr
    text = svg_root(os.path.join(out, "max_us.svg"))
    assert "linux-6.12" in text and "2010: linux-2.6.35" not in text


def test_experiment_argv_order(tmp_path):
    """The preset first (a knob after it overrides it), the options, the fixed knobs, the swept knob."""
    out = str(tmp_path / "o")
    r = sweep("--mode", "signal", "sched_wakeup_granularity_ns=500000", "sched_latency_ns=4ms..8ms:2",
              "--preset", "linux-2.6.35", "--seed", "7", "--out", out)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(out, "sweep.jsonl")) as f:
        lines = [json.loads(line) for line in f]
    assert [line["knobs"] for line in lines] == [{"sched_latency_ns": 4000000}, {"sched_latency_ns": 8000000}]
    assert lines[0]["argv"] == ["--preset", "linux-2.6.35", "--mode", "signal", "--seed", "7",
                                "sched_wakeup_granularity_ns=500000", "sched_latency_ns=4000000"]
    assert lines[0]["seed"] == 7 and lines[0]["mode"] == "signal"


@pytest.mark.parametrize("args,needle", [
    ([], "no KNOB=LO..HI:N to sweep"),
    (["sched_latency_ns=1..2"], "expected KNOB=LO..HI:N"),
    (["sched_latency_ns=1ms..2ms:4:lin"], "expected KNOB=LO..HI:N"),
    (["sched_latency_ns=..2ms:4"], "expected KNOB=LO..HI:N"),
    (["sched_latency_ns=x..2ms:4"], "'x' is not a number"),
    (["sched_latency_ns=1ms..2ms:1"], "N=1: expected a number of points 2..1000"),
    (["sched_latency_ns=1ms..2ms:x"], "N=x: expected a number of points"),
    (["sched_latency_ns=2ms..1ms:4"], "LO must be below HI"),
    (["sched_latency_ns=0..2ms:4:log"], "log spacing needs LO > 0"),
    (["sched_nr_latency=1ms..4ms:3"], "sched_nr_latency takes a plain number"),
    (["sched_nr_latency=1..3:5"], "repeat a value"),
    (["Bad-Knob=1..3:2"], "'Bad-Knob' is not a knob name"),
    (["a_ns=1..3:2", "b_ns=1..3:2", "c_ns=1..3:2"], "3 knobs to sweep"),
    (["a_ns=1..3:2", "a_ns=1..5:2"], "a_ns swept twice"),
    (["a_ns=1..3:2", "a_ns=7"], "a_ns is both swept and fixed"),
    (["a_ns=1..3:2", "--frob"], "unknown option '--frob'"),
    (["a_ns=1..3:2", "word"], "'word': expected KNOB=LO..HI:N or KNOB=VAL"),
    (["a_ns=1..3:2", "-j", "0"], "-j 0: expected a number"),
    (["a_ns=1..3:2", "--out"], "--out: missing value"),
    # the engine's own refusals, passed through as it printed them
    (["nope_ns=1ms..2ms:2"], "sim: unknown parameter 'nope_ns'; nothing was run"),
    (["sched_latency_ns=0.5ms..2ms:4", "sched_min_granularity_ns=50"],
     "sim: sched_min_granularity_ns=50: out of range (expected an integer 100000..1000000000); "
     "nothing was run"),
    (["sched_latency_ns=0.5ms..2ms:4", "sched_min_granularity_ns=50us"],     # units as the axes
     "sim: sched_min_granularity_ns=50us (50000 ns): out of range"),
    (["sched_latency_ns=0.5s..1.1s:3"], "sched_latency_ns=1100000000: out of range"),   # the last point
])
def test_bad_input_one_line(tmp_path, args, needle):
    out = str(tmp_path / "o")
    engine = None if "(50000 ns)" in needle else STUB         # the real engine's units
    r = sweep(*args, "--out", out, engine=engine) if "--out" not in args else sweep(*args)
    assert r.returncode == 2 and r.stdout == "", (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr
    assert not os.path.exists(out)


@pytest.mark.parametrize("crash,needle", [
    ("sched_latency_ns=8000000", "the experiment at sched_latency_ns=8000000 was killed by signal 11"),
    ("noresult", "the experiment at sched_latency_ns=4000000 printed no RESULT line"),
])
def test_engine_failure_one_line(tmp_path, crash, needle):
    out = str(tmp_path / "o")
    r = sweep("sched_latency_ns=4ms..8ms:2", "-j", "1", "--out", out, env={"SIM_STUB_CRASH": crash})
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


def test_missing_engine_one_line(tmp_path):
    r = sweep("sched_latency_ns=4ms..8ms:2", "--out", str(tmp_path / "o"), engine=str(tmp_path / "nope"))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "cannot run the engine" in r.stderr, r.stderr


def doc_sweeps():
    doc = open(os.path.join(ROOT, "docs", "EXPLORE.md")).read()
    return re.findall(r"^(tools/sim sweep .*)$", doc, re.M)


def test_explore_doc_sweeps():
    """docs/EXPLORE.md's sweeps are valid command lines whose grids hold the settings the
    text says: 0.75 ms and 2 ms (and a 6 ms latency) for the min_granularity sweeps, 0.7 ms and
    3 ms for the EEVDF base-slice sweep.  Parsed by the tool itself, not run: 16 x 12
    experiments are the real engine's work, not the stub's."""
    cmds = doc_sweeps()
    assert len(cmds) == 3
    grids = [[set(ax.values) for ax in sim_sweep.parse_args(shlex.split(c)[2:]).axes] for c in cmds]
    assert {750000, 2000000} <= grids[0][0] and len(grids[0]) == 1
    assert {750000, 2000000} <= grids[1][0] and 6000000 in grids[1][1]
    assert {700000, 3000000} <= grids[2][0]
    assert all("--preset" in c and "--duration 10" in c for c in cmds)


@pytest.mark.parametrize("gran,nr", [("750000", "8"), ("2000000", "3")])
def test_explore_doc_nr_latency(gran, nr):
    """The text's claim: writing sched_min_granularity_ns on top of linux-2.6.35 recomputes
    sched_nr_latency = ceil(6 ms / granularity), 8 at 0.75 ms (2.6.36's values), 3 at 2 ms."""
    doc = open(os.path.join(ROOT, "docs", "EXPLORE.md")).read()
    assert "the 0.75 ms point has the values 2.6.36 made the default (6 ms, 0.75 ms,\n8)" in doc
    r = subprocess.run([SIM, "tasks", "hog", "--preset", "linux-2.6.35", f"sched_min_granularity_ns={gran}",
                        "--until", "1ms"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and f"\nsched_nr_latency = {nr}\n" in r.stdout, r.stdout + r.stderr


def test_real_engine_3x2(tmp_path):
    """A 3x2 grid of 2-s experiments on the real engine; twice, the same CSV (deterministic)."""
    args = ["sched_min_granularity_ns=0.75ms..2ms:3", "sched_latency_ns=6ms..12ms:2",
            "--preset", "linux-2.6.35", "--mode", "thread", "--load", "kbuild:10", "--duration", "2",
            "--seed", "1", "-j", "2"]
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    r = sweep(*args, "--out", a, engine=None)
    assert r.returncode == 0, r.stderr
    assert sweep(*args, "--out", b, engine=None).returncode == 0
    rows = read_csv(a)
    assert rows == read_csv(b) and len(rows) == 7
    for row in rows[1:]:
        mx, avg, p99, wf, n = (float(x) for x in row[2:])
        assert 0 < avg <= p99 <= mx and n > 0 and 0 < wf <= 1, row
    for name in PICTURES:
        svg_root(os.path.join(a, name + ".svg"))
        png_size(os.path.join(a, name + ".png"))


def test_real_engine_units_options_and_warning(tmp_path):
    """The experiment's own values pass through the sweep: a fixed *_ns knob with a unit (the
    engine reads it as the axes are read), --period-ms; configurations outside what was
    cross-validated get one line that counts them and names the first one's setting."""
    out = str(tmp_path / "o")
    r = sweep("sched_latency_ns=26ms..30ms:2", "sched_wakeup_granularity_ns=1ms", "--period-ms", "5",
              "--preset", "linux-2.6.35", "--duration", "1", "-j", "2", "--out", out, engine=None)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("sim sweep: warning: 2 of 2 configurations lie outside what was "
                               "validated against QEMU") and "sched_latency_ns=26000000 (validated: " in r.stderr
    rows = json.loads("[" + ",".join(open(os.path.join(out, "sweep.jsonl"))) + "]")
    assert [r_["period_us"] for r_ in rows] == [5000, 5000] and all("_warning" not in r_ for r_ in rows)
