"""The start-here path: docs/EXERCISES.md indexes every exercise of docs/,
and README.md's first screen is about the scheduler and points to START.md."""
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
