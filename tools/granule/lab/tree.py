"""tools/granule/lab/tree.py - the labs' regions in the sources, and the trees cut from them.

A lab region is the lines strictly between a line ending in
"/* LAB(NAME) BEGIN */" and one ending in "/* LAB(NAME) END */"; the markers
sit on existing lines (the function's braces) so that no line moves and the
kernel image stays byte-identical.

A cut tree (cut()) is a copy of the repository's files in which lab NAME's
regions hold a stub; it records its lab in .lab, holds the reference's
objects in .lab-reference/ (the property tests run the repository's code
beside the student's: tests/labs/rules.mk), and is a git repository of one
commit, the stubbed state, so that `git diff` shows what the student wrote.
An answer (a patch against the repository, as tests/labs/wrong/ keeps them)
can be written into the regions instead (answer_bodies()).
"""
import collections
import os
import re
import shutil
import subprocess
import tempfile

from .make import make_in
from .spec import SUITE_FILES

MARK = re.compile(r"/\* LAB\((\w+)\) (BEGIN|END) \*/\s*$")
FUNC = re.compile(r"^[A-Za-z_][\w \t*]*?\b(\w+)\(")
REFERENCE_DIR = ".lab-reference"
REFERENCE_OBJECTS = ("fair.o", "eevdf.o", "balance.o", "eevdf_smp.o")      # build/host/labs.ref/, tests/labs/rules.mk
GIT_IDENTITY = ["-c", "user.name=Granule lab", "-c", "user.email=lab@granule.invalid"]

Region = collections.namedtuple("Region", "file begin end func")


class LabError(Exception):
    """A lab operation that cannot go on; the message is one line for the user."""


def repo_files(root):
    """The repository's files as git knows them (tracked, plus new ones not ignored)."""
    out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "-z"],
                         check=True, capture_output=True).stdout.decode()
    return [f for f in out.split("\0") if f and os.path.isfile(os.path.join(root, f))]


def enclosing_function(lines, begin):
    """The name of the function whose definition starts at or before line BEGIN."""
    for i in range(begin, -1, -1):
        m = FUNC.match(lines[i])
        if m and not lines[i].lstrip().startswith(("/*", "*", "#")):
            return m.group(1)
    return "?"


def file_regions(path, rel):
    """{lab name: [Region]} of one file (RELative name), in file order."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    found, open_at = {}, {}
    for i, line in enumerate(lines):
        m = MARK.search(line)
        if not m:
            continue
        name, what = m.groups()
        if what == "BEGIN":
            open_at[name] = i
        elif name in open_at:
            b = open_at.pop(name)
            found.setdefault(name, []).append(Region(rel, b, i, enclosing_function(lines, b)))
    return found


def regions(root, files=None):
    """{lab name: [Region]} of every marker pair under kernel/."""
    found = {}
    for f in files or repo_files(root):
        if f.endswith((".c", ".h")) and f.startswith("kernel/"):
            for name, regs in file_regions(os.path.join(root, f), f).items():
                found.setdefault(name, []).extend(regs)
    return found


def stub_lines(name, lab, i):
    """The stub of region I (0 = the first in the file) of lab NAME, one tab indented."""
    stub = lab["stub"]
    if stub and isinstance(stub[0], list):
        stub = stub[i]
    return ["\t/*",
            "\t * TODO(lab %s): write this.  %s: %s." % (name, lab.get("source", "Linux"),
                                                         lab["linux"]),
            "\t * Read %s; docs/LABS.md says how it is graded." % lab["docs"],
            "\t */"] + stub


def replace_bodies(path, name, bodies, reindent=False):
    """Write BODIES (one list of lines per region of lab NAME in PATH, in file
    order) between the markers; REINDENT: each line indented by the region's
    first line's indentation instead of one tab (a stub)."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    spans = sorted((r.begin, r.end) for r in file_regions(path, path).get(name, []))
    for (b, e), body in reversed(list(zip(spans, bodies))):
        indent = (re.match(r"\s*", lines[b + 1]).group() if b + 1 < e else "") or "\t"
        lines[b + 1:e] = [indent + l[1:] if reindent and l.startswith("\t") else l
                          for l in body]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))


def clean_env():
    """The environment for git in a cut tree: no GIT_DIR and the like from a caller."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def git_commit(dest, message):
    """Make DEST a git repository of one commit holding its files (no identity needed)."""
    env = clean_env()
    for cmd in (["init", "-q"], ["add", "-A"], GIT_IDENTITY + ["commit", "-q", "-m", message]):
        done = subprocess.run(["git"] + cmd, cwd=dest, env=env, capture_output=True, text=True)
        if done.returncode:
            raise LabError("git %s in %s failed: %s" % (cmd[-1] if cmd[0] != "-c" else "commit",
                                                        dest, done.stderr.strip()))


def reference_objects(root):
    """Build the reference's objects in ROOT; their paths."""
    objs = [os.path.join("build", "host", "labs.ref", o) for o in REFERENCE_OBJECTS]
    made = make_in(root, objs)
    if made.returncode:
        raise LabError("the reference's objects do not build: " +
                       (made.stdout + made.stderr).strip().splitlines()[-1])
    return [os.path.join(root, o) for o in objs]


def cut(root, name, lab, dest):
    """Write the cut tree of lab NAME to DEST; its regions as [Region] (cut tree lines)."""
    files = repo_files(root)
    where = regions(root, files).get(name)
    if not where:
        raise LabError("no LAB(%s) region in the sources" % name)
    refs = reference_objects(root)
    for f in files:
        os.makedirs(os.path.dirname(os.path.join(dest, f)), exist_ok=True)
        shutil.copy2(os.path.join(root, f), os.path.join(dest, f))
    by_file = collections.OrderedDict()
    for r in where:
        by_file.setdefault(r.file, []).append(r)
    for f, regs in by_file.items():
        replace_bodies(os.path.join(dest, f), name,
                       [stub_lines(name, lab, i) for i in range(len(regs))], reindent=True)
    os.makedirs(os.path.join(dest, REFERENCE_DIR), exist_ok=True)
    for o in refs:
        shutil.copy2(o, os.path.join(dest, REFERENCE_DIR))
    with open(os.path.join(dest, ".lab"), "w") as fh:
        fh.write(name + "\n")
    git_commit(dest, "lab %s: the repository with LAB(%s) cut out\n\n"
                     "Write it back, then `make grade`; `git diff` shows what you wrote."
                     % (name, name))
    return regions(dest, list(by_file))[name]


def answer_bodies(root, name, patch):
    """{file: [body lines per region]} of the answer PATCH (a patch against
    ROOT's sources that changes only lines inside lab NAME's regions)."""
    with open(patch, encoding="utf-8") as fh:
        text = fh.read()
    files = sorted(set(re.findall(r"^\+\+\+ b/(\S+)", text, re.M)))
    if not files:
        raise LabError("%s is not a patch (no +++ b/FILE line)" % patch)
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(tmp, f)), exist_ok=True)
            shutil.copy2(os.path.join(root, f), os.path.join(tmp, f))
        done = subprocess.run(["git", "apply", "-p1", os.path.abspath(patch)], cwd=tmp,
                              env=clean_env(), capture_output=True, text=True)
        if done.returncode:
            raise LabError("%s does not apply to the repository's code: %s" % (
                patch, done.stderr.strip().splitlines()[0]))
        bodies = {}
        for f in files:
            bodies[f] = region_bodies(os.path.join(tmp, f), name)
            if outside(os.path.join(tmp, f), name) != outside(os.path.join(root, f), name):
                raise LabError("%s changes %s outside the LAB(%s) regions" % (patch, f, name))
    return bodies


def region_bodies(path, name):
    """The lines of each of lab NAME's regions in PATH, in file order."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    return [lines[r.begin + 1:r.end] for r in file_regions(path, path).get(name, [])]


def outside(path, name):
    """PATH's lines without lab NAME's region bodies."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    for r in reversed(file_regions(path, path).get(name, [])):
        del lines[r.begin + 1:r.end]
    return lines


def write_answer(dest, name, bodies):
    """Write an answer's region bodies (answer_bodies()) into the tree DEST."""
    for f, regs in bodies.items():
        replace_bodies(os.path.join(dest, f), name, regs)


def seed_build(root, dest):
    """Start DEST's build/ from ROOT's lab objects (build/host/labs.o,
    tests/labs/rules.mk), the host suites' among them: a cut keeps the files'
    times, so make recompiles only the files the cut rewrote.  make runs under
    ROOT's lock (make_in), beside other grades of ROOT."""
    made = make_in(root, ["build/host/labs"] + [os.path.join("build", "host", "labs.suite", s)
                                                 for s in SUITE_FILES])
    if made.returncode:
        raise LabError("the repository's checks do not build: " +
                       (made.stdout + made.stderr).strip().splitlines()[-1])
    src = os.path.join(root, "build", "host", "labs.o")
    shutil.copytree(src, os.path.join(dest, "build", "host", "labs.o"), dirs_exist_ok=True)
    os.makedirs(os.path.join(dest, "build", "gen"), exist_ok=True)
    shutil.copy2(os.path.join(root, "build", "gen", "sched_presets.h"),
                 os.path.join(dest, "build", "gen"))
