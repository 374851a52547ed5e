"""The graded labs (tools/lab, docs/LABS.md), host side only.

For every lab: the repository (the reference) scores 100/100; a freshly cut
tree scores 0/100 on that lab's checks, while its kernel object still
compiles and every other lab's checks still pass there.  Also the error
paths: an unknown lab, a non-empty DIR, grading with no lab named.
"""
import os
import re
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
    assert len(names) >= 2, names
    assert "update_curr" in names and "place_entity" in names


@pytest.mark.parametrize("name", labs())
def test_reference_scores_100(name):
    run = lab("grade", name)
    assert score(run) == 100, run.stdout
    assert run.returncode == 0


@pytest.mark.parametrize("name", labs())
def test_cut_tree_scores_0_rest_passes(name, tmp_path):
    dest = tmp_path / "tree"
    cut = lab("cut", name, str(dest))
    assert cut.returncode == 0, cut.stderr
    m = re.search(r"write it in (\S+):(\d+)", cut.stdout)
    assert m, cut.stdout
    src = (dest / m.group(1)).read_text()
    assert "TODO(lab %s)" % name in src and "docs/" in src
    # the stubbed file still compiles into the kernel
    obj = "build/" + m.group(1)[:-2] + ".o"
    made = subprocess.run(["make", "-s", obj], cwd=dest, capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    # its own checks all fail, through `make grade` and the .lab file
    run = subprocess.run(["make", "-s", "grade"], cwd=dest, capture_output=True, text=True)
    assert score(run) == 0, run.stdout
    assert run.stdout.count("FAIL") == len(re.findall(r"^test_\w+ .*FAIL$", run.stdout, re.M))
    assert "PASS" not in run.stdout
    # every other lab is untouched there
    for other in labs():
        if other != name:
            assert score(lab("grade", other, cwd=str(dest))) == 100, other


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
    assert run.returncode == 2 and "accepted: list, cut NAME [DIR], grade [NAME]" in run.stderr


def test_grade_without_lab_outside_a_cut_tree():
    if os.path.exists(os.path.join(ROOT, ".lab")):
        pytest.skip("this is a cut tree")
    run = lab("grade")
    assert run.returncode == 2
    assert "no LAB given and no .lab here" in run.stderr
