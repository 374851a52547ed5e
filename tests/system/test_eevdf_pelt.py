"""PELT under the EEVDF class (sched_preset=linux-6.12; kernel/sched/pelt.c
and eevdf_pelt.c, Linux 6.12's per-entity load tracking), read back from
/proc/PID/sched (exact under -icount):

- the eight se.avg lines stand where 6.12's proc_sched_show_task() prints
  them, after se.load.weight and before policy, in the file (EEVDF's lines
  of /proc/PID/sched and /proc/sched_debug used to go to the console);
- a shell that has just spun (a busy loop of its own) shows util_avg and
  load_avg near 1024 and its last_update_time a multiple of 1024 ns;
- after a 1 s sleep (954 periods of 1.048576 ms, 2^-29.8) its util_avg is
  gone, while util_est still holds what util_avg was when it went to sleep
  (a rise is taken at once: no smoothing upwards) - util_est's purpose;
- CFS (the default preset) prints none of it.
"""

import re

from conftest import boot, check_clean

LOAD_AVG_MAX = 47742
AVG_LINES = ["se.avg.load_sum", "se.avg.runnable_sum", "se.avg.util_sum", "se.avg.load_avg",
             "se.avg.runnable_avg", "se.avg.util_avg", "se.avg.last_update_time",
             "se.avg.util_est"]
# the shell spins (20000 rounds of its own arithmetic), reads its sched
# file, sleeps a second and reads it again
SPIN_SLEEP = ("busybox sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; "
              "cat /proc/$$/sched; sleep 1; cat /proc/$$/sched'")


def sched_blocks(run):
    """Each /proc/PID/sched dump of RUN: [(name, value)] in order."""
    blocks, cur = [], None
    for line in run.lines:
        if re.match(r"^\S+ \(\d+, #threads: \d+\)$", line):
            cur = []
            blocks.append(cur)
        elif cur is not None:
            m = re.match(r"^(\S+)\s*:\s*(-?[\d.]+)$", line)
            if m:
                cur.append((m.group(1), m.group(2)))
            elif not line.startswith("---"):
                cur = None
    return blocks


def test_pelt_of_a_spinner_then_a_sleeper():
    r = boot(f'sched_preset=linux-6.12 run="{SPIN_SLEEP}"')
    check_clean(r)
    blocks = sched_blocks(r)
    assert len(blocks) == 2, r.output[-3000:]
    spun, slept = ({k: int(v) for k, v in b if k.startswith("se.avg.")} for b in blocks)
    for b in blocks:
        names = [k for k, _ in b]
        i = names.index("se.load.weight")
        assert names[i + 1:i + 1 + len(AVG_LINES)] == AVG_LINES, names
        assert names[i + 1 + len(AVG_LINES)] == "policy", names
        assert names[-5:] == ["se.deadline", "se.slice", "se.vlag", "se.custom_slice",
                              "se.sched_delayed"], names     # in the file, not on the console

    assert 1000 <= spun["se.avg.util_avg"] <= 1024, spun
    assert 1000 <= spun["se.avg.load_avg"] <= 1024, spun         # nice 0: weight 1024
    assert 1000 <= spun["se.avg.runnable_avg"] <= 1024, spun
    assert spun["se.avg.load_sum"] <= LOAD_AVG_MAX, spun
    assert spun["se.avg.last_update_time"] % 1024 == 0, spun

    assert slept["se.avg.util_avg"] <= 2, slept
    assert slept["se.avg.load_avg"] <= 2, slept
    assert slept["se.avg.last_update_time"] - spun["se.avg.last_update_time"] >= 10**9
    assert 1000 <= slept["se.avg.util_est"] <= spun["se.avg.util_avg"], (spun, slept)


def test_cfs_prints_no_pelt():
    r = boot('run="cat /proc/self/sched"')
    check_clean(r)
    assert "se.load.weight" in r.output
    assert "se.avg." not in r.output
