"""tools/presets is the one list of scheduler presets: the kernel's
sched_presets[] is generated from it (tools/genpresets), tools/mkiso and
tools/bench read it.  These tests boot each preset and check that the kernel
applies exactly the file's settings, and that the generator refuses a bad line.
"""
import os
import re
import subprocess

import pytest

from conftest import boot, check_clean

TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "tools")
PRESETS = os.path.join(TOOLS, "presets")
SYSCTL = {  # tools/presets setting -> the line sched_print_tunables prints
    "latency": "kernel.sched_latency_ns", "min_gran": "kernel.sched_min_granularity_ns",
    "wakeup_gran": "kernel.sched_wakeup_granularity_ns", "nr_latency": "sched_nr_latency",
    "std_gran": "sched_std_granularity_ns", "nr_latency_max": "sched_nr_latency_max",
    "sleeper_slice": "sched_sleeper_wakeup_slice_ns", "fork_update_clock": "sched_fork_update_clock",
}


def ns(text):
    return round(float(text[:-2]) * 1e6) if text.endswith("ms") else int(text)


def presets():
    """{name: (settings, features set, features cleared, alias)} read from the file."""
    out = {}
    for line in open(PRESETS):
        if not line.strip() or line.startswith("#"):
            continue
        name, _desc, words = line.rstrip("\n").split("\t")
        if words == "class=eevdf":
            continue    # EEVDF: no CFS settings (tests/system/test_eevdf.py)
        settings, fset, fclear, alias = {}, set(), set(), None
        for word in words.split():
            key, value = word.split("=")
            if key == "features":
                fset = {f[1:] for f in value.split(",") if f[0] == "+"}
                fclear = {f[1:] for f in value.split(",") if f[0] == "-"}
            elif key == "alias":
                alias = value
            else:
                settings[key] = ns(value)
        out[name] = (settings, fset, fclear, alias)
    return out


def printed(run):
    """The scheduler settings the boot log printed: {line name: value}, features as a set."""
    vals = {}
    for l in run.lines:
        m = re.match(r"^(kernel\.sched_\w+|sched_\w+) = (.*)$", l)
        if m:
            vals[m.group(1)] = m.group(2)
    vals["sched_features"] = {f for f in vals["sched_features"].split() if not f.startswith("NO_")}
    return vals


@pytest.fixture(scope="module")
def default_features():
    run = boot("run=hello")
    check_clean(run)
    return printed(run)["sched_features"]


@pytest.mark.parametrize("name", sorted(presets()))
def test_kernel_applies_the_file(name, default_features):
    settings, fset, fclear, alias = presets()[name]
    for spelling in [name] + ([alias] if alias else []):
        run = boot(f"sched_preset={spelling} run=hello")
        check_clean(run)
        vals = printed(run)
        assert vals["sched_preset"] == name
        for key, line in SYSCTL.items():
            assert int(vals[line]) == settings[key], (spelling, key)
        assert vals["sched_features"] == (default_features | fset) - fclear, spelling


def test_generator_refuses_a_bad_line(tmp_path):
    good = [l for l in open(PRESETS) if l.strip() and not l.startswith("#")][0]
    for bad, why in [(good.replace("nr_latency=3 ", ""), "missing nr_latency"),
                     (good.replace("latency=6ms", "latency=6xs"), "bad value"),
                     (good.rstrip("\n") + " features=+NO_SUCH_FEATURE\n", "bad value"),
                     (good.rstrip("\n") + " colour=blue\n", "unknown setting")]:
        path = tmp_path / "presets"
        path.write_text(bad)
        p = subprocess.run([os.path.join(TOOLS, "genpresets"), str(path)],
                           capture_output=True, text=True)
        assert p.returncode != 0 and why in p.stderr, (bad, p.stderr)
    path.write_text(good)
    p = subprocess.run([os.path.join(TOOLS, "genpresets"), str(path)],
                       capture_output=True, text=True, check=True)
    assert p.stdout.count("\n{ ") == 1


def test_user_table_has_every_preset_and_the_kernels_order():
    # user/preset.c's table (tools/genpresets --user): every line of the file,
    # EEVDF's too, in file order; a CFS preset's writes in sched_preset_apply's order.
    p = subprocess.run([os.path.join(TOOLS, "genpresets"), "--user", PRESETS],
                       capture_output=True, text=True, check=True)
    rows = [l for l in p.stdout.splitlines() if l.startswith("{ ")]
    names = [l.split("\t")[0] for l in open(PRESETS) if l.strip() and not l.startswith("#")]
    assert [re.match(r'^\{ "([^"]+)"', r).group(1) for r in rows] == names
    order = ["sched_latency_ns", "sched_min_granularity_ns", "sched_wakeup_granularity_ns",
             "sched_nr_latency", "sched_features", "sched_std_granularity_ns", "sched_nr_latency_max",
             "sched_sleeper_wakeup_slice_ns", "sched_fork_update_clock"]
    for name, row in zip(names, rows):
        files = re.findall(r'\{ "(sched_\w+)", ', row)
        if name == "linux-6.12":
            assert ', 1, { ' in row and files == ["sched_base_slice_ns", "sched_features"], row
            continue
        assert files == order, row
        settings, fset, fclear, _alias = presets()[name]
        assert f'{{ "sched_nr_latency", "{settings["nr_latency"]}" }}' in row
        feats = re.search(r'\{ "sched_features", "([^"]+)" \}', row).group(1).split()
        # the default mask 0x3C6F (kernel/sched/features.h: 2.6.35's defaults), then the preset's +/-
        assert {f for f in feats if not f.startswith("NO_")} == ({"GENTLE_FAIR_SLEEPERS", "START_DEBIT",
                "WAKEUP_PREEMPT", "AFFINE_WAKEUPS", "LAST_BUDDY", "CACHE_HOT_BUDDY", "LB_BIAS",
                "LB_SHARES_UPDATE", "ASYM_EFF_LOAD", "OWNER_SPIN"} | fset) - fclear, name
