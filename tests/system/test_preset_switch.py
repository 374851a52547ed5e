"""The preset program (user/preset.c): a whole scheduler preset of
tools/presets switched at run time through /proc/sys/kernel and
/sys/kernel/debug/sched_features.  What it prints is checked against
tools/presets (the one source of its table and of the kernel's), what it
leaves behind against a boot with the preset on the command line: the same
/proc/sched_debug header and the same experiment RESULT configuration.

The /proc/sched_debug comparison reads the file with busybox's cat, and is
skipped without busybox (make BUSYBOX=0); the rest runs Granule's programs
directly through run=."""
import json
import re

import pytest

from conftest import boot, check_clean
from test_busybox import blocks, have_busybox
from test_presets import PRESETS, presets

# The kernel's order (sched_preset_apply): file under /proc/sys/kernel, tools/presets key.
STEPS = [("sched_latency_ns", "latency"), ("sched_min_granularity_ns", "min_gran"),
         ("sched_wakeup_granularity_ns", "wakeup_gran"), ("sched_nr_latency", "nr_latency"),
         ("sched_features", None), ("sched_std_granularity_ns", "std_gran"),
         ("sched_nr_latency_max", "nr_latency_max"),
         ("sched_sleeper_wakeup_slice_ns", "sleeper_slice"),
         ("sched_fork_update_clock", "fork_update_clock")]
EXPERIMENT = "experiment mode=thread load=kbuild:2 duration=1"
MEASURED = re.compile(r"_us$")


@pytest.fixture(scope="module")
def feature_line():
    """The default feature line, in bit order, from a boot's table."""
    r = boot("run=hello")
    check_clean(r)
    return r.find(r"^sched_features = (.*)$").group(1).split()


def features_of(name, default_line):
    _settings, fset, fclear, _alias = presets()[name]
    out = []
    for word in default_line:
        f = word[3:] if word.startswith("NO_") else word
        on = (f in fset) or (not word.startswith("NO_") and f not in fclear)
        out.append(f if on else "NO_" + f)
    return out


def expected_changes(old, new, default_line):
    """The lines `preset NEW` prints when OLD runs, from tools/presets."""
    a, b = presets()[old][0], presets()[new][0]
    lines = []
    for file, key in STEPS:
        if key is None:
            fa, fb = features_of(old, default_line), features_of(new, default_line)
            lines += [f"sched_features: {x} -> {y}" for x, y in zip(fa, fb) if x != y]
        elif a[key] != b[key]:
            lines.append(f"kernel.{file}: {a[key]} -> {b[key]}")
    return lines + [f"kernel.sched_preset: {old} -> {new}"]


def after_boot(run):
    return run.lines[run.lines.index("Boot complete") + 1:]


@pytest.mark.parametrize("old,new", [("linux-2.6.35", "no-start-debit"),
                                     ("commit-0bf377bbb0be", "dyn-gran-sleeper"),
                                     ("start-nice", "linux-2.6.35")])
def test_preset_prints_each_change_in_the_kernels_order(old, new, feature_line):
    r = boot(f'sched_preset={old} run="preset {new}; preset {new}"')
    check_clean(r)
    out = after_boot(r)
    want = expected_changes(old, new, feature_line)
    assert out[:len(want) + 1] == want + ["init: preset (pid 2) exited with status 0"], out
    # Again: the configuration is already there.
    assert out[len(want) + 1:len(want) + 3] == [f"preset: {new}: nothing to change",
                                                "init: preset (pid 3) exited with status 0"], out


def test_no_start_debit_example_reads_as_documented(feature_line):
    # The README's example, spelled out: 2.6.35 -> no-start-debit.
    assert expected_changes("linux-2.6.35", "no-start-debit", feature_line) == [
        "kernel.sched_min_granularity_ns: 2000000 -> 750000",
        "kernel.sched_nr_latency: 3 -> 8",
        "sched_features: START_DEBIT -> NO_START_DEBIT",
        "kernel.sched_fork_update_clock: 0 -> 1",
        "kernel.sched_preset: linux-2.6.35 -> no-start-debit"]


def sched_debug_header(lines):
    """The configuration lines of /proc/sched_debug (.sysctl_*, .sched_nr_latency)."""
    return [l for l in lines if re.match(r"^  \.(sysctl_sched_\w+|sched_nr_latency)\s+:", l)]


@pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")
def test_sched_debug_after_preset_is_as_booted_with_it():
    a = boot('sched_preset=linux-2.6.35 run="preset no-start-debit; busybox cat /proc/sched_debug; '
             'busybox cat /proc/sys/kernel/sched_preset"')
    b = boot('sched_preset=no-start-debit run="busybox cat /proc/sched_debug; '
             'busybox cat /proc/sys/kernel/sched_preset"')
    check_clean(a)
    check_clean(b)
    # blocks() ends a block at busybox's exit line: a's first holds preset's output too.
    ha, hb = sched_debug_header(blocks(a)[0][0]), sched_debug_header(blocks(b)[0][0])
    assert len(ha) == 7 and ha == hb, (ha, hb)
    assert "  .sysctl_sched_features                   : 15469" in ha    # 0x3C6D: no START_DEBIT
    assert blocks(a)[1] == blocks(b)[1] == (["no-start-debit"], 0)


def results(run):
    return [json.loads(l[len("RESULT "):]) for l in run.lines if l.startswith("RESULT {")]


@pytest.mark.parametrize("name", ["no-start-debit", "dyn-gran"])
def test_experiment_after_preset_runs_as_booted_with_it(name):
    """The RESULT line carries the whole configuration (every sysctl, the
    variant knobs, nr_latency, the feature bits, the preset's name): after
    `preset NAME` it is that of a boot with sched_preset=NAME, and the load
    ran the same profile and did the same work, give or take the one job
    that a window edge cuts.  The latency figures (keys ending in _us) and
    the load's exact counts are not compared: the preset program runs
    before the experiment starts, which moves its start against the tick
    (as in test_shell_files' sysctl test), and a kernel change of a few
    instructions anywhere can move a job across the window's end."""
    a = boot(f'sched_preset=linux-2.6.35 run="preset {name}; {EXPERIMENT}"', timeout=300)
    b = boot(f'sched_preset={name} run="{EXPERIMENT}"', timeout=300)
    ra, rb = results(a), results(b)
    assert len(ra) == len(rb) == 2, (a.output[-2000:], b.output[-2000:])
    strip = lambda r: {k: v for k, v in r.items() if not MEASURED.search(k)}
    assert ra[0]["preset"] == name and strip(ra[0]) == strip(rb[0]), (ra[0], rb[0])
    timed = ("jobs", "jobs_per_s", "work_frac", "work_ms", "as_children", "tail_jobs")
    same = lambda r: {k: v for k, v in r.items() if k not in timed}
    assert ra[1]["bench"] == "kbuild-load" and same(ra[1]) == same(rb[1]), (ra[1], rb[1])
    assert abs(ra[1]["jobs"] - rb[1]["jobs"]) <= 1, (ra[1], rb[1])
    assert abs(ra[1]["work_frac"] - rb[1]["work_frac"]) <= 0.02, (ra[1], rb[1])


def test_listing_unknown_names_and_the_other_class():
    r = boot('sched_preset=linux-2.6.35 run="preset; preset nope; preset linux-6.12; preset"')
    check_clean(r, status=1)
    out = after_boot(r)
    names = [l.split("\t")[0] for l in open(PRESETS) if l.strip() and not l.startswith("#")]
    listed = [l for l in out[:len(names) + 1]]
    assert listed[0] == "presets (tools/presets; * = running, `preset NAME` switches):"
    rows = [re.match(r"^([ *]) (\S+)\s+(CFS|EEVDF)\s", l) for l in listed[1:]]
    assert [m.group(2) for m in rows] == names, listed
    assert [m.group(2) for m in rows if m.group(1) == "*"] == ["linux-2.6.35"]
    assert listed[-1].endswith(" [reboot with sched_preset=linux-6.12]"), listed[-1]
    i = len(names) + 2              # after init's line for the listing
    assert out[i].startswith("preset: unknown preset 'nope' (accepted: linux-2.6.35|"), out[i]
    assert "|linux-6.12, or the aliases dyn-gran+sleeper-slice|start-nice+debit)" in out[i]
    assert out[i + 1] == "init: preset (pid 3) exited with status 2"
    assert out[i + 2] == ("preset: linux-6.12 runs the EEVDF class, and the class is chosen at boot "
                          "(linux-2.6.35 runs CFS): reboot with sched_preset=linux-6.12; nothing changed")
    assert out[i + 3] == "init: preset (pid 4) exited with status 1"
    assert out[i + 5].startswith("* linux-2.6.35 "), out[i + 5]      # nothing changed


def test_under_eevdf_cfs_presets_need_a_reboot():
    r = boot('sched_preset=linux-6.12 run="preset no-start-debit; preset linux-6.12"')
    check_clean(r, status=1)
    out = after_boot(r)
    assert out[:4] == [
        "preset: no-start-debit runs the CFS class, and the class is chosen at boot (linux-6.12 runs "
        "EEVDF): reboot with sched_preset=no-start-debit; nothing changed",
        "init: preset (pid 2) exited with status 1",
        "preset: linux-6.12: nothing to change",
        "init: preset (pid 3) exited with status 0"], out
