"""tools/lab - graded labs cut from the real scheduler (docs/LABS.md).

  tools/lab list                 the labs, their difficulty and what they teach
  tools/lab cut NAME [DIR] [--answer PATCH]
                                 write a complete tree (default ../granule-lab-NAME)
                                 where LAB(NAME) regions are replaced by a stub,
                                 a git repository of one commit; --answer then
                                 writes PATCH's version of the regions in it
  tools/lab grade [--host] [--json FILE] [NAME...|all]
                                 run NAME's checks, property test and host suites
                                 (default: the lab of this tree, from .lab) and
                                 print the table, N/100 and what each failed row
                                 says; --host leaves out a lab's QEMU experiment;
                                 --json writes the course autograders' results file;
                                 all (in the repository): every lab's reference
                                 must score 100 and every stub 0
  tools/lab wrong [NAME...]      (in the repository) grade the stub and every
                                 wrong answer kept in tests/labs/wrong/NAME/
                                 (host rows): each must fail at least one
  tools/lab record NAME          (in the repository) run NAME's experiment on
                                 the reference kernel and store its figure in
                                 tests/labs/expected.json

Exit status of grade: 0 at 100/100 (all: every reference 100, every stub 0),
1 otherwise; of wrong: 0 if every answer is caught; 2 on a usage error.
"""
import glob
import json
import os
import sys
import tempfile

from ..paths import ROOT
from . import grade as lab_grade
from . import tree as lab_tree
from .spec import LABS

WRONG = os.path.join("tests", "labs", "wrong")


def die(msg):
    print("lab: " + msg, file=sys.stderr)
    sys.exit(2)


def lab_or_die(name):
    if name not in LABS:
        die("no lab %r; the labs are: %s" % (name, ", ".join(LABS)))
    return LABS[name]


def in_cut_tree():
    return os.path.exists(os.path.join(ROOT, ".lab"))


def cmd_list():
    print("%-19s %-7s %s" % ("lab", "level", "what you write"))
    for name, lab in LABS.items():
        print("%-19s %-7s %s" % (name, lab["difficulty"], lab["title"]))
    print("start one: make lab NAME=<lab> [DIR=path]; grade it there: make grade")


def cmd_cut(name, dest, answer):
    lab = lab_or_die(name)
    dest = os.path.abspath(dest or os.path.join(ROOT, "..", "granule-lab-" + name))
    if os.path.exists(dest) and os.listdir(dest):
        die("DIR %s exists and is not empty; give an empty or new directory" % dest)
    if in_cut_tree():
        die("cut runs in the repository, not in a cut tree")
    try:
        bodies = lab_tree.answer_bodies(ROOT, name, answer) if answer else None
        where = lab_tree.cut(ROOT, name, lab, dest)
        if bodies:
            lab_tree.write_answer(dest, name, bodies)
    except lab_tree.LabError as e:
        die(str(e))
    print("lab %s (%s) written to %s (a git repository: git diff shows your changes)"
          % (name, lab["difficulty"], dest))
    for r in where:
        print("  write %s() in %s:%d (TODO(lab %s))" % (r.func, r.file, r.begin + 2, name))
    if answer:
        print("  (written there: the answer %s)" % answer)
    print("then: cd %s && make grade" % dest)


def lab_of_tree():
    try:
        with open(os.path.join(ROOT, ".lab")) as fh:
            return fh.read().strip()
    except OSError:
        die("no LAB given and no .lab here; use make grade LAB=<lab> (make lab lists them)")


def scratch_tree(name, tmp):
    """A cut tree of lab NAME in TMP, its build started from ROOT's objects."""
    dest = os.path.join(tmp, name)
    lab_tree.cut(ROOT, name, LABS[name], dest)
    lab_tree.seed_build(ROOT, dest)
    return dest


def grade_all(json_file):
    """Every lab: the reference here must score 100, its stub 0."""
    if in_cut_tree():
        die("grade all runs in the repository, not in a cut tree")
    graded, bad = [], 0
    with tempfile.TemporaryDirectory(prefix="granule-lab-") as tmp:
        for name in LABS:
            ref = lab_grade.grade(ROOT, name)
            stub = lab_grade.grade(scratch_tree(name, tmp), name, host_only=True)
            graded += [("%s (reference)" % name, name, ref), ("%s (stub)" % name, name, stub)]
            ok = lab_grade.total(ref) == 100 and lab_grade.total(stub) == 0
            print("%-19s reference %3d/100  stub %3d/100  %s" % (
                name, lab_grade.total(ref), lab_grade.total(stub), "ok" if ok else "WRONG"))
            if lab_grade.total(ref) != 100:
                lab_grade.report(name, ref)
            if lab_grade.total(stub):
                lab_grade.report(name, stub)
            bad += not ok
    if json_file:
        write_json(json_file, graded)
    print("score: every reference %s 100/100, every stub %s 0/100" % (
        "at" if not bad else "NOT all at", "at" if not bad else "NOT all at"))
    return 1 if bad else 0


def write_json(path, graded):
    with open(path, "w") as fh:
        json.dump(lab_grade.results(graded), fh, indent=2)
        fh.write("\n")
    print("lab: results written to %s" % path)


def cmd_grade(names, host_only, json_file):
    if names == ["all"]:
        return grade_all(json_file)
    graded = []
    for name in names or [lab_of_tree()]:
        lab_or_die(name)
        rows = lab_grade.grade(ROOT, name, host_only)
        lab_grade.report(name, rows)
        graded.append((name, name, rows))
    if json_file:
        write_json(json_file, graded)
    return 0 if all(lab_grade.total(rows) == 100 for _, _, rows in graded) else 1


def cmd_wrong(names):
    """Grade the stub and each kept wrong answer of NAMES; all must be caught."""
    if in_cut_tree():
        die("wrong runs in the repository, not in a cut tree")
    missed = []
    with tempfile.TemporaryDirectory(prefix="granule-wrong-") as tmp:
        for name in names or list(LABS):
            dest = scratch_tree(name, tmp)
            stubbed = {f: open(os.path.join(dest, f)).read() for f in
                       {r.file for r in lab_tree.regions(ROOT)[name]}}
            answers = sorted(glob.glob(os.path.join(ROOT, WRONG, name, "*.patch")))
            print("lab %s: the stub and %d wrong answers (%s/%s/)" % (
                name, len(answers), WRONG, name))
            print("  %-28s %-9s %s" % ("answer", "host", "failed rows"))
            for answer in [None] + answers:
                for f, text in stubbed.items():
                    with open(os.path.join(dest, f), "w") as fh:
                        fh.write(text)
                if answer:
                    try:
                        lab_tree.write_answer(dest, name,
                                              lab_tree.answer_bodies(ROOT, name, answer))
                    except lab_tree.LabError as e:
                        die(str(e))
                rows = [r for r in lab_grade.grade(dest, name, host_only=True)
                        if r.kind != "experiment"]
                failed = [r.label for r in rows if r.word != "PASS"]
                label = os.path.basename(answer)[:-len(".patch")] if answer else "(the stub)"
                score = sum(r.score for r in rows)
                shown = "every row" if len(failed) == len(rows) else ", ".join(failed)
                print("  %-28s %3d/%-5d %s" % (label, score, sum(r.points for r in rows),
                                               shown or "NONE: not caught"))
                if not failed or (not answer and score):
                    missed.append("%s %s" % (name, label))
    if missed:
        print("lab: the grader misses: %s" % ", ".join(missed))
        return 1
    return 0


def cmd_record(name):
    lab = lab_or_die(name)
    exp = lab.get("experiment")
    if not exp:
        die("lab %s has no experiment; those with one: %s" % (
            name, ", ".join(n for n, l in LABS.items() if l.get("experiment"))))
    if in_cut_tree():
        die("record runs the reference: use it in the repository, not in a cut tree")
    got, why = lab_grade.run_experiment(ROOT, exp)
    if got is None:
        die("record %s: %s" % (name, why.splitlines()[0]))
    path = os.path.join(ROOT, lab_grade.EXPECTED)
    try:
        with open(path) as fh:
            table = json.load(fh)
    except OSError:
        table = {}
    table[name] = dict(cmdline=exp["cmdline"], bench=exp["bench"], key=exp["key"], value=got)
    with open(path, "w") as fh:
        json.dump(table, fh, indent=2, sort_keys=True)
        fh.write("\n")
    print("lab %s: %s %s = %.1f stored in %s" % (name, exp["bench"], exp["key"], got,
                                               lab_grade.EXPECTED))


def take(args, flag, with_value=False):
    """Remove FLAG (and its value) from ARGS; its value, True, or None."""
    if flag not in args:
        return None
    i = args.index(flag)
    if with_value:
        if i + 1 >= len(args):
            die("%s needs a value" % flag)
        value = args[i + 1]
        del args[i:i + 2]
        return value
    del args[i]
    return True


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    cmd, args = argv[0], list(argv[1:])
    if cmd == "list" and not args:
        cmd_list()
        return 0
    if cmd == "cut":
        answer = take(args, "--answer", True)
        if 1 <= len(args) <= 2:
            cmd_cut(args[0], args[1] if len(args) > 1 else None, answer)
            return 0
    if cmd == "grade":
        host_only = bool(take(args, "--host"))
        json_file = take(args, "--json", True)
        if args != ["all"]:
            for name in args:
                lab_or_die(name)
        return cmd_grade(args, host_only, json_file)
    if cmd == "wrong":
        for name in args:
            lab_or_die(name)
        return cmd_wrong(args)
    if cmd == "record" and len(args) == 1:
        cmd_record(args[0])
        return 0
    die("bad command %r; accepted: list, cut NAME [DIR] [--answer PATCH], "
        "grade [--host] [--json FILE] [NAME...|all], wrong [NAME...], record NAME"
        % " ".join(argv))
