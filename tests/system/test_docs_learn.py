"""The start-here path: docs/EXERCISES.md indexes every exercise of docs/,
and README.md's first screen is about the scheduler and points to START.md."""
import json
import os
import re
import subprocess

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DOCS = os.path.join(ROOT, "docs")


def read(*p):
    with open(os.path.join(ROOT, *p)) as f:
        return f.read()


def test_exercises_index_is_up_to_date():
    p = subprocess.run([os.path.join(ROOT, "tools", "exercises"), "--check"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode()


def test_every_exercise_in_docs_is_in_the_index():
    index = read("docs", "EXERCISES.md")
    found = 0
    for doc in sorted(os.listdir(DOCS)):
        if not doc.endswith(".md") or doc == "EXERCISES.md":
            continue
        text = read("docs", doc)
        # any heading that names exercises, and every numbered item under it
        for sec in re.finditer(r"^#+ [^\n]*[Ee]xercise[^\n]*\n(.*?)(?=^#+ |\Z)", text, re.M | re.S):
            for n in re.findall(r"^(\d+)\. ", sec.group(1), re.M):
                found += 1
                row = re.search(rf"^\| \[{re.escape(doc)} {n}\]\({re.escape(doc)}#exercises\).*"
                                r"\| (easy|medium|hard) \| (.*) \|$", index, re.M)
                assert row, f"{doc} exercise {n} is not in docs/EXERCISES.md (run tools/exercises)"
                if os.path.exists(os.path.join(DOCS, "answers", doc)):
                    assert row.group(2).startswith(f"[answers/{doc}, {n}. "), row.group(0)
    assert found >= 20
    assert f"{found} exercises:" in index


def test_exercises_tool_rejects_an_argument():
    p = subprocess.run([os.path.join(ROOT, "tools", "exercises"), "--nope"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode != 0 and p.stderr.decode().strip() == \
        "tools/exercises: unknown argument '--nope' (expected none or --check)"


def test_readme_first_screen_is_about_the_scheduler():
    first = "\n".join(read("README.md").splitlines()[:30])
    assert "fair scheduler you can watch" in first and "vruntime" in first
    assert "make run" in first and "make test" in first
    assert "What you will see" in first and "docs/START.md" in first
    assert "SIGEV_THREAD" not in first and "busybox" not in first.lower()
    for doc in ("SHELL.md", "HARDWARE.md"):
        assert f"docs/{doc}" in read("README.md") and os.path.exists(os.path.join(DOCS, doc))


def test_debate_states_the_codes_eevdf_base_slice():
    code = read("kernel", "sched", "eevdf_tunables.c")
    ns = int(re.search(r"\.ptr = &sysctl_sched_base_slice, \.def = (\d+),", code).group(1))
    m = re.search(r"Granule's linux-6\.12 preset uses (\d+\.\d+) ms", read("docs", "DEBATE.md"))
    assert m and round(float(m.group(1)) * 1e6) == ns, (m and m.group(0), ns)


def test_debate_shows_the_bench_figures_of_results_md():
    p = subprocess.run([os.path.join(ROOT, "tools", "debate-figures"), "--check"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode()
    debate, results = read("docs", "DEBATE.md"), read("docs", "RESULTS.md")
    # every claim row of RESULTS.md: its median [min-max] is in DEBATE.md
    claims = results[results.index("## The 2010 claims, judged over load seeds"):]
    claims = claims[:claims.index("\n## ")]
    rows = re.findall(r"^\| ([^|]+) \| ([^|]+) \| (1000|250) \| [^|]+ \| ([^|]+) \| ([^|]+) \|", claims, re.M)
    assert len(rows) >= 8
    # one "Granule's figure" line per claim, in the timeline beside the published figures
    assert debate.count("**Granule's figure**") == len({r[0] for r in rows})
    for claim, _qty, _hz, spread, published in rows:
        assert f"{claim}:" in debate and spread in debate and published in debate, (claim, spread)


def test_debate_gives_eevdfs_gain_raw_and_cost_matched():
    # tools/bench_cost.py --docs writes the gain table into RESULTS.md's COST block; --check (above) keeps
    # DEBATE.md's line equal to it; here: the rows are the three expected, each figure is in the EEVDF section
    debate, results = read("docs", "DEBATE.md"), read("docs", "RESULTS.md")
    table = results[results.index("EEVDF's gain: CFS's average over EEVDF's"):]
    rows = re.findall(r"^\| ([^|]+) \| ([\d.]+) \| ([\d.]+) \| ([^|]+) \|$", table.split("\n\n<!--")[0], re.M)
    assert [r[0].split(" (")[0].split(":")[0] for r in rows] == ["Granule, raw", "Granule, cost-matched", "Linux"]
    section = debate[debate.index("### Much later: EEVDF in 6.6"):]
    section = section[:section.index("\n## ")]
    assert section.count("**EEVDF's gain**") == 1
    for kernel, cfs, eevdf, gain in rows:
        assert f"{kernel}: {gain.strip()} ({cfs} µs over {eevdf} µs)" in section, kernel


def test_debate_figures_rejects_an_argument():
    p = subprocess.run([os.path.join(ROOT, "tools", "debate-figures"), "--nope"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode != 0 and p.stderr.decode().strip() == \
        "tools/debate-figures: unknown argument '--nope' (expected none or --check)"


def sim(*args):
    p = subprocess.run([os.path.join(ROOT, "tools", "sim")] + list(args), capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def sim_result(*args):
    line = [l for l in sim("experiment", *args).splitlines() if l.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def wakeups(out):
    return re.findall(r"^ +(\d+\.\d+)  s2 +h0 +(-?\d+\.\d) +(yes|no)$", out, re.M)


def test_explore_answers_quote_the_simulator():
    """docs/answers/EXPLORE.md: the figures of answers 1, 2 and 4 as tools/sim prints
    them, and the claims of 6 and 8 (which depend on the calibration)."""
    ans = " ".join(read("docs", "answers", "EXPLORE.md").split())
    runs = re.findall(r"^ +\d+\.\d+  (h\d) ", sim("tasks", "hog,hog:nice=5", "--until", "400ms", "-c"),
                      re.M)
    assert "`h0` runs after %d of them and `h1` after %d" % (runs.count("h0"), runs.count("h1")) in ans
    spec = ["tasks", "hog,hog:nice=5,sleeper:run=1ms:sleep=3ms", "--until", "8ms", "-c"]
    assert wakeups(sim(*spec)) == [("4.000", "-3000.0", "yes"), ("8.000", "-3000.0", "yes")]
    gentle_off = wakeups(sim(*spec, "sched_features=NO_GENTLE_FAIR_SLEEPERS"))
    assert [w[1] for w in gentle_off] == ["-3417.0", "-4534.8"]
    assert "-3417.0 at 4 ms, -4534.8 at the second wakeup at 8 ms" in ans
    for gran, want in (("2000000", ["yes", "yes"]), ("3000000", ["no", "yes"]),
                       ("3500000", ["no", "yes"]), ("4000000", ["no", "no"])):
        assert [w[2] for w in wakeups(sim(*spec, "sched_wakeup_granularity_ns=" + gran))] == want, gran
    assert "from `sched_wakeup_granularity_ns=4000000` neither does" in ans
    # 6: HZ=250 raises the average; the percentiles sit on a tick's grid (one fraction past
    # a whole ms), on the timer's own (whole periods + the unloaded path), or on neither (a
    # wait ended by a task in front blocking)
    hz1000, hz250 = sim_result("--preset", "linux-2.6.35"), sim_result("--preset", "linux-2.6.35", "--hz", "250")
    assert round(hz1000["avg_us"] / 1000) == 21 and round(hz250["avg_us"] / 1000) == 22
    assert "from about 21 ms at HZ=1000 to about 22 ms" in ans
    assert "about %d to about %d ms" % (round(hz1000["max_us"] / 1000), round(hz250["max_us"] / 1000)) in ans
    path = sim_result("--preset", "linux-2.6.35", "--load", "none")["avg_us"]
    grids = {"timer": [], "tick": [], "neither": []}
    p90 = hz1000["p90_us"]
    for k in ("p50_us", "p90_us", "p99_us", "p999_us", "max_us"):
        v, off = hz1000[k], (hz1000[k] - path) % hz1000["period_us"]
        on_tick = min((v - p90) % 1000, 1000 - (v - p90) % 1000) < 2
        grid = "timer" if min(off, hz1000["period_us"] - off) < 2 else "tick" if on_tick else "neither"
        grids[grid].append(("the maximum" if k == "max_us" else k[:-3], v))

    def said(pairs):	# "p90 and p999 here, 25,710 and 32,710"
        return "{} here, {}".format(" and ".join(n for n, _ in pairs),
                                    " and ".join("{:,}".format(round(v)) for _, v in pairs))
    # each grid holds a figure at this calibration, and the answer names each figure's grid
    assert all(grids.values()), (grids, hz1000)
    assert said(grids["tick"]) + " µs" in ans, grids
    assert said(grids["timer"]) + " µs" in ans, grids
    assert "as " + said(grids["neither"]) + " µs" in ans, grids
    # ... and QEMU's reference runs show both grids: a seed's p99 and maximum the same
    # fraction past a whole ms (the tick's grid), two seeds' p99s on the timer's; the answer
    # names the first seeds of the reference runs that show each
    with open(os.path.join(ROOT, "tools", "granule", "sim", "engine", "reference.json")) as f:
        ref = {r["seed"]: r for r in json.load(f)["runs"] if (r["preset"], r["hz"], r["mode"])
               == ("linux-2.6.35", 1000, "thread") and "load=kbuild:10 " in r["cmdline"]}

    def on_tick(r):
        off = (r["max_us"] - r["p99_us"]) % 1000
        return min(off, 1000 - off) < 2 and (r["p99_us"] - path) % 1000 > 100

    def on_timer(r):
        off = (r["p99_us"] - path) % 10000
        return min(off, 10000 - off) < 2
    tick = [s for s in sorted(ref) if on_tick(ref[s])]
    timer = [s for s in sorted(ref) if on_timer(ref[s])]
    assert tick and len(timer) >= 2, ref
    t = ref[tick[0]]
    assert (f"load seed {tick[0]}'s p99 at {t['p99_us']:,.1f} µs and its maximum at "
            f"{t['max_us']:,.1f} µs") in ans
    assert "seed {}'s and seed {}'s p99s at {:,.1f} and {:,.1f} µs".format(
        timer[0], timer[1], ref[timer[0]]["p99_us"], ref[timer[1]]["p99_us"]) in ans
    # 8: the minima without load are the sums of the calibration's costs
    with open(os.path.join(ROOT, "tools", "granule", "sim", "engine", "calibration")) as f:
        cost = {k: int(v) for k, v in (l.split() for l in f if re.match(r"^[a-z_]+ \d+$", l))}
    thread = sim_result("--load", "none", "--mode", "thread")["min_us"] * 1000
    signal = sim_result("--load", "none", "--mode", "signal")["min_us"] * 1000
    assert abs(thread - (cost["timer_signal"] + 2 * cost["switch_in"] + cost["helper"] + cost["clone_parent"]
                         + cost["notify_pre"])) < 100, thread
    assert abs(signal - (cost["timer_signal"] + cost["switch_in"] + cost["sig_pre"])) < 100, signal
    assert "about %d µs in thread mode and about %.1f µs in signal mode" % (round(thread / 1000), signal / 1000) \
        in ans


def test_readme_and_start_explain_before_they_name():
    """README's first screen names no seed, feature or commit id before a sentence says
    what it is; START.md defines slice and sched_latency before vslice and
    sched_latency / 2, and the labs are a step of its reading order."""
    first = "\n".join(read("README.md").splitlines()[:50])
    assert "seed" not in first.lower()
    defined = first.index("*presets*")
    for term in ("START_DEBIT", "START_NICE", "DEADLINE", "0bf377bbb0be"):
        at = first.find(term)
        assert at < 0 or at > defined, term
    for term in ("START_DEBIT", "START_NICE", "DEADLINE"):
        at = first.find(term)
        assert at < 0 or "(" in first[at:at + 24], term        # said what it is, in brackets
    start = read("docs", "START.md")
    assert start.index("**slice**") < start.index("vslice")
    assert start.index("`sched_latency` (6 ms)") < start.index("sched_latency / 2")
    order = start[start.index("## The reading order"):start.index("## Labs and exercises")]
    assert re.search(r"^\d+\. \[LABS\.md\]\(LABS\.md\)", order, re.M), order
