"""Linux 6.12's load balancer under sched_preset=linux-6.12
(kernel/sched/eevdf_lb_stats.c, eevdf_balance.c; docs/SCHEDULER.md,
"6.12's balancer").

Two CPU hogs (busybox yes) start pinned to CPU 0 (taskset 1) and, once
running, are allowed every CPU (taskset -p).  The idle CPUs then find
CPU 0's group overloaded (two tasks on one CPU, utilisation near 1024 >
1024 * 100 / 125) and their own with spare capacity; both groups share
the last-level cache and hold one CPU each, so 6.12 counts the imbalance
in *tasks* (migrate_task: sibling_imbalance(2 - 0) halved = 1), where
2.6.35's find_busiest_group() counted weight (a nice-0 task: 1024 and up;
before this balancer, 3072 over the window at two CPUs, in 3 passes).  One
hog moves, and the two end on different CPUs.
"""
import re

import pytest

from conftest import boot, check_clean

IDLE, BUSY, NEWLY = 0, 1, 2
FIELDS = ("count", "balanced", "failed", "imbalance", "gained", "hot_gained", "nobusyq", "nobusyg")


def domain_stats(block):
    """{cpu: {idle_type: {field: n}}} of one /proc/schedstat dump (domain0 lines)."""
    out, cpu = {}, None
    for line in block:
        m = re.match(r"^cpu(\d+) ", line)
        if m:
            cpu = int(m.group(1))
        m = re.match(r"^domain0 [0-9a-f]+ ((?:\d+ ?)+)$", line)
        if m and cpu is not None:
            n = [int(x) for x in m.group(1).split()]
            out[cpu] = {t: dict(zip(FIELDS, n[8 * t:8 * t + 8])) for t in (IDLE, BUSY, NEWLY)}
    return out


def dumps(r):
    """The /proc/schedstat dumps of run R, each a list of lines."""
    blocks, cur = [], None
    for line in r.lines:
        if line == "version 15":
            cur = []
            blocks.append(cur)
        elif cur is not None and re.match(r"^(timestamp|cpu\d|domain\d)", line):
            cur.append(line)
    return blocks


@pytest.mark.parametrize("cpus", [2, 4])
def test_an_idle_cpu_pulls_a_hog_counting_tasks(cpus):
    mask = (1 << cpus) - 1
    hogs = ("busybox taskset 1 busybox yes > /dev/null & A=$!; "
            "busybox taskset 1 busybox yes > /dev/null & B=$!; usleep 100000; cat /proc/schedstat; "
            f"busybox taskset -p {mask:x} $A; busybox taskset -p {mask:x} $B; usleep 200000; "
            "cat /proc/$A/stat /proc/$B/stat; cat /proc/schedstat; kill $A $B")
    r = boot(f"sched_preset=linux-6.12 schedstats=enable run=\"busybox sh -c '{hogs}'\"",
             smp=cpus, timeout=120)
    check_clean(r)
    before, after = (domain_stats(b) for b in dumps(r))
    stats = [l.split() for l in r.lines if re.match(r"^\d+ \(busybox\) R ", l)]
    assert len(stats) == 2, r.output[-3000:]
    where = sorted(int(s[38]) for s in stats)         # field 39: the CPU it last ran on
    assert where[0] != where[1], (where, r.output[-3000:])
    # over the window the idle and newly idle balances moved a hog, and each
    # pass that found an imbalance counted it in tasks (migrate_task: 1 a
    # pass; a pass still meeting the pinned hogs counts 1 and redoes), not in
    # weight (2.6.35: 1024 and more a pass)
    delta = {f: sum(after[c][t][f] - before[c][t][f] for c in range(cpus) for t in (IDLE, NEWLY))
             for f in FIELDS}
    assert delta["gained"] >= 1, (before, after)
    assert 1 <= delta["imbalance"] <= 2 * delta["count"], (delta, before, after)
