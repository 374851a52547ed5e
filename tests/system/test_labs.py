"""The graded labs (tools/lab, docs/LABS.md).

For every lab: the repository (the reference) scores 100/100 (for a lab
with a QEMU experiment, that includes its figure against the one stored by
`tools/lab record`, so the stored figure stays current); a freshly cut tree
is a git repository of one commit, scores 0/100 on that lab, while its
kernel objects still compile and every other lab's checks and property
tests still pass there; and every wrong answer kept in tests/labs/wrong/
fails at least one host row (`tools/lab wrong`).  A lab's experiment is
left out (--host) in a tree cut for another lab: a stub elsewhere changes
the kernel, so that figure is not expected to match.  Cost: the cut trees
start their build from the repository's objects (build/host/labs.o), so
each grade recompiles one file and relinks; no kernel image for them.
Also: a failed check says its scenario, expected and got, file:line and
how to run it alone, in the table and in the autograder JSON; and the
error paths: an unknown lab, a non-empty DIR, grading with no lab named,
record without an experiment or in a cut tree.
"""
import json
import os
import re
import subprocess

import pytest

from granule.lab import tree as lab_tree
from granule.lab.make import make_in

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAB = os.path.join(ROOT, "tools", "lab")
NOIDENT = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


def lab(*args, cwd=ROOT, env=None):
    return subprocess.run([os.path.join(cwd, "tools", "lab")] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=1200,
                          env=dict(os.environ, **(env or {})))


def labs():
    out = lab("list").stdout.splitlines()[1:]
    return [l.split()[0] for l in out if re.match(r"^\w+\s+(easy|medium|hard)\s", l)]


def score(run):
    m = re.search(r"^score: (\d+)/100$", run.stdout, re.M)
    assert m, run.stdout + run.stderr
    return int(m.group(1))


def test_list_has_labs_with_levels():
    names = labs()
    assert len(names) >= 6, names
    assert names[:3] == ["update_curr", "place_entity", "check_preempt_tick"]
    levels = re.findall(r"^\w+\s+(easy|medium|hard)\s", lab("list").stdout, re.M)
    assert {"easy", "medium", "hard"} <= set(levels), levels


@pytest.mark.parametrize("name", labs())
def test_reference_scores_100(name):
    run = lab("grade", name)
    assert score(run) == 100, run.stdout
    assert run.returncode == 0
    got = rows(run)
    assert "test_property_" + name in got and any(r.startswith("suite ") for r in got), got


def rows_of(text):
    """{row: PASS/FAIL/SKIP} of a grade table (a suite's row is "suite NAME")."""
    return dict(re.findall(r"^(\w+|suite \w+) +\d+  (PASS|FAIL|SKIP)$", text, re.M))


def rows(run):
    return rows_of(run.stdout)


def seed_build(dest):
    """Start DEST's build/ from the repository's lab objects (build/host/labs.o,
    tests/labs/rules.mk, the host suites' included: tools/lab's own
    seed_build): the cut keeps the files' times, so make recompiles only the
    files the cut rewrote.  Without them the tree compiles all."""
    lab_tree.seed_build(ROOT, dest)


def git(dest, *args):
    return subprocess.run(["git"] + list(args), cwd=dest, capture_output=True, text=True,
                          env=dict(os.environ, **NOIDENT))


@pytest.mark.parametrize("name", labs())
def test_cut_tree_scores_0_rest_passes(name, tmp_path):
    dest = tmp_path / "tree"
    cut = lab("cut", name, str(dest), env=NOIDENT)     # no git identity configured
    assert cut.returncode == 0, cut.stderr
    seed_build(str(dest))
    where = re.findall(r"write (\w+)\(\) in (\S+):(\d+)", cut.stdout)
    assert where, cut.stdout
    for func, f, line in where:
        src = (dest / f).read_text().split("\n")
        assert "TODO(lab %s)" % name in src[int(line)], (f, line)
        assert "docs/" in "\n".join(src[int(line):int(line) + 4])
        assert re.search(r"^\w.*\b%s\(" % func, "\n".join(src[:int(line)]), re.M), func
    # a git repository of one commit, the stubbed state: LABS.md's git diff works
    log = git(dest, "log", "--oneline")
    assert log.returncode == 0 and len(log.stdout.splitlines()) == 1, log.stdout + log.stderr
    # the stubbed files still compile into the kernel, and the check binary
    # recompiles only them
    objs = sorted({"build/" + f[:-2] + ".o" for _, f, _ in where})
    made = subprocess.run(["make", "-s", "-j2", "build/host/labs"] + objs, cwd=dest,
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    assert set(re.findall(r"HOSTCC\s+build/host/labs\.o/(\S+)\.o", made.stdout)) == \
        {f[:-2] for _, f, _ in where}, made.stdout
    assert git(dest, "status", "--porcelain").stdout == "", "the build left files git sees"
    # its own rows all fail, through `make grade` and the .lab file
    run = subprocess.run(["make", "-s", "grade"], cwd=dest, capture_output=True, text=True)
    assert score(run) == 0, run.stdout
    got = rows(run)
    assert got and set(got.values()) <= {"FAIL", "SKIP"} and "FAIL" in got.values(), run.stdout
    # every other lab's checks and property test pass there (the suites run
    # the whole scheduler, this lab's stub included, so they may not)
    others = [o for o in labs() if o != name]
    run = lab("grade", "--host", *others, cwd=str(dest))
    tables = run.stdout.split("\nlab ")
    assert len(tables) == len(others), run.stdout
    for table in tables:
        got = {r: w for r, w in rows_of(table).items() if not r.startswith(("suite ", "exp"))}
        assert got and set(got.values()) == {"PASS"}, table
    if name == "update_curr":   # no stored figure: a clear FAIL, no QEMU run
        (dest / "tests" / "labs" / "expected.json").unlink()
        run = lab("grade", "start_nice", cwd=str(dest))
        assert rows(run)["experiment_avg_latency"] == "FAIL", run.stdout
        assert "no stored figure for 'sched_preset=start-nice-debit" in run.stdout
        assert "run tools/lab record start_nice in the repository" in run.stdout
        run = lab("record", "start_nice", cwd=str(dest))
        assert run.returncode == 2 and run.stderr.strip() == (
            "lab: record runs the reference: use it in the repository, not in a cut tree")
        for cmd, what in ((["wrong"], "wrong"), (["grade", "all"], "grade all"),
                          (["cut", "place_entity"], "cut")):
            run = lab(*cmd, cwd=str(dest))
            assert run.returncode == 2 and run.stderr.strip() == (
                "lab: %s runs in the repository, not in a cut tree" % what), run.stderr


@pytest.mark.parametrize("name", labs())
def test_wrong_answers_are_caught(name):
    """The stub scores 0 and each wrong answer kept for the lab fails a host row."""
    run = lab("wrong", name)
    assert run.returncode == 0, run.stdout + run.stderr
    table = re.findall(r"^  (\(the stub\)|\w+) +(\d+)/(\d+) +(.*)$", run.stdout, re.M)
    assert table[0][:2] == ("(the stub)", "0"), run.stdout
    answers = table[1:]
    kept = [f for f in os.listdir(os.path.join(ROOT, "tests", "labs", "wrong", name))
            if f.endswith(".patch")]
    assert len(answers) == len(kept) >= 3, run.stdout
    for answer, got, most, failed in answers:
        assert int(got) < int(most) and "NONE" not in failed, (answer, run.stdout)


def test_a_failed_check_says_why(tmp_path):
    """A wrong answer's failed rows: scenario, expected, got, file:line, how to
    run it alone, in the table and in the autograder JSON."""
    dest = tmp_path / "tree"
    patch = os.path.join(ROOT, "tests", "labs", "wrong", "update_curr", "overflow32.patch")
    cut = lab("cut", "update_curr", str(dest), "--answer", patch)
    assert cut.returncode == 0, cut.stderr
    assert "delta_exec * 1024 / curr->load.weight" in git(dest, "diff").stdout
    seed_build(str(dest))
    out = tmp_path / "results.json"
    run = subprocess.run(["make", "-s", "grade", "JSON=%s" % out], cwd=dest, capture_output=True,
                         text=True)
    assert run.returncode != 0 and 0 < score(run) < 100, run.stdout
    block = run.stdout[run.stdout.index("FAIL test_long_delta"):]
    block = block[:block.index("\n\n")]
    for line in ("  scenario: one nice-0 task runs alone; the clock moves 10 ms",
                 "  expected: 10000000", "  got:      ",
                 "  at:       tests/labs/test_lab_update_curr.c:",
                 "  run it alone: make build/host/labs && build/host/labs update_curr "
                 "test_long_delta"):
        assert line in block, block
    assert "shrunk in" in run.stdout and "FAIL test_property_update_curr" in run.stdout
    alone = subprocess.run(["build/host/labs", "update_curr", "test_long_delta"], cwd=dest,
                           capture_output=True, text=True)
    assert alone.returncode == 1 and "  expected: 10000000" in alone.stdout
    results = json.loads(out.read_text())
    assert sum(t["max_score"] for t in results["tests"]) == 100
    assert results["score"] == score(run) == sum(t["score"] for t in results["tests"])
    failed = {t["name"]: t for t in results["tests"] if t["score"] < t["max_score"]}
    assert "  expected: 10000000" in failed["update_curr: test_long_delta"]["output"]
    assert all(t["visibility"] == "visible" and t["output"] for t in results["tests"])


def skipped_points(run):
    return sum(int(p) for p in re.findall(r"^\w+ +(\d+)  SKIP$", run.stdout, re.M))


def test_host_only_skips_the_experiment():
    tables = lab("grade", "--host", *labs()).stdout.split("\nlab ")
    with_exp = [t.split()[0] for t in tables if "experiment_" in t]
    assert with_exp == ["start_nice"], with_exp
    run = lab("grade", "--host", "start_nice")
    assert rows(run)["experiment_avg_latency"] == "SKIP"
    assert run.returncode == 1 and score(run) == 100 - skipped_points(run) == 80


def test_errors_are_one_line(tmp_path):
    run = lab("grade", "no_such_lab")
    assert run.returncode == 2
    assert run.stderr.strip() == ("lab: no lab 'no_such_lab'; the labs are: "
                                  + ", ".join(labs()))
    (tmp_path / "x").write_text("x")
    run = lab("cut", "update_curr", str(tmp_path))
    assert run.returncode == 2 and "exists and is not empty" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    run = lab("frobnicate")
    assert run.returncode == 2 and ("accepted: list, cut NAME [DIR] [--answer PATCH], "
                                    "grade [--host] [--json FILE] [NAME...|all], "
                                    "wrong [NAME...], record NAME") in run.stderr
    run = lab("record", "update_curr")
    assert run.returncode == 2 and run.stderr.strip() == (
        "lab: lab update_curr has no experiment; those with one: start_nice")
    run = lab("grade", "update_curr", "--json")
    assert run.returncode == 2 and run.stderr.strip() == "lab: --json needs a value"
    run = lab("wrong", "nope")
    assert run.returncode == 2 and run.stderr.startswith("lab: no lab 'nope'")
    other = os.path.join(ROOT, "tests", "labs", "wrong", "place_entity", "no_shield.patch")
    run = lab("cut", "update_curr", str(tmp_path / "y"), "--answer", other)
    assert run.returncode == 2 and run.stderr.strip().endswith(
        "changes kernel/sched/fair.c outside the LAB(update_curr) regions"), run.stderr


def test_grade_without_lab_outside_a_cut_tree():
    if os.path.exists(os.path.join(ROOT, ".lab")):
        pytest.skip("this is a cut tree")
    run = lab("grade")
    assert run.returncode == 2
    assert "no LAB given and no .lab here" in run.stderr


def test_labs_md_lists_every_lab_with_its_level():
    with open(os.path.join(ROOT, "docs", "LABS.md")) as fh:
        doc = fh.read()
    listed = re.findall(r"^(\w+)\s+(easy|medium|hard)\s", lab("list").stdout, re.M)
    assert len(listed) == len(labs())
    for name, level in listed:
        assert "| `%s` | %s |" % (name, level) in doc, name
        assert re.search(r"^\d+\. \(%s\) Lab `%s`: `make lab NAME=%s`" % (level, name, name),
                         doc, re.M), name


def test_student_code_that_does_not_build_or_never_returns(tmp_path):
    dest = tmp_path / "tree"
    assert lab("cut", "update_curr", str(dest)).returncode == 0
    seed_build(str(dest))
    fair = dest / "kernel" / "sched" / "fair.c"
    stubbed = fair.read_text()
    fair.write_text(stubbed.replace("\t(void)delta_exec;", "\t(void)delta_exec; nonsense;", 1))
    run = lab("grade", cwd=str(dest))
    assert "lab: the checks do not build (above); every check fails" in run.stdout
    assert "nonsense" in run.stdout and score(run) == 0 and run.returncode == 1
    # a NULL dereference: the sanitizer stops the binary; each check runs alone,
    # so the report shows under the checks it broke, with the tree's frames
    fair.write_text(stubbed.replace("\t(void)delta_exec;",
                                    "\tcfs_rq = NULL;\n\tcfs_rq->exec_clock += delta_exec;", 1))
    run = lab("grade", cwd=str(dest))
    block = run.stdout[run.stdout.index("FAIL test_long_delta"):]
    block = block[:block.index("\n\n")]
    assert "  the check died:\n    kernel/sched/fair.c:" in block and "runtime error" in block, block
    assert "in __update_curr kernel/sched/fair.c:" in block, block
    assert "property: the binary died while running this case:" in run.stdout
    fair.write_text(stubbed.replace("\t(void)delta_exec;", "\tfor (;;)\n\t\t(void)delta_exec;", 1))
    run = subprocess.run([str(dest / "tools" / "lab"), "grade"], cwd=str(dest), text=True,
                         capture_output=True, env=dict(os.environ, LAB_CHECK_TIMEOUT="5"))
    assert ("lab: the checks did not finish in 5 s (a loop that never ends?); "
            "only those that passed before count") in run.stdout
    assert score(run) == 0 and run.returncode == 1


def test_check_binary_names_a_bad_lab_or_check():
    labs_bin = os.path.join(ROOT, "build", "host", "labs")
    assert make_in(ROOT, ["build/host/labs"]).returncode == 0
    run = subprocess.run([labs_bin, "nope"], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip() == "labs: no lab 'nope'; the labs are: " + " ".join(labs())
    run = subprocess.run([labs_bin, "update_curr", "test_nope"], capture_output=True, text=True)
    assert run.returncode == 2 and run.stderr.startswith(
        "labs: lab update_curr has no check 'test_nope'; its checks are: test_nice0_charge ")
    run = subprocess.run([labs_bin, "a", "b", "c"], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip() == "labs: a lab name and one check at most, got 3 arguments"
