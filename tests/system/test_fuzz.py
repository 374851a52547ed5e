"""fuzz (user/tests/fuzz.c): random system calls from seeded batches of
workers, with the scheduler's invariant checker on.  Zero panics, hangs,
invariant violations, unkillable workers and leaked frames is the only pass;
the counts printed must be exact (they add up), and the same seed must give
the same RESULT line again (the run is deterministic under -icount).
docs/ROBUSTNESS.md describes the fuzzer and how to replay a seed."""
import json
import re

import pytest

from conftest import boot, check_clean

# A seed whose 12 batches pass on this kernel (~1.4 s of guest time); any
# seed must pass - `make fuzz FUZZ_SEED=N` runs others for longer.
SEED = 13
BATCHES = 12


def result(run):
    m = run.find(r"RESULT (\{.*\})$")
    assert m, run.output[-3000:]
    return json.loads(m.group(1))


def per_call_counts(run):
    counts = {}
    for l in run.lines:
        m = re.search(r"fuzz: calls by number:((?: \w+=\d+)+)$", l)
        if m:
            for name, n in re.findall(r"(\w+)=(\d+)", m.group(1)):
                counts[name] = counts.get(name, 0) + int(n)
    return counts


def worker_calls(run, batch):
    """{worker: [call names]} of BATCH, from the -v lines."""
    calls, inside = {}, False
    for l in run.lines:
        if re.search(r"fuzz: batch \d+:", l):
            inside = re.search(rf"fuzz: batch {batch}:", l) is not None
            continue
        m = re.search(r"fuzz: (w\d) (\w+)\(0x[0-9a-f]+\)", l)
        if inside and m:
            calls.setdefault(m.group(1), []).append(m.group(2))
    return calls


@pytest.fixture(scope="module")
def short_run():
    return boot(f'sched_verify=1 run="fuzz -s {SEED} -n {BATCHES}"', timeout=150)


def test_fuzz_clean(short_run):
    r = short_run
    check_clean(r, status=0)
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]
    assert not r.find(r"^fuzz: batch \d+: worker pid \d+ survived SIGKILL"), r.output[-2000:]
    assert r.has_line("init: fuzz (pid 2) exited with status 0"), r.output[-2000:]


def test_fuzz_counts_are_exact(short_run):
    res = result(short_run)
    assert res["seed"] == SEED and res["batches"] == BATCHES
    assert res["calls"] > 0
    # Every call issued either returned (one outcome each) or did not.
    assert sum(res["outcomes"].values()) == res["calls"], res
    # The per-number table covers the same calls.
    assert sum(per_call_counts(short_run).values()) == res["calls"]
    assert "granule_poweroff" not in per_call_counts(short_run)
    m = short_run.find(r"^fuzz: (\d+) batches, (\d+) calls, (\d+) returned, (\d+) did not")
    assert m and int(m.group(2)) == res["calls"]
    assert int(m.group(4)) == res["outcomes"]["noreturn"]


def test_fuzz_no_leaked_frames(short_run):
    res = result(short_run)
    assert res["leaked_frames"] == 0, res
    assert res["frames_before"] == res["frames_after"] > 30000, res
    assert res["workers"]["unkillable"] == 0, res


def test_fuzz_same_seed_same_result():
    runs = [boot(f'run="fuzz -s {SEED} -n 2"', timeout=90) for _ in range(2)]
    for r in runs:
        check_clean(r, status=0)
    assert result(runs[0]) == result(runs[1])
    assert per_call_counts(runs[0]) == per_call_counts(runs[1])


def test_fuzz_replays_one_batch():
    # Batch 1 alone (-b 1) makes the calls batch 1 made in a run of two.
    full = boot(f'run="fuzz -s {SEED} -n 2 -v"', timeout=90)
    one = boot(f'run="fuzz -s {SEED} -b 1 -v"', timeout=90)
    check_clean(full, status=0)
    check_clean(one, status=0)
    assert one.has_line(f"fuzz: seed {SEED}, replaying batch 1, 48 calls per worker")
    a, b = worker_calls(full, 1), worker_calls(one, 1)
    assert a and a == b
    assert result(one)["batches"] == 1


def test_fuzz_bad_usage():
    r = boot('run="fuzz -x"', timeout=60)
    check_clean(r, status=1)
    assert r.has_line("usage: fuzz [-s SEED] [-n BATCHES] [-b BATCH] [-t SECONDS] [-c CALLS] [-v]")
    assert r.has_line("init: fuzz (pid 2) exited with status 2")


def test_frames_prints_the_free_frames():
    # tools/soak's leak check: the same program at the same point reads the same count.
    r = boot('run="frames 0; frames 0"', timeout=60)
    check_clean(r, status=0)
    counts = [int(m.group(1)) for l in r.lines for m in [re.match(r"^frames: (\d+) free$", l)] if m]
    assert len(counts) == 2 and counts[0] == counts[1] > 30000, r.output[-2000:]
