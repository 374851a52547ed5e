"""schedstats as a switch (Linux 4.6's static key): `schedstats=enable|disable`
on the boot line, `kernel.sched_schedstats` 0/1 at run time.

- bad values at boot: one line each (knob, value, what is accepted), nothing
  changes;
- the presets' defaults: on for the 2.6.35-era presets, off for linux-6.12,
  which sched_debug=end reports;
- at run time: usertests' proc_sys_schedstats writes the file (0, 1, bad
  values refused);
- microbench with schedstats=disable: the yield switch and the timer wake
  against their targets, and the switch both ways (docs/FASTPATHS.md).
Figures are exact under -icount; the bounds are the docs' targets.
"""
import json

import pytest

from conftest import boot, boot_usertests, check_clean

NOTE = ("sched_debug: schedstats were off (schedstats=disable or kernel.sched_schedstats=0) "
        "for all or part of the run")


def test_bad_values_at_boot_change_nothing():
    r = boot("schedstats=yes sched_schedstats=2 sysctl.kernel.sched_schedstats=enable "
             "run=hello sched_debug=end")
    check_clean(r)
    assert r.has_line("cmdline: schedstats=yes: invalid (expected enable|disable); keeping enable")
    assert any(l.startswith("cmdline: sched_schedstats=2: ") and l.endswith("keeping 1")
               for l in r.lines), r.output[-3000:]
    assert any(l.startswith("cmdline: sysctl.kernel.sched_schedstats=enable: ")
               or l.startswith("cmdline: sched_schedstats=enable: ") for l in r.lines)
    assert r.has_line("  sched_schedstats = 1")
    assert r.has_line("  schedstats = enable")
    assert NOTE not in r.output
    assert any(l.startswith("schedstats: (times in ms;") for l in r.lines)


def test_presets_defaults_and_the_report():
    r = boot("sched_preset=linux-6.12 run=hello sched_debug=end")
    check_clean(r)
    assert r.has_line("  sched_schedstats = 0")
    assert NOTE in r.output
    r = boot("sched_preset=linux-6.12 schedstats=enable run=hello sched_debug=end")
    check_clean(r)
    assert r.has_line("  sched_schedstats = 1")
    r = boot("sched_preset=linux-2.6.35 run=hello sched_debug=end")
    check_clean(r)
    assert r.has_line("  sched_schedstats = 1")
    assert NOTE not in r.output


def test_sysctl_at_run_time():
    boot_usertests(["proc_sys_schedstats"])


def microbench_off():
    r = boot('run="microbench -s 1" schedstats=disable')
    check_clean(r)
    return [json.loads(l[len("RESULT "):]) for l in r.lines if l.startswith("RESULT {")][0]


def test_microbench_schedstats_disable_bounds():
    """Regression guards at today's figures on the merged kernel (virtual ns under
    -icount; docs/FASTPATHS.md): schedstats off saves most of the 99 instructions
    FASTPATHS.md itemises, and nothing has crept back."""
    m = microbench_off()
    assert m["timer_wake_late_ns"] <= 1515
    assert m["ctxsw_yield_ns"] <= 730
    on, off = m["ctxsw_yield_schedstats_on_ns"], m["ctxsw_yield_schedstats_off_ns"]
    assert off <= 730 and on - off >= 80
    assert m["ctxsw_yield_schedstats_off_vs_linux"] == float("%.3f" % (off / 2159 + 1e-9))


@pytest.mark.xfail(strict=True, reason="the issue's targets are not met yet: yield switch 723.9 "
                   "(target 600), timer wake 1512.1 (target 1500) after the real-time class merge")
def test_microbench_schedstats_disable_targets():
    m = microbench_off()
    assert m["timer_wake_late_ns"] <= 1500 and m["ctxsw_yield_schedstats_off_ns"] <= 600
