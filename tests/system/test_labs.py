"""The graded labs (tools/lab, docs/LABS.md).

For every lab: the repository (the reference) scores 100/100 (for a lab
with a QEMU experiment, that includes its figure against the one stored by
`tools/lab record`, so the stored figure stays current); a freshly cut tree
scores 0/100 on that lab's checks, while its kernel objects still compile
and every other lab's host checks still pass there.  A lab's experiment is
left out (--host) in a tree cut for another lab: a stub elsewhere changes
the kernel, so that figure is not expected to match.  Cost: one host check
binary per tree (build/host/labs), no kernel image for the cut trees.
Also the error paths: an unknown lab, a non-empty DIR, grading with no lab
named, record without an experiment or in a cut tree.
"""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAB = os.path.join(ROOT, "tools", "lab")


def lab(*args, cwd=ROOT):
    return subprocess.run([os.path.join(cwd, "tools", "lab")] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=600)


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


def rows_of(text):
    """{check: PASS/FAIL/SKIP} of a grade table."""
    return dict(re.findall(r"^(\w+) +\d+  (PASS|FAIL|SKIP)$", text, re.M))


def rows(run):
    return rows_of(run.stdout)


def seed_build(dest):
    """Start DEST's build/ from the repository's lab objects (build/host/labs.o,
    tests/labs/rules.mk): the cut keeps the files' times, so make recompiles
    only the files the cut rewrote.  Without them the tree compiles all."""
    made = subprocess.run(["make", "-s", "-j2", "build/host/labs"], cwd=ROOT,
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    shutil.copytree(os.path.join(ROOT, "build", "host", "labs.o"),
                    os.path.join(dest, "build", "host", "labs.o"))
    os.makedirs(os.path.join(dest, "build", "gen"), exist_ok=True)
    shutil.copy2(os.path.join(ROOT, "build", "gen", "sched_presets.h"),
                 os.path.join(dest, "build", "gen"))


@pytest.mark.parametrize("name", labs())
def test_cut_tree_scores_0_rest_passes(name, tmp_path):
    dest = tmp_path / "tree"
    cut = lab("cut", name, str(dest))
    assert cut.returncode == 0, cut.stderr
    seed_build(str(dest))
    where = re.findall(r"write it in (\S+):(\d+)", cut.stdout)
    assert where, cut.stdout
    for f, line in where:
        src = (dest / f).read_text().split("\n")
        assert "TODO(lab %s)" % name in src[int(line)], (f, line)
        assert "docs/" in "\n".join(src[int(line):int(line) + 4])
    # the stubbed files still compile into the kernel, and the check binary
    # recompiles only them
    objs = sorted({"build/" + f[:-2] + ".o" for f, _ in where})
    made = subprocess.run(["make", "-s", "-j2", "build/host/labs"] + objs, cwd=dest,
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    assert set(re.findall(r"HOSTCC\s+build/host/labs\.o/(\S+)\.o", made.stdout)) == \
        {f[:-2] for f, _ in where}, made.stdout
    # its own checks all fail, through `make grade` and the .lab file
    run = subprocess.run(["make", "-s", "grade"], cwd=dest, capture_output=True, text=True)
    assert score(run) == 0, run.stdout
    got = rows(run)
    assert got and set(got.values()) == {"FAIL"}, run.stdout
    # every other lab's host checks pass there (one binary, built above)
    others = [o for o in labs() if o != name]
    run = lab("grade", "--host", *others, cwd=str(dest))
    tables = run.stdout.split("\nlab ")
    assert len(tables) == len(others), run.stdout
    for table in tables:
        got = rows_of(table)
        assert "FAIL" not in got.values() and "PASS" in got.values(), run.stdout
        skipped = sum(int(p) for p in re.findall(r"^\w+ +(\d+)  SKIP$", table, re.M))
        assert "score: %d/100" % (100 - skipped) in table, run.stdout
    if name == "update_curr":   # no stored figure: a clear FAIL, no QEMU run
        (dest / "tests" / "labs" / "expected.json").unlink()
        run = lab("grade", "start_nice", cwd=str(dest))
        assert rows(run)["experiment_avg_latency"] == "FAIL", run.stdout
        assert "no stored figure for 'sched_preset=start-nice-debit" in run.stdout
        assert "run tools/lab record start_nice in the repository" in run.stdout
        run = lab("record", "start_nice", cwd=str(dest))
        assert run.returncode == 2 and run.stderr.strip() == (
            "lab: record runs the reference: use it in the repository, not in a cut tree")


def skipped_points(run):
    return sum(int(p) for p in re.findall(r"^\w+ +(\d+)  SKIP$", run.stdout, re.M))


def test_host_only_skips_the_experiment():
    tables = lab("grade", "--host", *labs()).stdout.split("\nlab ")
    with_exp = [t.split()[0] for t in tables if "experiment" in t]
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
    assert run.returncode == 2 and ("accepted: list, cut NAME [DIR], grade [--host] [NAME...], "
                                    "record NAME") in run.stderr
    run = lab("record", "update_curr")
    assert run.returncode == 2 and run.stderr.strip() == (
        "lab: lab update_curr has no experiment; those with one: start_nice")


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
    fair.write_text(stubbed.replace("\t(void)delta_exec;", "\tfor (;;)\n\t\t(void)delta_exec;", 1))
    run = subprocess.run([str(dest / "tools" / "lab"), "grade"], cwd=str(dest), text=True,
                         capture_output=True, env=dict(os.environ, LAB_CHECK_TIMEOUT="5"))
    assert ("lab: the checks did not finish in 5 s (a loop that never ends?); "
            "only those that passed before count") in run.stdout
    assert score(run) == 0 and run.returncode == 1


def test_check_binary_names_a_bad_lab():
    labs_bin = os.path.join(ROOT, "build", "host", "labs")
    assert subprocess.run(["make", "-s", "-j2", "build/host/labs"], cwd=ROOT).returncode == 0
    run = subprocess.run([labs_bin, "nope"], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip() == "labs: no lab 'nope'; the labs are: " + " ".join(labs())
    run = subprocess.run([labs_bin, "a", "b"], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip() == "labs: one lab name at most, got 2 arguments"
