"""tools/soak: the experiment under every preset, and its report.

A tiny soak (two presets, 6 s of guest time each, both at once) boots under
QEMU -icount: the tool must call it clean, its table and its RESULT line
must say what the saved JSON says, and the measured experiment's wakeups
must be there (a soak that measured nothing is not clean); an expiry it
missed must be an overrun the kernel counted, not a lost one.  The docs writer
is checked on constructed results, where the right answer is known: a
preset that leaked is named in the verdict, and a second write replaces the
RESULTS.md section instead of appending one.  The SMP soak's presets are
checked with a stubbed runner (no boot): each named preset reaches the boot
line and its row, and naming none leaves the line, the rows and the table
exactly as before.
"""
import json
import os
import re
import subprocess

TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "tools")


def soak(*args, ok=True):
    p = subprocess.run([os.path.join(TOOLS, "soak"), *args], capture_output=True, text=True,
                       timeout=600)
    assert (p.returncode == 0) == ok, p.stdout[-2000:] + p.stderr[-2000:]
    return p.stdout


def result_line(out):
    lines = [l for l in out.splitlines() if l.startswith("RESULT ")]
    assert len(lines) == 1, out
    return json.loads(lines[0][len("RESULT "):])


def test_tiny_soak_is_clean_and_reports_what_it_saved(tmp_path):
    path = tmp_path / "soak.json"
    out = soak("--seconds", "12", "-j", "2", "--json", str(path), "linux-2.6.35", "linux-6.12")
    saved = json.loads(path.read_text())
    assert result_line(out) == saved
    assert saved["clean"] and saved["soak"] == 12 and saved["jobs"] == 2
    assert [r["preset"] for r in saved["presets"]] == ["linux-2.6.35", "linux-6.12"]
    for r in saved["presets"]:
        # duration=1 at the experiment's 10 ms period: 100 expiries, each
        # measured or missed, and every missed one an overrun (none lost).
        assert (r["violations"], r["leaked_frames"], r["lost_timer_events"]) == (0, 0, 0), r
        assert r["samples"] + r["missed_timer_events"] == 100, r
        assert r["missed_timer_events"] == r["overruns"], r
        assert r["max_us"] > 0 and r["status"] == 0 and not r["hang"], r
        row = [l.split() for l in out.splitlines() if l.startswith(r["preset"] + " ")]
        assert row == [[r["preset"], "1", str(r["samples"]), str(r["missed_timer_events"]),
                        "0", "0", "0", "0", "0"]], out


def constructed(leaked_in=None):
    presets = [{"preset": p, "duration_s": 355, "status": 0, "hang": False, "violations": 0,
                "leaked_frames": 2 if p == leaked_in else 0, "missed_timer_events": 3,
                "overruns": 3, "lost_timer_events": 0, "warnings": [], "samples": 35497,
                "max_us": 12345.6, "wall_s": 300.0, "clean": p != leaked_in}
               for p in ("linux-2.6.35", "deadline")]
    return {"soak": 720, "load": "kbuild:10", "mode": "thread", "jobs": 2,
            "commit": "0123456789ab", "wall_s": 3725, "clean": leaked_in is None,
            "presets": presets}


def test_docs_section_names_the_leak_and_is_replaced_not_appended(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "RESULTS.md").write_text("# Results\n\nthe bench's text\n")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(constructed(leaked_in="deadline")))
    out = soak("--report-only", str(bad), "--docs", "--docs-dir", str(docs), ok=False)
    assert result_line(out) == constructed(leaked_in="deadline")
    text = (docs / "RESULTS.md").read_text()
    assert text.startswith("# Results\n\nthe bench's text\n\n<!-- SOAK")
    assert "Verdict: **NOT CLEAN**: deadline." in text
    assert "| deadline | 355 | 35497 | 12345.6 | 3 | 0 | 0 | 2 | 0 | status 0 |" in text
    assert "2 presets x 360 s of guest time took 1:02:05 of wall time, 2 at once" in text
    assert "image of commit `0123456789ab`" in text

    good = tmp_path / "good.json"
    good.write_text(json.dumps(constructed()))
    soak("--report-only", str(good), "--docs", "--docs-dir", str(docs))
    text = (docs / "RESULTS.md").read_text()
    assert text.count("<!-- SOAK") == 1 and text.count("<!-- /SOAK -->") == 1, text
    assert "NOT CLEAN" not in text and "Verdict: **clean**" in text
    assert text.startswith("# Results\n\nthe bench's text\n\n<!-- SOAK")
    # tools/bench --docs appends this file when it rewrites RESULTS.md.
    assert text.endswith((docs / "results" / "soak.md").read_text())


def test_smp_soak_refuses_a_bad_cpu_count():
    for bad in ("0", "two", "2,33"):
        p = subprocess.run([os.path.join(TOOLS, "soak"), "--smp", bad], capture_output=True,
                           text=True, timeout=60)
        assert p.returncode == 1 and p.stderr.strip() == \
            f"soak: --smp {bad}: expected CPU counts 1..32, comma-separated", p.stderr


def test_smp_soak_table_names_what_is_not_clean():
    from granule.check import smp_soak
    runs = [{"cpus": 4, "stress_s": 57, "smpstress": "smpstress: 8 threads, 9 rounds, 9 mmaps, "
             "72 futex passes, 2 forks in 57 s", "hackbench_s": [0.25, 0.27],
             "failed_programs": ["/usr/bin/hackbench"], "status": 0, "hang": False,
             "violations": 0, "leaked_frames": 3, "warnings": ["WARNING: at x.c:1 f()"]}]
    lines = smp_soak.table(runs)
    assert lines[1].split()[:7] == ["4", "57", "0", "3", "0.250/0.270", "1", "0"], lines
    assert lines[2:] == ["    WARNING: at x.c:1 f()", "    failed: /usr/bin/hackbench"], lines


def test_smp_soak_refuses_a_bad_preset_before_booting():
    p = subprocess.run([os.path.join(TOOLS, "soak"), "--smp", "2", "linux-6.12", "eevdf"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == "", p.stdout + p.stderr
    assert p.stderr == ("soak: preset 'eevdf': expected one of linux-2.6.35, "
                        "commit-0bf377bbb0be, no-start-debit, dyn-gran, dyn-gran-sleeper, "
                        "start-nice, start-nice-debit, deadline, cpt-fix, linux-6.12\n"), p.stderr


def stubbed_boots(monkeypatch, verify=("sched_verify: 0 violations",)):
    """Replace the boot with a run of what the line asks, clean but for VERIFY's lines; the
    lines and smp= it got."""
    from granule import qemu as gq
    boots = []

    def run(cmdline, smp=1, extra=(), timeout=0):
        boots.append((cmdline, smp))
        progs = re.search(r'run="([^"]*)"', cmdline).group(1).split("; ")
        out = ["frames: 1000 free", "smpstress: 4 threads, 7 rounds, 7 mmaps, 56 futex passes, "
               "1 forks in 2 s", "Time: 1.500", "Time: 1.250", "frames: 1000 free", *verify]
        out += [f"init: {p.split()[0]} (pid {i + 2}) exited with status 0"
                for i, p in enumerate(progs)]
        return gq.Run(cmdline, 1, "\n".join(out) + "\n")    # power-off status 0
    monkeypatch.setattr(gq, "run", run)
    return boots


def test_smp_soak_boots_each_count_under_each_named_preset(monkeypatch, capsys):
    from granule.check import smp_soak
    boots = stubbed_boots(monkeypatch)
    result = smp_soak.soak([2, 4], 5, ["linux-6.12", "deadline"])
    assert [(re.search(r"sched_preset=(\S+)", c).group(1), n) for c, n in boots] == \
        [("linux-6.12", 2), ("deadline", 2), ("linux-6.12", 4), ("deadline", 4)], boots
    assert all(c.startswith("sched_verify=1 lockdep=1 sched_preset=") for c, _ in boots), boots
    assert result["presets"] == ["linux-6.12", "deadline"] and result["clean"], result
    assert [(r["preset"], r["cpus"]) for r in result["runs"]] == \
        [("linux-6.12", 2), ("deadline", 2), ("linux-6.12", 4), ("deadline", 4)]
    lines = smp_soak.table(result["runs"])
    assert lines[0].split()[:2] == ["preset", "cpus"], lines
    assert [l.split()[:8] for l in lines[1:]] == \
        [[p, str(n), "2", "0", "0", "1.500/1.250", "0", "0"]
         for n in (2, 4) for p in ("linux-6.12", "deadline")], lines
    said = capsys.readouterr().out.splitlines()
    assert said[0].endswith("sched_verify=1 lockdep=1, presets linux-6.12, deadline"), said
    assert said[1].startswith("soak: 2 CPUs, linux-6.12: clean ("), said


def test_smp_soak_without_presets_boots_and_reports_as_before(monkeypatch, capsys):
    from granule.check import smp_soak
    boots = stubbed_boots(monkeypatch)
    result = smp_soak.soak([2], 5)
    assert len(boots) == 1 and "sched_preset" not in boots[0][0], boots
    assert boots[0][0].startswith('sched_verify=1 lockdep=1 run="frames; smpstress -t 4 -d 2')
    assert "presets" not in result and list(result["runs"][0])[:2] == ["cpus", "stress_s"]
    assert smp_soak.table(result["runs"])[0] == \
        "cpus    secs violations   leaked  hackbench p/T (s) warnings status  smpstress"
    assert capsys.readouterr().out.splitlines()[:2] == [
        "soak: SMP, 2 CPUs x 5 s of guest time, sched_verify=1 lockdep=1",
        f"soak: 2 CPUs: clean ({result['runs'][0]['wall_s']} s wall)"]


def test_smp_soak_shows_what_each_violation_was(monkeypatch):
    from granule.check import smp_soak
    broke = "sched_verify: cpu2 rt overloaded 1, rto_mask 0x1"
    stubbed_boots(monkeypatch, verify=(broke, "sched_verify: 1 violations"))
    result = smp_soak.soak([2], 5, ["linux-6.12"])
    run = result["runs"][0]
    assert not result["clean"] and run["violations"] == 1 and run["warnings"] == [broke], run
    assert smp_soak.table(result["runs"])[2] == "    " + broke
