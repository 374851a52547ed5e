"""Foundation: boot paths, banner, clock choice, ticking, determinism."""
import re

import pytest

from conftest import BANNER_RE, boot, check_clean


def ticks(run):
    """(ticks, elapsed us, HZ) from the boot's tick report: HZ/10 ticks timed
    edge to edge on sched_clock, so it should read 100 ms."""
    m = run.find(r"^timer: (\d+) ticks in (\d+) us \(HZ=(\d+)\)$")
    assert m, run.output
    n, us, hz = int(m.group(1)), int(m.group(2)), int(m.group(3))
    assert n == hz // 10
    return n, us, hz


def assert_100ms(us):
    # APIC: exact; PIT: divisor rounding makes 1000 HZ 999.847 us a tick.
    assert 99900 <= us <= 100100, us


def test_banner_is_first_line_and_boot_completes():
    r = boot()
    check_clean(r)
    assert re.match(BANNER_RE, r.lines[0]), r.lines[0]
    assert r.has_line("Boot complete")
    assert r.has_line("Boot loader: qemu (multiboot1)")


def test_multiboot1_kernel_name_is_stripped():
    r = boot("hz=250 poweroff=1")
    check_clean(r)
    assert r.has_line("Command line: hz=250 poweroff=1")


def test_grub_iso_boots_by_multiboot2_under_seabios():
    r = boot("hz=250", boot="iso", timeout=300)
    check_clean(r)
    assert r.find(r"^Boot loader: GRUB 2\.\S+ \(multiboot2\)$"), r.output
    assert r.has_line("Command line: hz=250")
    assert r.has_line("Boot complete")


@pytest.mark.parametrize("cpu", ["pentium3", "coreduo", "n270", "qemu32"])
def test_cpu_models_boot_and_tick_on_the_apic(cpu):
    r = boot(cpu=cpu)
    check_clean(r)
    assert r.find(r"^clocksource: tsc, \d+\.\d{3} MHz")
    assert r.find(r"^clockevent: lapic timer, periodic 1000 HZ")
    n, us, hz = ticks(r)
    assert hz == 1000
    assert_100ms(us)


def test_cpu_without_apic_falls_back_to_the_pit():
    r = boot(cpu="coreduo,-apic")
    check_clean(r)
    assert r.has_line("clockevent: pit, periodic 1000 HZ, tick 999847 ns "
                      "(no local APIC: CPUID.1:EDX.APIC clear)")
    n, us, hz = ticks(r)
    assert (n, us) == (100, 99984)    # 100 x 999.847 us


def test_clockevent_pit_knob():
    r = boot("clockevent=pit")
    check_clean(r)
    assert r.find(r"^clockevent: pit, periodic 1000 HZ, tick 999847 ns \(clockevent=pit\)$")


def test_clocksource_pit_knob_keeps_time():
    r = boot("clocksource=pit hz=250")
    check_clean(r)
    assert r.has_line("clocksource: pit tick count (clocksource=pit)")
    n, us, hz = ticks(r)
    assert hz == 250
    assert_100ms(us)
    # printk timestamps still advance monotonically on the PIT clock
    stamps = [float(m.group(1)) for m in
              (re.match(r"^\[\s*(\d+\.\d+)\]", l) for l in r.output.split("\n")) if m]
    assert stamps == sorted(stamps) and stamps[-1] >= 0.1


@pytest.mark.parametrize("hz", [100, 250, 300, 1000])
def test_hz_knob_sets_the_tick_rate(hz):
    r = boot(f"hz={hz}")
    check_clean(r)
    n, us, got = ticks(r)
    assert got == hz
    assert_100ms(us)


def test_two_runs_print_identical_bytes():
    a = boot("hz=300")
    b = boot("hz=300")
    check_clean(a)
    assert a.output == b.output
