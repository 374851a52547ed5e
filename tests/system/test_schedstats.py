"""schedstats as a switch (Linux 4.6's static key): `schedstats=enable|disable`
on the boot line, `kernel.sched_schedstats` 0/1 at run time.

- bad values at boot: one line each (knob, value, what is accepted), nothing
  changes;
- the presets' defaults: on for the 2.6.35-era presets, off for linux-6.12,
  which sched_debug=end reports;
- at run time: usertests' proc_sys_schedstats writes the file (0, 1, bad
  values refused);
- microbench with schedstats=disable: the yield switch and the timer wake
  within their targets, and the switch both ways (docs/FASTPATHS.md).
Figures are exact under -icount; the bounds are the docs' targets.
"""
import json

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
    """The issue's targets with schedstats off (virtual ns under -icount;
    docs/FASTPATHS.md): the yield switch <= 600 and the timer wake <= 1,500,
    both ways of the switch, and regression guards a little above today's
    figures (599.1, 595.2 off, 700.2 on, 1,486.4 in this boot, with the tick's
    accounting, the SMP kernel's three instructions, sched_yield's rq-lock
    site and the timer wake's per-CPU hrtimer base: FASTPATHS.md, "The
    accounting on the tick", "Shootdowns, safe reaping and the balancer", the
    yield's paragraph after "Placement" and the per-CPU timers' section),
    so that nothing creeps back unnoticed: schedstats off still saves most of
    the 99 instructions FASTPATHS.md itemises.  The schedstats-on figure
    carries its loop's share of ticks, which moves with the boot's length
    (FASTPATHS.md): its guard is 705."""
    m = microbench_off()
    assert m["timer_wake_late_ns"] <= 1500
    assert m["ctxsw_yield_ns"] <= 600
    on, off = m["ctxsw_yield_schedstats_on_ns"], m["ctxsw_yield_schedstats_off_ns"]
    assert off <= 600 and on <= 705 and on - off >= 80
    assert m["timer_wake_late_ns"] <= 1495
    assert m["ctxsw_yield_ns"] <= 599.5 and off <= 597
    assert m["ctxsw_yield_schedstats_off_vs_linux"] == float("%.3f" % (off / 2159 + 1e-9))
