"""tools/bench_smp.py (tools/granule/bench/smp.py): its plan, job keys, pad and rows, without QEMU.

Each preset runs beside the Debian kernel tools/granule/peer/linux.py sets to its knobs (6.1 for
the CFS presets, 6.12 for linux-6.12); linux-6.12 gets a cost-matched Granule twin whose pad is
Linux's helper CPU per expiry minus Granule's at that CPU count (bench/cost.py matched_pad()).
The runs here are constructed (a fake run_job), so the right rows and pads are known; the kernel
images' hashes are stubbed so that the test needs no build.
"""
import pytest

from granule.bench import jobs as bj
from granule.bench import smp
from granule.peer import linux as lp


@pytest.fixture(autouse=True)
def no_images(monkeypatch):
    monkeypatch.setattr(bj, "image_hash", lambda kernel: f"image of {kernel}")


# helper CPU per expiry (µs) by kernel and seed; Granule's avg by pad (µs)
HELPER = {("granule", 1): 7.0, ("granule", 2): 7.4, ("linux-6.12", 1): 32.0, ("linux-6.12", 2): 33.0,
          ("linux-6.1", 1): 29.0, ("linux-6.1", 2): 29.0}
AVG = {("granule", 0): 110.0, ("granule", 25): 420.0, ("linux-6.12", 0): 400.0, ("linux-6.1", 0): 9000.0}


def fake_run(job):
    """The run dict run_job would return for JOB, figures from HELPER and AVG (seed 2 10 % above)."""
    pad = job.get("pad_us", 0)
    k = 1 + (job["seed"] - 1) / 10
    wl = {"avg_us": AVG[job["kernel"], pad] * k, "p99_us": 2 * AVG[job["kernel"], pad] * k,
          "max_us": 5 * AVG[job["kernel"], pad] * k, "helper_cpu_us": HELPER[job["kernel"], job["seed"]] + pad,
          "notify_cpu_us": 2.0, "notify_pad_us": pad}
    kb = {"jobs_per_s": 55.0 * k, "work_frac": 0.9, "migrations_per_s": 10.0 if job["kernel"] == "granule" else 2.0}
    return dict(job, results={"wakeup-latency": wl, "kbuild-load": kb, "cpu-busy": {"busy_pct": [100.0, 99.5]}})


def test_default_presets_run_beside_their_linux():
    assert smp.PRESETS == ["linux-2.6.35", "commit-0bf377bbb0be", "linux-6.12"]
    assert [smp.linux_of(p) for p in smp.PRESETS] == ["linux-6.1", "linux-6.1", "linux-6.12"]
    for p in smp.PRESETS:
        assert lp.GRANULE_TWIN[p] == p      # the same knobs on both kernels


def test_plan_pairs_linux_6_12_with_linux_6_12():
    jobs = smp.plan(["commit-0bf377bbb0be", "linux-6.12"], [2, 4], 10, range(1, 3))
    assert [j["id"] for j in jobs] == [f"{i:04d}" for i in range(1, 17)]
    eevdf = [j for j in jobs if j["preset"] == "linux-6.12"]
    assert [(j["kernel"], j["smp"], j["seed"]) for j in eevdf] == \
        [("granule", 2, 1), ("granule", 2, 2), ("linux-6.12", 2, 1), ("linux-6.12", 2, 2),
         ("granule", 4, 1), ("granule", 4, 2), ("linux-6.12", 4, 1), ("linux-6.12", 4, 2)]
    g, lx = eevdf[0], eevdf[2]
    assert g["cmdline"] == ('sched_preset=linux-6.12 hz=250 run="experiment mode=thread load=kbuild:10 '
                            'duration=10 seed=1"')
    assert lx["run"] == "experiment mode=thread load=kbuild:10 duration=10 seed=1" and "cmdline" not in lx
    assert g["image"] == "image of granule" and lx["image"] == "image of linux-6.12"
    # the raw jobs keep the keys they had before the pad existed: saved runs stay reusable
    assert not any("pad_us" in j for j in jobs)
    assert {j["kernel"] for j in jobs if j["preset"] == "commit-0bf377bbb0be"} == {"granule", "linux-6.1"}


def test_matched_plan_pads_eevdf_by_linux_helper_cost():
    raw = smp.plan(["linux-2.6.35", "linux-6.12"], [2], 10, range(1, 3))
    runs = [fake_run(j) for j in raw]
    # per seed 32.0 - 7.0 = 25.0 and 33.0 - 7.4 = 25.6: median 25.3, rounded 25; none for CFS
    assert smp.pads(runs) == {("linux-6.12", 2): 25}
    later = smp.matched_plan(runs, 10, range(1, 3), len(raw) + 1)
    assert [(j["id"], j["kernel"], j["preset"], j["seed"], j["pad_us"]) for j in later] == \
        [("0009", "granule", "linux-6.12", 1, 25), ("0010", "granule", "linux-6.12", 2, 25)]
    assert later[0]["cmdline"] == ('sched_preset=linux-6.12 hz=250 notify_pad_us=25 run="experiment '
                                   'mode=thread load=kbuild:10 duration=10 seed=1"')
    # a Linux path no dearer than Granule's needs no twin
    cheap = [dict(r, results=dict(r["results"], **{"wakeup-latency": dict(
        r["results"]["wakeup-latency"], helper_cpu_us=1.0)})) if r["kernel"] != "granule" else r for r in runs]
    assert smp.pads(cheap) == {("linux-6.12", 2): 0} and smp.matched_plan(cheap, 10, [1], 9) == []
    assert "pad 0, Granule's path is no cheaper than Linux's and its raw row is the cost-matched one." \
        in "\n".join(smp.report(cheap, ["tools/bench_smp.py"], "abc", 10, 2))


def test_resume_never_takes_a_raw_run_for_a_padded_job(tmp_path):
    raw = smp.plan(["linux-6.12"], [2], 10, [1])
    bj.save_result(str(tmp_path), fake_run(raw[0]), 1.0)
    assert bj.reusable(str(tmp_path), raw[0])["id"] == "0001"
    padded = smp.job("granule", "linux-6.12", 2, 10, 1, pad=25)
    padded.update(id="0001", image=raw[0]["image"])
    assert bj.reusable(str(tmp_path), padded) is None


def test_rows_of_the_eevdf_configuration():
    raw = smp.plan(["linux-6.12"], [2], 10, range(1, 3))
    runs = [fake_run(j) for j in raw]
    runs += [fake_run(j) for j in smp.matched_plan(runs, 10, range(1, 3), len(raw) + 1)]
    lines = smp.table(runs)
    assert lines[0].startswith("| CPUs | preset | kernel | avg µs | p99 µs | max µs | jobs/s |")
    assert lines[2:] == [
        "| 2 | linux-6.12 | Granule | 115.5 [110.0–121.0] | 231.0 [220.0–242.0] | 577.5 [550.0–605.0] | "
        "57.75 [55.00–60.50] | 0.900 | 10.0 | 99.5 | x0.28 (**out**) | x1.00 (in) | x5.00 (in) |",
        "| 2 | linux-6.12 | Granule, pad 25 µs | 441.0 [420.0–462.0] | 882.0 [840.0–924.0] | "
        "2205.0 [2100.0–2310.0] | 57.75 [55.00–60.50] | 0.900 | 10.0 | 99.5 | x1.05 (in) | x1.00 (in) | "
        "x5.00 (in) |",
        "| 2 | linux-6.12 | Linux 6.12 | 420.0 [400.0–440.0] | 840.0 [800.0–880.0] | 2100.0 [2000.0–2200.0] | "
        "57.75 [55.00–60.50] | 0.900 | 2.0 | 99.5 |  | |  |"]
    report = "\n".join(smp.report(runs, ["tools/bench_smp.py"], "abc", 10, 2))
    assert "beside Linux 6.1 and 6.12" in report and "`notify_pad_us=P`" in report
    assert "- linux-6.12 at 2 CPUs: CPU per expiry, helper + notification thread, 7.2 + 2.0 µs on Granule, " \
        "32.5 + 2.0 µs on Linux 6.12: pad 25 µs." in report
    cfs = [fake_run(j) for j in smp.plan(["linux-2.6.35"], [2], 10, [1])]
    assert "notify_pad_us" not in "\n".join(smp.report(cfs, ["tools/bench_smp.py"], "abc", 10, 1))


def test_main_runs_the_twins_after_the_raw_runs_and_resumes(tmp_path, monkeypatch):
    booted = []

    def run_job(job, timeout=900, check_image=True):
        booted.append(job["id"])
        return fake_run(job), 1.0
    monkeypatch.setattr(bj, "run_job", run_job)
    argv = ["--presets", "linux-6.12", "--cpus", "2", "--seeds", "2", "--duration", "10", "-j", "1",
            "--out", str(tmp_path)]
    assert smp.main(argv) == 0
    assert sorted(booted) == ["0001", "0002", "0003", "0004", "0005", "0006"]
    report = (tmp_path / "SMP.md").read_text()
    assert "| 2 | linux-6.12 | Granule, pad 25 µs | 441.0 [420.0–462.0] |" in report
    booted.clear()
    assert smp.main(argv + ["--resume"]) == 0
    assert booted == [] and (tmp_path / "SMP.md").read_text() == report
    assert smp.main(argv + ["--report-only"]) == 0 and (tmp_path / "SMP.md").read_text() == report


def test_an_unknown_preset_is_refused_by_name(tmp_path):
    with pytest.raises(SystemExit, match="--presets: unknown linux-6.13 .*linux-6.12"):
        smp.main(["--presets", "linux-6.13", "--out", str(tmp_path)])
