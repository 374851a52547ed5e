"""The lock validator (docs/ARCHITECTURE.md, "Locking", "The validator"):
ktest=lockdep under lockdep=1 provokes each report at boot and the lines
are Linux's; the kernel's own locks under lockdep=1 at -smp 2 (ktest=smp's
cross calls) report nothing; lockdep=2 gets the knob's one-line error and
the validator stays off; /proc/lockdep_stats counts what it saw.
"""
import re

from conftest import boot, check_clean

IP = r"\[<c0[0-9a-f]{6}>\]"


def report(r, title):
    """The lines of the report whose banner is TITLE, up to the ktest line after it."""
    lines = r.lines
    start = lines.index(f"[ {title} ]")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("ktest: lockdep: "))
    return lines[start - 1:end]


def test_ktest_provokes_each_report():
    r = boot('lockdep=1 ktest=lockdep run=')
    check_clean(r, bug=True)
    assert r.has_line("lockdep: the lock validator is on: 256 classes, 1024 dependencies, "
                      "48 locks held per CPU at most")
    for name, said in [("clean", "no report"), ("AB-BA", "reported"), ("recursive", "reported"),
                       ("irq-unsafe use", "reported"), ("safe -> unsafe", "reported"),
                       ("bad unlock", "reported"), ("held to user", "reported")]:
        assert r.has_line(f"ktest: lockdep: {name}: {said}"), r.output[-3000:]
    assert r.has_line("ktest: lockdep: passed"), r.output[-3000:]

    ab = "\n".join(report(r, "INFO: possible circular locking dependency detected"))
    # both orders, each lock with the place it was taken
    assert re.search(rf"swapper/0 is trying to acquire lock:\n \(lock_a\)\{{\.\}}, at: {IP}\n", ab), ab
    assert re.search(rf"but task is already holding lock:\n \(lock_b\)\{{\.\}}, at: {IP}\n", ab), ab
    assert re.search(rf"-> #1 \(lock_b\)\{{\.\}}:\n +{IP}\n +while holding \(lock_a\)\{{\.\}} taken at {IP}\n", ab), ab
    assert re.search(rf"-> #0 \(lock_a\)\{{\.\}}:\n +{IP}\n +while holding \(lock_b\)\{{\.\}} taken at {IP}\n", ab), ab
    assert re.search(rf"1 lock held by swapper/0:\n #0:  \(lock_b\)\{{\.\}}, at: {IP}", ab), ab

    rec = "\n".join(report(r, "INFO: possible recursive locking detected"))
    assert rec.count("(&pair[i]){.}, at: ") == 3, rec    # the init site names the class

    irq = "\n".join(report(r, "INFO: inconsistent lock state"))
    assert "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage." in irq, irq
    assert re.search(rf"swapper/0 \[HC0\[0\]\] takes:\n \(lock_c\)\{{\?\}}, at: {IP}\n"
                     rf"\{{IN-HARDIRQ-W\}} state was registered at:\n  {IP}", irq), irq

    su = "\n".join(report(r, "INFO: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected"))
    assert "which would create a new lock dependency:\n (lock_d){+} -> (lock_e){-}" in su, su
    assert re.search(rf"\.\.\. which became HARDIRQ-irq-safe at:\n  {IP}", su), su
    assert re.search(rf"\.\.\. which became HARDIRQ-irq-unsafe at:\n  {IP}", su), su

    bad = "\n".join(report(r, "BUG: bad unlock balance detected!"))
    assert re.search(rf"is trying to release lock\n \(lock_f\) at:\n{IP}\nbut there are no more locks to release!",
                     bad), bad

    user = "\n".join(report(r, "BUG: lock held when returning to user space!"))
    assert "swapper/0 is leaving the kernel with locks still held!" in user, user
    assert " #0:  (lock_g){.}, at: " in user, user


def test_kernel_locks_clean_at_smp2():
    r = boot('lockdep=1 ktest=smp run="cat /proc/lockdep_stats"', smp=2)
    check_clean(r)
    assert r.has_line("ktest: smp: passed"), r.output[-3000:]
    assert not any("INFO:" in l or "BUG:" in l for l in r.lines), r.output[-3000:]
    stats = dict(re.findall(r"^ ([a-z_ -]+?): +(\d+)", r.output, re.M))
    # the cross calls' locks, and the leaf locks ktest=smp takes from two CPUs:
    # zone->lock, the kmalloc caches' list_lock and large_lock, logbuf_lock;
    # zone->lock under a cache's list_lock and under large_lock (2 dependencies)
    assert int(stats["lock-classes"]) >= 9, r.output[-1500:]
    assert int(stats["direct dependencies"]) >= 3, r.output[-1500:]
    assert int(stats["acquisitions"]) > 0
    assert stats["reports"] == "0" and stats["debug_locks"] == "1"


def test_bad_value_and_ktest_without_it():
    r = boot('lockdep=2 ktest=lockdep run="cat /proc/lockdep_stats"')
    check_clean(r)
    assert r.has_line("cmdline: lockdep=2: invalid (expected 0 or 1); keeping 0"), r.output[-3000:]
    assert r.has_line("ktest: lockdep: FAILED (needs lockdep=1)")
    assert not any(l.startswith("lockdep: the lock validator is on") for l in r.lines)
    assert re.search(r"^ acquisitions: +0$", r.output, re.M)
    assert re.search(r"^ debug_locks: +0$", r.output, re.M)
