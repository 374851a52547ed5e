"""Foundation: boot paths, banner, clock choice, ticking, determinism, and
what init runs when the boot line says nothing.

These boots are headless: granule.qemu's run() puts `run=` (nothing, power
off) in front of a command line without run=, as the kernel's own default
would start the login shell and wait at its prompt."""
import os
import re
import subprocess

import pytest

from conftest import BANNER_RE, boot, check_clean

from granule import qemu as gq

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


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
    assert r.has_line("Command line: run= hz=250 poweroff=1")


def test_grub_iso_boots_by_multiboot2_under_seabios():
    r = boot("hz=250", boot="iso", timeout=300)
    check_clean(r)
    assert r.find(r"^Boot loader: GRUB 2\.\S+ \(multiboot2\)$"), r.output
    assert r.has_line("Command line: run= hz=250")
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


def test_empty_run_runs_nothing_and_powers_off():
    r = boot("run=")
    check_clean(r, status=0)
    lines = r.lines[r.lines.index("Boot complete") + 1:]
    assert lines[0] == "init: run= is empty: nothing to run", lines
    assert "Powering off (status 0)" in lines[1], lines


def test_headless_boots_get_run_in_front():
    assert gq.headless_cmdline("") == "run="
    assert gq.headless_cmdline("hz=250") == "run= hz=250"
    assert gq.headless_cmdline('hz=1 run="hello"') == 'hz=1 run="hello"'
    assert gq.headless_cmdline("run=shell") == "run=shell"
    assert gq.headless_cmdline("sched_preset=x prerun=1") == "run= sched_preset=x prerun=1"


@pytest.fixture(scope="module")
def kernel_without_busybox():
    """build/nobusybox/granule.elf: the same sources built with BUSYBOX=0
    (make is incremental: the first run compiles, later ones relink or
    nothing)."""
    out = os.path.join("build", "nobusybox")
    subprocess.run(["make", "-s", "-j2", f"BUILD={out}", "BUSYBOX=0", f"{out}/granule.elf"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, out, "granule.elf")


def test_without_busybox_no_run_says_so_and_powers_off(kernel_without_busybox):
    # No run= (an interactive boot: nothing is added to the line): init has
    # no shell to start, says so in one line and powers off at once.
    with gq.Console("", kernel=kernel_without_busybox, timeout=60) as c:
        c.expect("Boot complete\n")
        out = c.expect("Powering off (status 0)")
        assert c.wait() == 0
    lines = [l for l in out.split("\n") if l]
    assert lines[0] == ("init: no run= on the boot line and no /bin/busybox in this image "
                        "(built with BUSYBOX=0) for the login shell: nothing to run"), lines
    assert len(lines) == 2, lines


def test_without_busybox_run_shell_says_so_and_goes_on(kernel_without_busybox):
    r = boot("run=\"shell; hello\"", kernel=kernel_without_busybox)
    check_clean(r, status=0)
    assert r.has_line("init: no /bin/busybox in this image (built with BUSYBOX=0): no shell")
    assert r.find(r"^hello from user space \(pid 2\)$"), r.output[-2000:]
