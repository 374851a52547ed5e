"""Each CPU's hrtimer queue and clock event (docs/ARCHITECTURE.md, "SMP bring-up": each
CPU's tick and timers; kernel/time/hrtimer.c, Linux 2.6.35's per-CPU hrtimer_bases).

A SCHED_FIFO thread pinned to CPU 1 sleeps to absolute 250 us deadlines
(cyclictest's clock_nanosleep TIMER_ABSTIME loop): its timer is queued on CPU 1
and CPU 1's local APIC fires it, so it wakes as late as the same thread on CPU 0
does. With one queue, the boot CPU's, it waited for CPU 0's next event,
usually its tick: 765 us at most and 678 on average (written before the
change and seen failing so).
"""
import os
import re
from collections import Counter

import pytest

from conftest import boot, check_clean

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODULE = os.path.join(ROOT, "build", "rt-tests", "rt-tests.tar")

pytestmark = pytest.mark.skipif(not os.path.exists(MODULE),
                                reason="no build/rt-tests (make deps fetches it)")

LOOPS = 2000


def cyclictest_rows(r):
    """[{Min, Avg, Max, C}] of each cyclictest summary line, in order."""
    rows = []
    for line in r.lines:
        if line.startswith("T: 0 "):
            rows.append({k: int(v) for k, v in re.findall(r"(Min|Avg|Max|C):\s*(\d+)", line)})
    return rows


def test_a_timer_armed_on_cpu1_fires_from_cpu1():
    ct = f"/usr/bin/cyclictest -t1 -p 80 -i 250 -l {LOOPS} -q"
    r = boot(f"run=\"busybox sh -c '{ct} -a 1; {ct} -a 0'\"", extra=["-initrd", MODULE],
             smp=2, timeout=300)
    check_clean(r)
    on1, on0 = cyclictest_rows(r)
    assert on1["C"] == on0["C"] == LOOPS, r.output[-2000:]
    # CPU 0's figures are the one-CPU bound: CPU 1's wakeups are as prompt.
    assert on0["Max"] <= 5, on0
    assert on1["Max"] <= on0["Max"] + 3 and on1["Avg"] <= on0["Avg"] + 1, (on1, on0)


@pytest.mark.parametrize("word", ["highres=off", "clockevent=pit"])
def test_a_timer_armed_on_cpu1_fires_without_one_shot_devices(word):
    """highres=off: CPU 1's periodic local APIC tick runs CPU 1's due timers
    (hrtimer_run_queues() from timer_tick_secondary()); clockevent=pit: CPU 1 has
    no tick, so a timer armed there goes to the boot CPU's queue, which the
    PIT's tick runs. Either way every sleep ends, at most a tick late (1 ms,
    HZ=1000, plus the wakeup)."""
    ct = "/usr/bin/cyclictest -t1 -p 80 -i 250 -l 400 -q -a 1"
    r = boot(f"{word} run=\"{ct}\"", extra=["-initrd", MODULE], smp=2, timeout=300)
    check_clean(r)
    on1, = cyclictest_rows(r)
    assert on1["C"] == 400, r.output[-2000:]
    assert on1["Max"] <= 1100, on1



# ---- a halted CPU beside a busy one: the machine (docs/SCHEDULER.md, "Latency, measured") ----

def test_a_halted_cpu_beside_a_busy_one_waits_half_the_busy_ones_way_to_its_next_timer():
    """QEMU's round robin under -icount, not the kernel.  CPU 0 spins; cyclictest
    sleeps on halted CPU 1 to deadlines 1.5 ms apart.  When CPU 1's timer is due,
    QEMU starts a round (accel/tcg/tcg-accel-ops-rr.c, rr_cpu_thread_fn()) with
    CPU 0, for icount_percpu_budget(): the virtual time to the next deadline of any
    timer, over the number of vCPUs; here CPU 0's next tick, 1/2 of the way there.
    The deadlines fall alternately p and p + 500 us after one of CPU 0's ticks
    (1500 mod 1000), so the wakeups are late by (1000 - p) / 2 and (500 - p) / 2 in
    turn: two values 250 us apart, whatever p is, against 1-2 us on an idle
    machine (test_a_timer_armed_on_cpu1_fires_from_cpu1).  A cost in the kernel's
    wakeup path would be the same on every wakeup."""
    ct = "/usr/bin/cyclictest -t1 -p 80 -i 1500 -l 300 -v -a 1"
    r = boot(f"run=\"busybox sh -c 'taskset 1 spin -w 0 -t 2000 -q 0 & sleep 1; {ct}; wait'\"",
             extra=["-initrd", MODULE], smp=2, timeout=300)
    check_clean(r)
    lat = [int(m.group(1)) for m in (re.match(r"^\s*0:\s+\d+:\s+(\d+)\s*$", l) for l in r.lines) if m]
    assert len(lat) == 300, r.output[-2000:]
    def near(v):
        return sum(1 for x in lat if abs(x - v) <= 2)
    top = Counter(lat).most_common(1)[0][0]
    other = max((top - 250, top + 250), key=near)
    assert min(top, other) >= 100, Counter(lat).most_common(8)
    assert near(top) + near(other) >= 0.85 * len(lat), Counter(lat).most_common(8)


# ---- cyclictest at four CPUs under kbuild (docs/SCHEDULER.md, "Latency, measured") ----

UP_BOUND = 25     # us: the same command at -smp 1 has maxima 7, 22, 4 and 11


def ct_rows(r):
    return [{k: int(v) for k, v in re.findall(r"(Min|Avg|Max|C):\s*(\d+)", l)}
            for l in r.lines if re.match(r"^T: \d ", l)]


@pytest.mark.xfail(strict=True, reason="the machine: under -icount QEMU runs the vCPUs round-robin "
                   "on one thread, and a woken vCPU waits for the busy ones' budgets "
                   "(tcg-accel-ops-icount.c, icount_percpu_budget()); Linux 6.1 and 6.12 at -smp 4 "
                   "under the same load reach 935 and 1619 us, 6 at -smp 1 (docs/SCHEDULER.md)")
@pytest.mark.parametrize("pin", ["", "-a"])
def test_cyclictest_under_kbuild_at_four_cpus_within_the_one_cpu_bound(pin):
    """cyclictest -t 4 [-a] -p 80 beside kbuild-load -j 10 at -smp 4: every
    thread's maximum within what one CPU holds. Before the giant lock belonged
    to the task: 132, 330, 95, 268 us (-a: 100, 215, 97, 332)."""
    r = boot(f"run=\"busybox sh -c 'kbuild-load -j 10 -d 4 -q & sleep 1; "
             f"/usr/bin/cyclictest -t 4 {pin} -p 80 -q -D 1; wait'\"",
             extra=["-initrd", MODULE], smp=4, timeout=400)
    check_clean(r)
    rows = ct_rows(r)
    assert len(rows) == 4 and all(t["C"] > 0 for t in rows), r.output[-2000:]
    assert '"failed_forks":0' in r.output
    assert max(t["Max"] for t in rows) <= UP_BOUND, rows
