"""tools/bench_cost.py on constructed runs, where the right answer is known:
the pad (Linux's helper CPU minus Granule's, median over seeds), the cost-matched
table's ratios and its flag outside 0.90-1.10, the fitted slope, the jobs
(every pair, the padded twins, the sweep) and the bad --pads line."""
import os
import re

import pytest

from granule.bench import cost as bc


def run(kernel, preset, seed, avg, helper, notify, pad=0):
    return {"kernel": kernel, "preset": preset, "seed": seed,
            "results": {"wakeup-latency": {"avg_us": avg, "helper_cpu_us": helper,
                                           "notify_cpu_us": notify, "notify_pad_us": pad}}}


RUNS = [run("linux-6.12", "linux-6.12", 1, 400.0, 32.0, 4.0),
        run("linux-6.12", "linux-6.12", 2, 420.0, 33.0, 4.0),
        run("linux-6.12", "linux-6.12", 3, 410.0, 30.0, 4.0),
        run("granule", "linux-6.12", 1, 100.0, 7.0, 2.0),
        run("granule", "linux-6.12", 2, 105.0, 7.0, 2.0),
        run("granule", "linux-6.12", 3, 110.0, 8.0, 2.0),
        run("granule", "linux-6.12", 1, 380.0, 34.0, 2.0, pad=27),
        run("granule", "linux-6.12", 2, 500.0, 34.0, 2.0, pad=27),
        run("granule", "linux-6.12", 3, 410.0, 35.0, 2.0, pad=27)]


def test_pad_is_median_helper_cost_difference():
    # helper differences 25, 26, 22 -> median 25; the notification threads' (2 us dearer on Linux) are
    # not padded: only the helper's cost is amplified by its lag
    assert bc.matched_pad(RUNS) == 25
    assert bc.matched_pad([r for r in RUNS if r["kernel"] == "granule"]) is None
    # Granule dearer than Linux: no negative pad
    assert bc.matched_pad([run("linux-6.12", "linux-6.12", 1, 1, 1.0, 1.0),
                           run("granule", "linux-6.12", 1, 1, 5.0, 1.0)]) == 0


def test_unmeasured_cost_is_skipped():
    assert bc.path_cost(run("granule", "x", 1, 1, -1, 2.0)) is None


def test_matched_table_ratios_and_flag():
    lines = bc.matched_table(RUNS, 27)
    row = next(line for line in lines if line.startswith("| linux-6.12 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2] == "410.0" and cells[4] == "105.0"
    assert cells[6].startswith("0.25") and "outside" in cells[6]     # 100/400, 105/420, 110/410
    assert cells[3] == "32.0 + 4.0" and cells[5] == "7.0 + 2.0"
    assert cells[7] == "410.0" and cells[8] == "34.0 + 2.0"
    assert cells[9] == "1.00 [0.95–1.19]"      # 380/400, 500/420, 410/410 -> median [min–max]
    assert "Pad: 27" in lines[0]


def test_gain_table_raw_cost_matched_and_linux():
    runs = RUNS + [run("granule", "linux-2.6.35", s, 20000.0 + s, 5.0, 1.0) for s in (1, 2, 3)] \
        + [run("granule", "linux-2.6.35", s, 20000.0, 30.0, 1.0, pad=27) for s in (1, 2, 3)] \
        + [run("linux-6.1", "linux-2.6.35", s, 21000.0, 29.0, 3.0) for s in (1, 2)]
    lines = bc.gain_table(runs, 27)
    assert lines[0] == bc.GAIN_TITLE
    rows = {line.split(" | ")[0].lstrip("| "): [c.strip() for c in line.strip("|").split("|")]
            for line in lines if line.startswith("| ") and "avg" not in line}
    # raw: 20001/100, 20002/105, 20003/110 -> median 190 [182-200]
    assert rows["Granule, raw"][3] == "190 [182–200]"
    # cost-matched: 20000/380, 20000/500, 20000/410 -> 48.8 [40.0-52.6]
    assert rows["Granule, cost-matched (pad 27 µs)"][3] == "48.8 [40.0–52.6]"
    # Linux: seeds 1 and 2 only (6.1 ran two): 21000/400, 21000/420 -> median 51.25
    assert rows["Linux: 6.1 with 2.6.35's knobs over 6.12"][1:] == ["21000.0", "410.0", "51.2 [50.0–52.5]"]
    assert len(bc.gain_table(runs, None)) == len(lines) - 1   # no pad: no cost-matched row
    assert bc.gain_table(RUNS, 27) == []                       # no CFS runs: no section


def test_at_equal_cost_reads_both_lines_at_linuxs_helper_cpu():
    # Granule: avg = 20 + 12 * helper; Linux: avg = 40 + 11 * helper; Linux's unpadded helper 32.0 (median)
    runs = [run("granule", "linux-6.12", 1, 20 + 12 * h, h, 2.0, pad=h - 7) for h in (7.0, 17.0, 37.0)] \
        + [run("linux-6.12", "linux-6.12", s, 40 + 11 * h, h, 4.0) for s, h in ((1, 31.0), (2, 32.0), (3, 33.0))] \
        + [run("linux-6.12", "linux-6.12", 1, 40 + 11 * 52.0, 52.0, 4.0, pad=20)]
    line = bc.at_equal_cost(runs)[0]
    assert "Granule EEVDF 12.0 µs of latency per µs, Linux 6.12 11.0" in line
    assert "(32.0 µs) the lines give 404.0 µs on Granule and 392.0 µs on Linux: Granule/Linux 1.03." in line
    assert bc.at_equal_cost(runs[:3]) == []          # no Linux runs


def test_fit_slope():
    slope, icpt = bc.fit_slope([(0, 100.0), (10, 230.0), (20, 360.0), (40, 620.0)])
    assert slope == pytest.approx(13.0) and icpt == pytest.approx(100.0)
    assert bc.fit_slope([(5, 1.0), (5, 2.0)]) is None


def test_sweep_points_and_table():
    runs = [run("granule", "linux-6.12", 1, 100.0 + 12 * p, 7 + p, 2, pad=p) for p in bc.PADS]
    pts = bc.sweep_points(runs)
    assert list(pts) == ["Granule EEVDF"]
    table = bc.sweep_table(pts)
    assert table[-1].endswith("| 12.0 |")
    assert "| 340.0 |" in table[-1]             # pad 20
    runs[0]["results"]["wakeup-latency"]["min_us"] = 9.5
    for r in runs[1:]:
        r["results"]["wakeup-latency"]["min_us"] = 9.5 + r["results"]["wakeup-latency"]["notify_pad_us"]
    rows = bc.sweep_runs_table(list(reversed(runs)) + [run("granule", "linux-6.12", 2, 1.0, 7, 2)])
    assert len(rows) == 2 + len(bc.PADS)         # seed 1 only, in pad order
    assert rows[2] == "| Granule EEVDF | 0 | 7.0 | 2.0 | 9.5 | 100.0 |"
    assert rows[-1] == "| Granule EEVDF | 40 | 47.0 | 2.0 | 49.5 | 580.0 |"


def test_jobs():
    raw = bc.raw_jobs(10, [1, 2])
    assert len(raw) == 2 * 2 * len(bc.PAIRS)
    g = next(j for j in raw if j["kernel"] == "granule" and "NO_PLACE_LAG" in j["preset"])
    assert g["cmdline"] == ("sched_preset=linux-6.12 sched_features=NO_PLACE_LAG hz=250 run=experiment "
                            "mode=thread load=kbuild:10 duration=10 seed=1")
    later = bc.later_jobs(10, [1], 26, [0, 5, 26], True)
    assert sum(1 for j in later if j["pad_us"] == 26) == len(bc.PAIRS)
    assert {j["pad_us"] for j in later} == {5, 26}
    lin = next(j for j in later if j["kernel"] == "linux-6.12")
    assert lin["run"].endswith("notify_pad_us=5")
    assert "notify_pad_us=26" in next(j for j in later if j["kernel"] == "granule")["cmdline"]


def test_bad_pads_named(capsys):
    with pytest.raises(SystemExit) as e:
        bc.main(["--pads", "0,x", "--report-only"])
    assert "--pads 0,x" in str(e.value) and "0..1000" in str(e.value)


def test_docs_section_spliced_not_appended_twice():
    sec = bc.docs_section(["# The cost", "", "![sweep](sweep.png)"])
    assert sec.startswith(bc.BEGIN) and sec.rstrip().endswith(bc.END)
    assert "## The cost" in sec and "](results/cost-sweep.svg)" in sec
    text = bc.splice("# Results\n", sec)
    assert text.count(bc.BEGIN) == 1
    again = bc.splice(text + "tail\n", bc.docs_section(["# New"]))
    assert again.count(bc.BEGIN) == 1 and "## New" in again and "## The cost" not in again
    assert again.endswith("tail\n")


def _doc(*p):
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", *p), encoding="utf-8") as f:
        return f.read()


def test_scheduler_md_quotes_the_cost_section_of_results_md():
    # the cost-matched ratios and the sweep's slopes that SCHEDULER.md states are the ones
    # tools/bench_cost.py --docs wrote into RESULTS.md's COST block
    results, sched = _doc("RESULTS.md"), _doc("SCHEDULER.md")
    block = results[results.index(bc.BEGIN):results.index(bc.END)]
    flat = " ".join(sched.split())
    quoted = {"linux-6.12": "{} for linux-6.12's defaults",
              "linux-6.12 sched_features=NO_RUN_TO_PARITY": "{} for NO_RUN_TO_PARITY",
              "linux-6.12 slice_us=100": "{} for `slice_us=100`",
              "linux-6.12 sched_features=NO_PLACE_LAG": "**NO_PLACE_LAG:** {}.",
              "linux-6.12 sched_base_slice_ns=3000000": "**Base slice 3 ms:** {}, outside the band"}
    for preset, where in quoted.items():
        row = next(line for line in block.splitlines() if line.startswith(f"| {preset} |"))
        ratio = row.strip("|").split("|")[-1].strip().split(" (")[0]
        assert where.format(ratio) in flat, (preset, ratio)
    for label in ("Granule EEVDF", "Linux 6.12", "Granule CFS", "Linux 6.1"):
        row = next(line for line in block.splitlines() if line.startswith(f"| {label} |") and "slope" not in line
                   and line.count("|") == 2 + len(bc.PADS) + 1)
        slope = row.strip("|").split("|")[-1].strip()
        assert slope.lstrip("-").replace(".", "", 1).isdigit() and f"{slope} " in sched, (label, slope)
    equal = re.search(r"Granule EEVDF ([\d.]+) µs of latency per µs, Linux 6.12 ([\d.]+)\..*Granule/Linux ([\d.]+)\.",
                      block)
    assert equal, "RESULTS.md's COST block has no fit at equal cost"
    assert f"they are {equal.group(1)} µs of latency per µs on Granule and {equal.group(2)} on Linux" in flat
    assert f"Granule/Linux {equal.group(3)} (RESULTS.md" in flat
