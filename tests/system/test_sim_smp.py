"""tools/sim tasks --cpus N: the same kernel/sched code on N simulated CPUs
(tests/host/sched/sim_smp.c, docs/EXPLORE.md "Several CPUs").

Properties checked: at one CPU the output is every byte what it was without
--cpus; a bad N or :cpu= gets one line and exit 2; four hogs forked pinned on
CPU 0 and let go are spread two and two by CPU 1's first periodic balance,
with find_busiest_group()'s figures (4096 against 0, imbalance 2048) and a row
per CPU, at 2.625 ms (CPU 1's ticks staggered a quarter period after CPU 0's, an idle CPU's
taken at its turn in QEMU's round robin, after busy CPU 0 has run half the time to its next tick);
a sleeper is woken on its own CPU, by its own timer; the question hides the answers; a running task that alone may move
goes by the stopper's active balance; and the same workload in QEMU at
-smp 2 (four spin threads under taskset, then allowed both CPUs) ends with
the same placement and the same moves, /proc/PID/stat's CPU and
/proc/PID/sched's se.nr_migrations against the simulator's migrations."""
import os
import re
import subprocess

import pytest

from conftest import boot, check_clean

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "tools", "sim")
PINNED4 = "hog:cpu=0,hog:cpu=0,hog:cpu=0,hog:cpu=0"


def sim(*args):
    return subprocess.run([SIM, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def migrations(out):
    """The -c migration rows: (time, task, from, to, why)."""
    part = out.split("\nMigrations", 1)[1].split("\n\n", 1)[0]
    rows = []
    for l in part.splitlines()[3:]:
        m = re.match(r"^\s*([\d.]+)\s+(\S+)\s+(\d+)->(\d+)\s+(.*)$", l)
        assert m, l
        rows.append((float(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)), m.group(5)))
    return rows


def final_cpus(out, n):
    """Each task's CPU at the last scheduling point (its R1 / S0 column)."""
    part = out.split("Scheduling points", 1)[1].split("\n\n", 1)[0]
    last = part.splitlines()[-1].split()
    return [int(cell[1:]) for cell in last[-2 * n::2]]


@pytest.mark.parametrize("args", [
    ["hog,hog:nice=5,sleeper:run=1ms:sleep=3ms", "--until", "8ms", "-c"],
    ["-s", "3", "-c"],
    ["hog,sleeper:run=1ms:sleep=2500us", "--preset", "linux-6.12", "--until", "10ms", "-c"],
    ["forker:every=3ms:child=1ms,yield:run=1ms,hog", "--until", "40ms"],
])
def test_one_cpu_is_the_machine_of_before(args):
    a, b = sim("tasks", *args), sim("tasks", *args, "--cpus", "1")
    assert a.returncode == 0 and a.stdout == b.stdout and a.stderr == b.stderr == ""
    assert "Machine:" not in a.stdout and "Migrations" not in a.stdout


@pytest.mark.parametrize("args,needle", [
    (["hog", "--cpus", "0"], "--cpus 0: out of range (expected 1..8)"),
    (["hog", "--cpus", "9"], "--cpus 9: out of range (expected 1..8)"),
    (["hog", "--cpus", "two"], "--cpus two: out of range (expected 1..8)"),
    (["hog", "--cpus"], "--cpus needs a value"),
    (["hog:cpu=2", "--cpus", "2"], "cpu=2 out of range"),
    (["hog:cpu=-1", "--cpus", "2"], "cpu=-1 out of range"),
    (["hog:pin", "--cpus", "2"], "parameter 'pin' needs =VALUE"),
])
def test_bad_cpus_one_line(args, needle):
    r = sim("tasks", *args)
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert len(r.stderr.splitlines()) == 1 and needle in r.stderr, r.stderr


def test_idle_cpu_pulls_half_at_its_first_balance():
    r = sim("tasks", PINNED4, "--cpus", "2", "--until", "20ms", "-c")
    assert r.returncode == 0, r.stderr
    assert "Machine: 2 CPUs, one package of 2 cores (QEMU's -smp 2): one sched domain, MC" in r.stdout
    rows = migrations(r.stdout)
    moved = [row for row in rows if row[2] != row[3]]
    # 2.6.35: CPU 1 idle, CPU 0 with 4 x 1024; avg 2048, so 2048 to pull: two tasks
    # CPU 1 ticks 0.25 ms after CPU 0 (tick_setup_sched_timer()'s stagger), and idle beside busy
    # CPU 0 takes the tick at its turn in QEMU's round robin, (3 - 2.25) / 2 ms late: at 2.625 ms
    assert [(t, who, a, b) for t, who, a, b, _ in moved] == [(2.625, "h0", 0, 1), (2.625, "h1", 0, 1)], rows
    assert "balance on CPU1 (idle, domain MC): local load 0, busiest CPU0 load 4096, avg 2048 " \
           "-> imbalance 2048; 2 tasks moved" in moved[0][4]
    assert sorted(final_cpus(r.stdout, 4)) == [0, 0, 1, 1]
    tl = r.stdout.split("Timeline, one row per CPU", 1)[1].splitlines()
    assert tl[1].startswith("  cpu0  |") and tl[2].startswith("  cpu1  |") and len(tl) == 3
    # idle until the point at 3 ms, the first of CPU 0's ticks after CPU 1's pull (ten 0.333-ms columns)
    assert set(tl[2].split("|")[1][:10]) == {"."} and set(tl[2].split("|")[1][10:]) <= {"0", "1"}
    q = sim("tasks", PINNED4, "--cpus", "2", "--until", "20ms")
    assert q.returncode == 0 and "0->1" not in q.stdout and "imbalance 2048" not in q.stdout
    assert "Which task moves to which CPU, when, and why?" in q.stdout
    assert "Timeline" not in q.stdout and "Who runs at each point, and why?" in q.stdout


def test_fork_balance_and_wakeup_placement_say_why():
    r = sim("tasks", "hog,hog,hog,hog", "--cpus", "2", "--until", "10ms", "-c")
    rows = migrations(r.stdout)
    assert [(who, b) for _, who, _, b, _ in rows] == [("h0", 1), ("h1", 0), ("h2", 0), ("h3", 1)]
    assert all("fork balance (find_idlest_group" in why for *_, why in rows)
    # a sleeper of CPU 1 woken by its timer on CPU 1, where it slept: the
    # waking CPU is its previous one, idle, so it stays (select_idle_sibling)
    w = sim("tasks", "hog:cpu=0,sleeper:run=1ms:sleep=3ms:cpu=1", "--cpus", "2", "--until", "10ms", "-c")
    wake = w.stdout.split("\nWakeups", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    assert wake and all(l.split()[1:3] == ["s1", "CPU1"] for l in wake), wake
    # its CPU busy with a pinned hog: the wakeup on CPU 1 finds CPU 0 idle
    # (select_idle_sibling, no wake_affine: the waking CPU is the previous one)
    b = sim("tasks", "hog:cpu=1:pinned,sleeper:run=1ms:sleep=3ms:cpu=1", "--cpus", "2", "--until", "10ms", "-c")
    assert migrations(b.stdout)[2] == (4.0, "s1", 1, 0, "wakeup on CPU1 (its timer's CPU, where it slept): busy, "
                                       "so select_idle_sibling() chose idle CPU0")


def test_active_balance_through_the_stopper():
    """The running task is the only one CPU 0 may give: the stopper pushes it
    after the fourth failed balance (nr_balance_failed > cache_nice_tries + 2)."""
    r = sim("tasks", "hog:pinned:nice=19,hog:cpu=0:nice=-15", "--cpus", "2", "--until", "10ms", "-c",
            "sched_latency_ns=20ms")
    rows = migrations(r.stdout)
    failed = [row for row in rows if row[1] == "-"]
    assert [row[0] for row in failed] == [2.625, 4.625, 5.625, 6.625], rows
    assert all("nothing moved (its tasks running or pinned)" in row[4] for row in failed)
    assert "so its stopper is asked to push the running task" in failed[-1][4]
    assert rows[-1][:4] == (6.625, "h1", 0, 1) and rows[-1][4].startswith("active balance: migration/0 preempted it")
    # 0.167-ms columns from the points, CPU 0's ticks: CPU 1 runs h1 from the one at 7 ms
    assert r.stdout.split("\n  cpu1  |", 1)[1].startswith("." * 43 + "1")


def test_cache_hot_refusal_and_the_busy_interval():
    """docs/answers/EXPLORE.md, 11: the figures the answer quotes."""
    spec = ["hog:cpu=0,hog:cpu=0,sleeper:run=10ms:sleep=200ms:cpu=1", "--cpus", "2", "--until", "150ms", "-c"]
    rows = migrations(sim("tasks", *spec).stdout)
    assert rows[3][:4] == (10.0, "-", 0, 1) and "balance on CPU1 (newly idle): busiest CPU0, imbalance 1024, " \
        "nothing moved (cache-hot: h1 ran 0.000 ms ago by its rq clock); nr_balance_failed 1" in rows[3][4]
    assert rows[4][:4] == (128.625, "h0", 0, 1) and "balance on CPU1 (idle, domain MC)" in rows[4][4]
    cold = migrations(sim("tasks", *spec, "sched_migration_cost=0").stdout)
    assert cold[3][:4] == (10.0, "h1", 0, 1) and "idle balance on CPU1 (newly idle" in cold[3][4]
    doc = " ".join(open(os.path.join(ROOT, "docs", "answers", "EXPLORE.md")).read().split())
    for fig in ("10.000", "128.625", "ran 0.000 ms ago", "imbalance 1024", "2 ms x busy_factor 64"):
        assert fig in doc, fig


def answers():
    """docs/answers/EXPLORE.md with its line breaks made spaces."""
    with open(os.path.join(ROOT, "docs", "answers", "EXPLORE.md")) as f:
        return " ".join(f.read().split())


def cells(out, n):
    """The scheduling points' CPU columns: how many rows, each task's cells
    (a cell: that task runs on that CPU at that point), and how often the
    running task changes from row to row in a CPU's column."""
    part = out.split("Scheduling points", 1)[1].split("\n\n", 1)[0].splitlines()[3:]
    runs, changes = {}, 0
    for i, l in enumerate(part):
        cur = l.split()[1:1 + n]
        for who in cur:
            runs[who] = runs.get(who, 0) + 1
        if i:
            changes += sum(a != b for a, b in zip(prev, cur))
        prev = cur
    return len(part), runs, changes


def test_three_hogs_on_two_cpus():
    """docs/answers/EXPLORE.md, 12: OSTEP's "A A / B" -- the third hog is
    traded back and forth by fix_small_imbalance()'s whole task, seldom."""
    ans = answers()
    with open(os.path.join(ROOT, "kernel", "sched", "topology.c")) as f:
        assert ".imbalance_pct = 125, .cache_nice_tries = 1," in f.read()   # MC's, as quoted
    out = sim("tasks", "hog,hog,hog", "--cpus", "2", "--until", "2s", "-c").stdout
    rows = migrations(out)
    assert [(who, b) for _, who, _, b, _ in rows[:3]] == [("h0", 1), ("h1", 0), ("h2", 0)], rows
    assert "CPU0 low guess 0, CPU1 high 1024" in rows[1][4]
    assert "CPU0 low guess 1024, CPU1 high 1024" in rows[2][4]
    assert "0 against 1024 for h1, 1024 against 1024 for h2" in ans
    moves = [r for r in rows[3:] if r[2] != r[3] and r[1] != "-"]
    hot = [r for r in rows[3:] if r[1] == "-"]
    assert len(moves) + len(hot) == len(rows) - 3, rows
    for t, who, a, b, why in moves:     # every move: one task for a 2048 / 1024 split
        assert why == "balance on CPU%d (busy, domain MC): local load 1024, busiest CPU%d load 2048, " \
                      "avg 1536 -> imbalance 1024; 1 task moved" % (b, a), why
    assert 'The first move is at %.3f ms: "%s" (%s)' % (moves[0][0], moves[0][4], moves[0][1]) in ans
    per = {h: sum(r[1] == h for r in moves) for h in ("h0", "h1", "h2")}
    assert "In 2 s there are %d such moves (h0 %d, h1 %d, h2 %d) and %d balances" \
        % (len(moves), per["h0"], per["h1"], per["h2"], len(hot)) in ans
    assert hot and all("nothing moved (cache-hot: " in r[4] and "ran 0.000 ms ago by its rq clock" in r[4]
                       for r in hot), hot
    gaps = [b[0] - a[0] for a, b in zip(moves, moves[1:])]
    assert "come %d to %d ms apart" % (round(min(gaps) / 64) * 64, round(max(gaps) / 64) * 64) in ans, gaps
    n, runs, changes = cells(out, 2)
    assert "over the %d scheduling points" % n in ans
    assert "h0 runs in %d cells, h1 in %d and h2 in %d, %.1f %%, %.1f %% and %.1f %% of a CPU" % (
        runs["h0"], runs["h1"], runs["h2"], *(100 * runs[h] / n for h in ("h0", "h1", "h2"))) in ans, runs
    pct = [round(100 * runs[h] / n, 1) for h in ("h0", "h1", "h2")]
    assert "the shares are still %.1f points apart" % (max(pct) - min(pct)) in ans
    assert "changes %d times in the rows" % changes in ans
    assert "at the %d + %d balances" % (len(moves), len(hot)) in ans


def test_every_task_cache_hot():
    """docs/answers/EXPLORE.md, 13: a hot task goes once nr_balance_failed
    exceeds cache_nice_tries, before the active balance would be asked."""
    ans = answers()
    rows = migrations(sim("tasks", "hog,hog,hog", "--cpus", "2", "--until", "1s", "-c",
                          "sched_migration_cost=1000000000").stdout)[3:]
    f1, f2, m1, f3, f4, m2 = rows[:6]
    q = f1[4][f1[4].index("imbalance"):f1[4].index(", cache_nice_tries")]
    assert f1[1] == "-" and q.endswith("nr_balance_failed 1"), f1
    assert 'at %.3f ms CPU 1\'s balance finds CPU 0 busiest, "%s"' % (f1[0], q) in ans
    assert f2[1] == "-" and "nr_balance_failed 2," in f2[4], f2
    who = re.search(r"cache-hot: (h\d) ran", f2[4]).group(1)
    assert 'at %.3f ms the same with %s, "nr_balance_failed 2"' % (f2[0], who) in ans
    assert m1[1] != "-" and m1[4].endswith("1 task moved, cache-hot, after enough failures"), m1
    assert 'at %.3f ms it pulls %s, "1 task moved, cache-hot, after enough failures"' % (m1[0], m1[1]) in ans
    assert f3[1] == f4[1] == "-" and (f3[2], f3[3], m2[2], m2[3]) == (1, 0, 1, 0), rows
    assert "CPU 0 failing at %.3f and %.3f ms and pulling %s at %.3f ms" % (f3[0], f4[0], m2[1], m2[0]) in ans
    assert "CPU 0's second try comes %d ms after its first" % round(f4[0] - f3[0]) in ans
    assert "its third %d ms after that" % round(m2[0] - f4[0]) in ans
    assert all("active balance" not in r[4] and "nr_balance_failed 3" not in r[4] for r in rows), rows
    default = migrations(sim("tasks", "hog,hog,hog", "--cpus", "2", "--until", "200ms", "-c").stdout)[3]
    assert "The first try comes at %.3f ms, where exercise 12's first balance came at %.3f ms" \
        % (f1[0], default[0]) in ans


def test_nice_levels_across_cpus():
    """docs/answers/EXPLORE.md, 14: a heavy hog alone is never the busiest
    group; a nice-19 hog beside a nice-0 one is within imbalance_pct."""
    ans = answers()
    out = sim("tasks", "hog:nice=-10,hog,hog", "--cpus", "2", "--until", "1s", "-c").stdout
    rows = migrations(out)
    assert len(rows) == 3 and all("fork balance" in r[4] for r in rows), rows     # nothing moves
    assert [(who, b) for _, who, _, b, _ in rows] == [("h0", 1), ("h1", 0), ("h2", 0)] and \
        '(h1\'s fork sees "CPU1 high 9548")' in ans and "CPU1 high 9548" in rows[1][4]
    n, runs, _ = cells(out, 2)
    assert "In the %d scheduling points h0 runs in %d cells, h1 in %d and h2 in %d" % (
        n, runs["h0"], runs["h1"], runs["h2"]) in ans, runs
    share = "%.2f" % (2 * 9548 / (9548 + 2048))
    with open(os.path.join(ROOT, "docs", "EXPLORE.md")) as f:
        assert "two CPUs would give the nice -10 hog %s of them" % share in " ".join(f.read().split())
    assert "2 x 9548 / 11596 = %s CPUs" % share in ans
    out = sim("tasks", "hog,hog,hog:nice=19", "--cpus", "2", "--until", "1s", "-c").stdout
    rows = migrations(out)
    assert len(rows) == 3 and [r[3] for r in rows] == [1, 0, 0], rows
    n, runs, _ = cells(out, 2)
    assert "h0 runs in %d cells, h1 in %d and h2 in %d, %.1f %% and %.1f %% of CPU 0" % (
        runs["h0"], runs["h1"], runs["h2"], 100 * runs["h1"] / n, 100 * runs["h2"] / n) in ans, runs
    assert "h1's %.3f and h0's %.1f" % (runs["h1"] / n, runs["h0"] / n) in ans
    assert "2 x 1024 / 2063 = %.3f of a CPU and h2 %.3f" % (2048 / 2063, 30 / 2063) in ans
    # find_busiest_group(): within imbalance_pct (125), so balanced
    assert 100 * 1039 <= 125 * 1024 and "(103,900 against 128,000)" in ans
    assert "below the average (%d)" % (1024 * 2063 // 2048) in ans


def wakeups(out):
    """The -c wakeup rows: (time, task, CPU, running, v-minv, preempts)."""
    part = out.split("\nWakeups", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    return [tuple(l.split()) for l in part]


def test_where_a_sleeper_wakes():
    """docs/answers/EXPLORE.md, 15: a timer wakeup starts from the sleeper's
    own CPU, so select_idle_sibling() alone decides (no wake_affine())."""
    ans = answers()
    out = sim("tasks", "hog:cpu=1:pinned,sleeper:run=1ms:sleep=3ms:cpu=1", "--cpus", "2", "--until", "1s",
              "-c").stdout
    rows, wake = migrations(out), wakeups(out)
    assert rows[2][:4] == (4.0, "s1", 1, 0) and len(rows) == 3, rows
    assert '(the migrations table: "%s")' % rows[2][4] in ans
    assert {w[2:4] for w in wake} == {("CPU0", "idle")} and wake[0][0] == "4.000", wake
    assert "all %d wakeups in the wakeups table are on CPU 0" % len(wake) in ans
    out = sim("tasks", "hog:cpu=0,hog:cpu=1:pinned,sleeper:run=1ms:sleep=3ms:cpu=1", "--cpus", "2", "--until",
              "1s", "-c").stdout
    rows, wake = migrations(out), wakeups(out)
    assert len(rows) == 3 and all("forked on" in r[4] for r in rows), rows      # nothing moves
    assert {w[2:] for w in wake} == {("CPU1", "h1", "-3000.0", "yes")}, wake
    assert "all %d wakeups are on CPU 1, each 3000.0 µs behind" % len(wake) in ans
    n, runs, _ = cells(out, 2)
    assert "In the %d scheduling points h0 runs in %d cells, h1 in %d and s2 in %d" % (
        n, runs["h0"], runs["h1"], runs["s2"]) in ans, runs


def qemu_spinners():
    """Four spin threads forked pinned on CPU 0 (taskset 1), then each allowed
    both CPUs (taskset -p 3 TID); 200 ms later each thread's CPU (field 39 of
    /proc/PID/task/TID/stat) and its se.nr_migrations."""
    r = boot("run=\"busybox sh -c 'busybox taskset 1 spin -w 0 -t 400 -q 0 0 0 0 & usleep 30000; "
             "echo main $!; cd /proc/$!/task; for t in *; do busybox taskset -p 3 $t; done; "
             "usleep 200000; for t in *; do cut -d\\  -f1,3,39 $t/stat; grep nr_migrations $t/sched; done; "
             "wait'\"", smp=2, timeout=300)
    check_clean(r)
    main = r.find(r"^main (\d+)$").group(1)
    spinners = []
    for line, nxt in zip(r.lines, r.lines[1:]):
        t, m = re.fullmatch(r"(\d+) [RS] (\d)", line), re.fullmatch(r"se\.nr_migrations +: +(\d+)", nxt)
        if t and m and t.group(1) != main:
            spinners.append((int(t.group(2)), int(m.group(1))))
    assert len(spinners) == 4, r.output[-3000:]
    return spinners


def test_pinned_spinners_end_as_simulated():
    out = sim("tasks", PINNED4, "--cpus", "2", "--until", "200ms", "-c").stdout
    moves = {}
    for _, who, a, b, _ in migrations(out):
        moves[who] = moves.get(who, 0) + (a != b)
    simulated = sorted(zip(final_cpus(out, 4), (moves[h] for h in ("h0", "h1", "h2", "h3"))))
    assert simulated == [(0, 0), (0, 0), (1, 1), (1, 1)]
    assert sorted(qemu_spinners()) == simulated
