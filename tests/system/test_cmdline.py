"""The boot knob registry as the user sees it over serial: the effective
table, and for every kind of bad input one exact error line, the old value
kept, and a boot that still completes."""
import pytest

from conftest import boot, check_clean


def test_knob_table_lists_effective_values():
    r = boot("hz=250 sysctl.kernel.clockevent=pit poweroff")
    check_clean(r)
    assert r.has_line("Kernel parameters:")
    for line in ("  hz = 250", "  clockevent = pit", "  clocksource = tsc", "  poweroff = 1"):
        assert r.has_line(line), line


def test_later_words_override_earlier_ones():
    r = boot("hz=100 hz=300")
    check_clean(r)
    assert r.has_line("  hz = 300")


BAD = [
    ("foo", "cmdline: passed to init's programs: foo", "  hz = 1000"),
    ("foo=bar", "cmdline: passed to init's programs: foo=bar", "  hz = 1000"),
    ("sched_min_granularity=1", "cmdline: unknown parameter 'sched_min_granularity' (did you mean "
     "sched_min_granularity_ns?); passed to init's programs", "  hz = 1000"),
    ("sched_latncy_ns=1", "cmdline: unknown parameter 'sched_latncy_ns' (did you mean sched_latency_ns?); "
     "passed to init's programs", "  hz = 1000"),
    ("hz=123", "cmdline: hz=123: invalid (expected one of 100|250|300|1000); keeping 1000", "  hz = 1000"),
    ("hz", "cmdline: hz: missing value (expected one of 100|250|300|1000)", "  hz = 1000"),
    ("hz=", "cmdline: hz=: invalid (expected one of 100|250|300|1000); keeping 1000", "  hz = 1000"),
    ("clockevent=hpet", "cmdline: clockevent=hpet: invalid (expected one of apic|pit); keeping apic",
     "  clockevent = apic"),
    ("poweroff=maybe", "cmdline: poweroff=maybe: invalid (expected 0 or 1); keeping 1", "  poweroff = 1"),
    ("sysctl.kernel.hz=7", "cmdline: sysctl.kernel.hz=7: invalid (expected one of 100|250|300|1000); keeping 1000",
     "  hz = 1000"),
    ("maxcpus=abc", "cmdline: maxcpus=abc: invalid (expected an integer 0..32); keeping 32", "  maxcpus = 32"),
    ("maxcpus=33", "cmdline: maxcpus=33: out of range (expected an integer 0..32); keeping 32", "  maxcpus = 32"),
    ("maxcpus=-1", "cmdline: maxcpus=-1: out of range (expected an integer 0..32); keeping 32", "  maxcpus = 32"),
    ("nosmp=2", "cmdline: nosmp=2: invalid (expected 0 or 1); keeping 0", "  nosmp = 0"),
    ("ktest=" + "x" * 40, "cmdline: ktest=" + "x" * 40 + ": too long (expected a string of at most 31 characters); keeping \"\"",
     "  ktest = "),
]


@pytest.mark.parametrize("word,error,kept", BAD, ids=[b[0][:20] for b in BAD])
def test_bad_knob_prints_one_line_and_keeps_default(word, error, kept):
    r = boot(word)
    check_clean(r)
    assert r.has_line(error), r.output
    assert r.has_line(kept), r.output
    assert r.has_line("Boot complete")


def test_maxcpus_zero_is_nosmp_not_an_error():
    # Linux 2.6.35 (init/main.c): "maxcpus=0" disables SMP like "nosmp".
    # Taken, no cmdline error; the boot log says only the boot CPU runs.
    r = boot("maxcpus=0", smp=2)
    check_clean(r)
    assert not r.find(r"^cmdline: maxcpus"), r.output
    assert r.has_line("  maxcpus = 0")
    assert r.has_line("2 Processors exceeds max_cpus limit of 0")
    assert r.has_line("SMP mode deactivated.")
    assert r.has_line("Brought up 1 CPUs")


def test_many_bad_words_at_once_still_boot():
    r = boot('hz=abc "unterminated quote clockevent= poweroff=2 ' + "z" * 900)
    check_clean(r)
    assert r.has_line("Boot complete")


def test_bad_sched_features_word_is_one_line():
    r = boot("sched_features=NO_START_DEBIT,NO_FOO")
    check_clean(r)
    lines = [l for l in r.lines if "sched_features" in l and ("FOO" in l or "invalid" in l)
             and not l.startswith("Command line:")]
    assert len(lines) == 1, lines
    assert lines[0].startswith("sched_features: unknown feature 'FOO'; known: GENTLE_FAIR_SLEEPERS ")
    assert lines[0].endswith("; nothing changed")
    assert r.has_line("  sched_features = 0x3C6F (default)")
