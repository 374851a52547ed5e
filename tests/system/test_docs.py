"""The repository stands alone, and its docs keep one key to their sources.

- No file refers to material a reader of the repository does not have: the
  authors' private notes and seed files, or the tracker's issue numbers.
  The pattern is the one a reviewer runs by hand with git grep -nE; this
  file builds it from pieces, so it holds no match itself and checks
  itself like every other file.
- Every source tag used in docs/, tools/seeds.json and the code ([M1/2],
  [0bf], [SN], [LWN] ...) is defined in the key table of docs/DEBATE.md, and
  the files that use tags point to that key.

No QEMU: these run in well under a second.
"""
import os
import re
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# the reviewer's pattern, assembled so that this file holds no match
PRIVATE = "shared"
FORBIDDEN = re.compile(PRIVATE + r"/(reference|seeds)|\.\./" + PRIVATE + "|cfs" + "-2010|"
                       + "iss" + r"ue [0-9]")
SKIP_DIRS = {".git", "build", "results", "__pycache__"}
TAG = re.compile(r"\[(M[0-2]/2|0bf|SN|LWN|MG|L2\.6\.35|EEVDF)\]")


def repo_files():
    """The files of the tree: git's list (tracked and new, not ignored) if
    this is a checkout, else every file outside the build and results dirs."""
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
        return [f for f in out.decode().splitlines() if os.path.isfile(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, subdirs, names in os.walk(ROOT):
            subdirs[:] = [s for s in subdirs if s not in SKIP_DIRS]
            files += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
        return files


def read_text(rel):
    with open(os.path.join(ROOT, rel), "rb") as f:
        data = f.read()
    if b"\0" in data:
        return None                       # binary
    return data.decode("utf-8", "replace")


def test_nothing_refers_outside_the_repository():
    hits = []
    for rel in repo_files():
        text = read_text(rel)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if FORBIDDEN.search(line):
                hits.append(f"{rel}:{n}: {line.strip()}")
    assert not hits, "references to material outside the repository:\n" + "\n".join(hits)


def test_the_pattern_catches_what_it_should():
    """The check above could pass by matching nothing: it must catch each form."""
    for bad in ("see /work/%s/reference/x.md", "../%s/seeds/001", "cfs-20" + "10.md (e)",
                "(iss" + "ue 5)", "%s/seeds/"):
        bad = bad.replace("%s", PRIVATE)
        assert FORBIDDEN.search(bad), bad
    for good in ("docs/DEBATE.md", "commit 0bf377bbb0be", "the seeds' figures", "issue tracker"):
        assert not FORBIDDEN.search(good), good


def debate_key():
    """The tags defined in the key table of docs/DEBATE.md."""
    text = read_text("docs/DEBATE.md")
    return {m.group(1) for m in re.finditer(r"^\| \[([^\]]+)\] \|", text, re.M)}


def test_every_tag_is_defined_in_debate():
    key = debate_key()
    assert {"M1/2", "M2/2", "0bf", "SN", "LWN"} <= key, key
    undefined = []
    for rel in repo_files():
        if not (rel.startswith(("docs/", "kernel/", "tools/", "user/", "tests/host/"))):
            continue
        text = read_text(rel)
        if text is None:
            continue
        for m in TAG.finditer(text):
            if m.group(1) not in key:
                undefined.append(f"{rel}: [{m.group(1)}]")
    assert not undefined, "tags missing from docs/DEBATE.md's key:\n" + "\n".join(undefined)


def test_tag_users_point_to_the_key():
    for rel in ("docs/VARIANTS.md", "docs/EXPERIMENT.md", "docs/RESULTS.md", "tools/seeds.json",
                "tools/granule/bench/report.py"):
        assert "docs/DEBATE.md" in read_text(rel) or "(DEBATE.md)" in read_text(rel), rel
