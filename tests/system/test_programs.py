"""Every program of the image explains itself, and the experiment names a bad
setting by its own name.

  * PROG --help (and -h) prints its usage on stdout and exits 0 at once, before
    doing anything else: no program runs its workload when asked for help.
  * experiment KEY=VALUE: each bad value gets one line naming the key, the value
    and what is accepted, and exit status 2; a key=value argument that is no
    setting is named too.  Nothing runs then.
"""
import glob
import os

from conftest import boot, check_clean

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def programs():
    return sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(ROOT, "build", "user", "*.elf")))


# coreutils' nice takes --help only: "nice -h" is an invalid option there too.
LONG_ONLY = {"nice"}


def test_every_program_takes_help():
    progs = programs()
    assert "experiment" in progs and "usertests" in progs, progs
    asks = [(p, flag) for p in progs for flag in ("--help", "-h") if not (flag == "-h" and p in LONG_ONLY)]
    # run= holds 511 characters: the --help runs, then the -h runs, one boot each
    for flags in (("--help",), ("-h",)):
        mine = [(p, f) for p, f in asks if f in flags]
        run = "; ".join(f"{p} {flag}" for p, flag in mine)
        assert len(run) < 511, run
        r = boot(f'run="{run}"', timeout=120)
        check_clean(r)
        for p in progs:
            exits = [l for l in r.lines if l.startswith(f"init: {p} (pid ")]
            want = sum(1 for q, _ in mine if q == p)
            assert len(exits) == want and all(l.endswith("exited with status 0") for l in exits), (p, exits)
        usage = [l for l in r.lines if l.lower().startswith("usage: ")]
        assert len(usage) == len(mine), usage
        # Asked for help, nothing ran: no RESULT line, no load, no test.
        assert not any(l.startswith("RESULT ") or l.startswith("test ") for l in r.lines)


def test_experiment_names_each_bad_setting():
    r = boot('run="experiment duration=abc load=kbuild:2; experiment mode=threads; '
             'experiment load=kbuild:2,foo:3 bogus=1 period_ms=0; experiment slice_us=-5"')
    check_clean(r, status=1)
    errors = [l for l in r.lines if l.startswith("experiment: ")]
    assert errors == [
        "experiment: duration=abc: invalid (expected an integer 1..3600)",
        "experiment: mode=threads: invalid (expected thread|signal)",
        "experiment: unknown setting 'bogus=1' (try experiment --help)",
        "experiment: load=kbuild:2,foo:3: invalid (expected none, kbuild[:1..64], video[:1..1000], "
        "comma-separated)",
        "experiment: period_ms=0: invalid (expected an integer 1..1000)",
        "experiment: slice_us=-5: invalid (expected an integer 0..1000000)",
    ], errors
    assert [l for l in r.lines if l.startswith("init: experiment")] == \
        [f"init: experiment (pid {p}) exited with status 2" for p in (2, 3, 4, 5)]
    assert not any(l.startswith("RESULT ") for l in r.lines)


def test_summary_explains_itself():
    r = boot('run="experiment duration=1 load=none"')
    check_clean(r)
    summary = r.output[r.output.index("======== experiment summary"):]
    assert "(a timer fires every 10 ms for 1 s; wakeup latency = how late the woken thread runs)" in summary
    marked = [l for l in summary.splitlines() if l.endswith("<- this preset")]
    assert len(marked) == 1 and marked[0].startswith("  min_gran 0.75 ms only, make -j10 [0bf]"), \
        marked
    assert "2.6.35.2 mainline, make -j10 [0bf]        45762.1 /  7348.6  x1.00 / x1.00" in summary
    assert "NO_START_DEBIT, make -j10 [SN]            10001.8 /  1618.7  x0.22 / x0.22" in summary
    assert "Compare ratios, not us" in summary and "tags: [0bf]" in summary


def test_make_run_gives_this_runs_ratio_to_the_mainline():
    """tools/granule/run/summary.py: make run's closing line divides this run by the
    linux-2.6.35 run with the same settings in tools/granule/sim/engine/reference.json."""
    import json
    from granule.run import summary as run_summary
    with open(run_summary.REFERENCE) as fh:
        base = [r for r in json.load(fh)["runs"] if r["cmdline"] == (
            "sched_preset=linux-2.6.35 hz=1000 run=experiment mode=thread load=kbuild:10 "
            "duration=10 seed=1")][0]
    out = ('RESULT {"bench":"wakeup-latency","preset":"commit-0bf377bbb0be","hz":1000,'
           '"mode":"thread","load":"kbuild:10","duration_s":10,"period_us":10000,"samples":1000,'
           '"max_us":%.1f,"avg_us":%.1f}\nRESULT {"bench":"kbuild-load","seed":1}\n'
           % (base["max_us"] / 2, base["avg_us"] / 4))
    line = run_summary.ratio_line(out)
    assert line.startswith("make run: this run (preset commit-0bf377bbb0be) is x0.50 / x0.25 of "
                           "Granule's mainline row (linux-2.6.35 with the same settings"), line
    other = out.replace('"duration_s":10', '"duration_s":3')
    assert "none is in tools/granule/sim/engine/reference.json" in run_summary.ratio_line(other)
    assert run_summary.ratio_line("no experiment here") is None


def test_unknown_program_lists_the_programs():
    r = boot("run=nosuchprogram")
    check_clean(r, status=1)
    at = r.lines.index("init: cannot run nosuchprogram: No such file or directory")
    listed = " ".join(r.lines[at + 1:at + 5])
    assert r.lines[at + 1].startswith("init: the programs are: "), r.lines[at + 1]
    for p in ("experiment", "hello", "usertests", "wakeup-latency"):
        assert f" {p}" in listed, listed
    assert "and busybox's applets (busybox --list)" in listed


def test_make_run_terminal_has_no_grub_escape_codes():
    """make run boots the ISO on the terminal: GRUB's VT100 codes (clear screen,
    cursor moves) are dropped before the kernel's banner; the kernel's own output
    passes through untouched."""
    import subprocess
    p = subprocess.run([os.path.join(ROOT, "tools", "run-qemu"), "--boot", "iso", "--interactive", "--",
                        "run=hello"], stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    out = p.stdout
    at = out.find(b"Granule 0.1 (i686) booting")
    assert at > 0, out[-2000:]
    assert b"Booting `Granule'" in out[:at]
    assert b"\x1b[" not in out[:at], out[:at]
    assert b"hello from user space" in out[at:]


def test_make_help_lists_the_targets():
    import subprocess
    out = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    targets = [l.split()[1] for l in out.stdout.splitlines() if l.startswith("  make ")]
    for t in ("run", "test", "shell", "trace", "gdb", "bench", "usb", "deps", "lab", "grade"):
        assert t in targets, (t, targets)
    # the student's tools: the labs, the simulator and the tracer, under "To learn"
    learn = out.stdout[out.stdout.index("To learn"):out.stdout.index("Also:")]
    for tool in ("make lab", "make grade", "tools/sim", "make trace"):
        assert "\n  %s " % tool in learn, (tool, learn)
