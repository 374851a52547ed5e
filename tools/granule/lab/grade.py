"""tools/granule/lab/grade.py - grade one lab in one tree (docs/LABS.md, "How grading works").

A lab's rows (tools/granule/lab/spec.py): its checks, each run alone as
`build/host/labs LAB CHECK` (one process each, so that a crash costs one
row), its property test among them; the host suites that exercise the
function, each run whole (build/host/labs.suite/SUITE); and perhaps one
QEMU experiment.  A failed row keeps the words that explain it: the
check's scenario, expected and got, file and line (tests/labs/report.c),
or the suite's failed tests, or the sanitizer's report; and how to run it
alone.  grade() returns the rows; report() prints them; results() gives
the JSON the common course autograders read.
"""
import json
import os
import re
import subprocess
import time

from .. import qemu as gq
from . import spec as lab_spec
from .make import make_in

# s for one lab's checks, all together (each takes well under 1 s); LAB_CHECK_TIMEOUT overrides
CHECK_TIMEOUT = int(os.environ.get("LAB_CHECK_TIMEOUT", "60"))
SUITE_TIMEOUT = 60      # s for one host suite (sched_eevdf_class takes about 3 s)
EXPERIMENT_TIMEOUT = 600   # s for one QEMU experiment (about 15 s on an idle machine)
EXPECTED = os.path.join("tests", "labs", "expected.json")
LABS_BIN = os.path.join("build", "host", "labs")


class Row:
    """One graded row: KIND check, suite or experiment; WORD PASS, FAIL or SKIP."""

    def __init__(self, kind, name, points, word="FAIL", text=""):
        self.kind, self.name, self.points, self.word, self.text = kind, name, points, word, text

    @property
    def label(self):
        return "suite " + self.name if self.kind == "suite" else self.name

    @property
    def score(self):
        return self.points if self.word == "PASS" else 0


def suite_bin(suite):
    return os.path.join("build", "host", "labs.suite", suite)


def build(root, lab):
    """Build the checks and LAB's suites in ROOT; the error text, or ''."""
    targets = [LABS_BIN] + [suite_bin(s) for s, _ in lab["suites"]]
    made = make_in(root, targets)
    if made.returncode:
        return (made.stdout[-2000:] + made.stderr[-2000:]).rstrip()
    return ""


SANITIZER = re.compile(r"runtime error|ERROR: AddressSanitizer|^SUMMARY:|^\s+#\d+ 0x")
# a frame of the tree's own code (kernel/, tests/), not of a library
OWN_FRAME = re.compile(r"^\s+#\d+ 0x\w+ in \S+ (kernel|tests)/")


def died(out):
    """The lines of a sanitizer report in OUT worth showing: what it found and
    up to six frames of the tree's own code."""
    lines = [l.strip() for l in out.splitlines() if SANITIZER.search(l)]
    said = [l for l in lines if not l.startswith("#")]
    return said[:2] + [l for l in lines if OWN_FRAME.match("    " + l)][:6]


def check_text(out, name, check):
    """What a failed check printed (report.c's block), or the cmocka lines."""
    m = re.search(r"^\[ RUN      \] %s\n(.*?)(?=^\[  FAILED  \] %s$|\Z)" % (check, check),
                  out, re.M | re.S)
    body = (m.group(1) if m else out).rstrip().splitlines()
    if any(l.startswith("  scenario:") for l in body):
        body = [l for l in body if not l.startswith(("[  ERROR   ] ---", "[   LINE   ] ---"))]
    return body


def run_check(root, name, check, timeout):
    """(passed, text lines, timed out) of one check of lab NAME."""
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="stdout")
    try:
        run = subprocess.run([os.path.join(root, LABS_BIN), name, check], cwd=root, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=max(timeout, 1))
    except subprocess.TimeoutExpired:
        return False, ["  did not finish in %d s (a loop that never ends?)" % timeout], True
    out = run.stdout
    if re.search(r"^\[       OK \] %s$" % check, out, re.M):
        return True, [], False
    text = check_text(out, name, check)
    if not re.search(r"^\[  FAILED  \] %s$" % check, out, re.M):
        said = [l for l in text if l.startswith("  ") and not SANITIZER.search(l)]
        text = said + ["  the check died:"] + ["    " + l.strip() for l in died(out)]
    return False, text + ["  run it alone: make %s && %s %s %s" % (LABS_BIN, LABS_BIN, name,
                                                                   check)], False


def run_checks(root, name, lab, rows):
    """Fill the check rows of ROWS; False if the time ran out."""
    deadline = time.monotonic() + CHECK_TIMEOUT
    for row in rows:
        if row.kind != "check":
            continue
        left = int(deadline - time.monotonic())
        if left <= 0:
            row.text = "  not run: the checks' %d s were used up" % CHECK_TIMEOUT
            continue
        ok, text, timed_out = run_check(root, name, row.name, left)
        row.word, row.text = ("PASS" if ok else "FAIL"), "\n".join(text)
        if timed_out:
            print("lab: the checks did not finish in %d s (a loop that never ends?); "
                  "only those that passed before count" % CHECK_TIMEOUT)
            return False
    return True


def suite_text(out, suite):
    """The failed tests of a suite's output, with cmocka's messages."""
    src = lab_spec.SUITE_FILES[suite]
    lines, failed = [], []
    for m in re.finditer(r"^\[ RUN      \] (\S+)\n(.*?)^\[  FAILED  \] \1$", out, re.M | re.S):
        failed.append(m.group(1))
        said = [l for l in m.group(2).splitlines() if l.strip()]
        msgs = [l.replace("[  ERROR   ] --- ", "").replace("[   LINE   ] --- ", "at ").strip()
                for l in said if l.startswith(("[  ERROR   ]", "[   LINE   ]"))] or said[:1]
        lines.append("    %s: %s" % (m.group(1), "; ".join(msgs[:2])[:400]))
    if failed:
        lines.insert(0, "  %d test(s) of %s failed:" % (len(failed), src))
        lines.append("  run one alone: make %s && LAB_TEST=%s %s" % (
            suite_bin(suite), failed[0], suite_bin(suite)))
        return lines
    running = re.findall(r"^\[ RUN      \] (\S+)$", out, re.M)
    lines = ["  %s died%s:" % (suite_bin(suite), " in " + running[-1] if running else "")]
    lines += ["    " + l.strip() for l in died(out)]
    lines.append("  run it: make %s && %s%s" % (suite_bin(suite), "LAB_TEST=%s " % running[-1]
                                                if running else "", suite_bin(suite)))
    return lines


def run_suite(root, suite):
    """(passed, text) of one host suite."""
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="stdout")
    try:
        run = subprocess.run([os.path.join(root, suite_bin(suite))], cwd=root, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=SUITE_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else e.stdout or ""
        running = re.findall(r"^\[ RUN      \] (\S+)$", out, re.M)
        return False, "  did not finish in %d s%s (a loop that never ends?)" % (
            SUITE_TIMEOUT, ": %s was running" % running[-1] if running else "")
    if run.returncode == 0 and re.search(r"^\[  PASSED  \] \d+ test", run.stdout, re.M):
        return True, ""
    return False, "\n".join(suite_text(run.stdout, suite))


def expected_figure(root, name):
    try:
        with open(os.path.join(root, EXPECTED)) as fh:
            return json.load(fh)[name]
    except (OSError, ValueError, KeyError):
        return None


def run_experiment(root, exp):
    """The experiment's figure on ROOT's kernel (built first), or (None, why)."""
    made = make_in(root, ["all"], jobs=1)
    if made.returncode:
        return None, "the kernel does not build: " + (made.stdout + made.stderr)[-1500:]
    run = gq.run(exp["cmdline"], timeout=EXPERIMENT_TIMEOUT)
    for line in run.lines:
        if line.startswith("RESULT "):
            r = json.loads(line[len("RESULT "):])
            if r.get("bench") == exp["bench"] and exp["key"] in r:
                return float(r[exp["key"]]), ""
    return None, "no %s RESULT line; the end of the output:\n%s" % (exp["bench"],
                                                                  run.output[-1500:])


def grade_experiment(root, name, exp, row, host_ok, host_only):
    """Fill the experiment's ROW of lab NAME."""
    if host_only:
        row.word, row.text = "SKIP", "experiment left out (--host)"
        return
    want = expected_figure(root, name)
    if not want or want.get("cmdline") != exp["cmdline"]:
        row.text = "no stored figure for %r in %s: run tools/lab record %s in the " \
            "repository" % (exp["cmdline"], EXPECTED, name)
        return
    if not host_ok:
        row.text = "experiment not run: the other rows must all pass first"
        return
    got, why = run_experiment(root, exp)
    if got is None:
        row.text = "experiment failed: " + why
        return
    ok = abs(got - want["value"]) <= exp["tolerance"] * want["value"]
    row.word = "PASS" if ok else "FAIL"
    row.text = "experiment: %s %s = %.1f, the reference's %.1f (within %d%% passes): %s" % (
        exp["bench"], exp["key"], got, want["value"], round(exp["tolerance"] * 100),
        exp["cmdline"])


def grade(root, name, host_only=False):
    """The rows of lab NAME in the tree ROOT."""
    lab = lab_spec.LABS[name]
    rows = [Row(kind, n, p) for kind, n, p in lab_spec.points(lab)]
    error = build(root, lab)
    if error:
        print(error)
        print("lab: the checks do not build (above); every check fails")
        for row in rows:
            row.text = "  not built (the compiler's messages are above the table)"
        return rows
    finished = run_checks(root, name, lab, rows)
    for row in rows:
        if row.kind == "suite":
            if finished:
                ok, text = run_suite(root, row.name)
                row.word, row.text = ("PASS" if ok else "FAIL"), text
            else:
                row.text = "  not run: a check did not finish"
    exp = lab.get("experiment")
    if exp:
        grade_experiment(root, name, exp, rows[-1],
                         all(r.word == "PASS" for r in rows[:-1]), host_only)
    return rows


def total(rows):
    return sum(r.score for r in rows)


def report(name, rows, details=True):
    """Print lab NAME's table, then what each failed row says."""
    lab = lab_spec.LABS[name]
    print("lab %s (%s)" % (name, lab["difficulty"]))
    width = max([32] + [len(r.label) + 1 for r in rows])
    print("%-*s %6s  %s" % (width, "check", "points", "result"))
    for r in rows:
        print("%-*s %6d  %s" % (width, r.label, r.points, r.word))
    for r in rows:
        if r.kind == "experiment" and r.text:
            print(r.text)
    print("score: %d/100" % total(rows))
    failed = [r for r in rows if r.word == "FAIL" and r.kind != "experiment" and r.text]
    if details and failed:
        print()
        for r in failed:
            print("FAIL %s (%d points)" % (r.label, r.points))
            print(r.text)
            print()


def results(graded):
    """The autograder JSON of GRADED, a list of (title, lab name, rows)."""
    tests, lines = [], []
    for title, name, rows in graded:
        for r in rows:
            tests.append({"name": "%s: %s" % (title, r.label), "score": r.score,
                          "max_score": r.points, "output": r.text.strip() or r.word,
                          "visibility": "visible"})
        lines.append("%s: %d/100" % (title, total(rows)))
    return {"score": sum(t["score"] for t in tests), "output": "\n".join(lines),
            "tests": tests}
