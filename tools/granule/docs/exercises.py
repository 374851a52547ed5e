"""tools/exercises - write docs/EXERCISES.md, the index of every exercise in docs/.

  tools/exercises            rewrite docs/EXERCISES.md
  tools/exercises --check    exit 1 (one line) if docs/EXERCISES.md is not what it would write

An exercise is a numbered item "N. **Kind.** text" of a "## Exercises" section
in any docs/*.md; its answer is the "## N. ..." section of docs/answers/DOC.md.
The kind says what the student does (the exercises' own bold words), and the
difficulty follows from it unless the item gives its own, "N. **Kind.** (level)":
"Predict." easy (reason from the text), "Predict, then measure." medium (reason,
then run Granule), "Trace." medium (follow the code, in gdb or by reading),
"Change the code" hard (write and test kernel or tool code).  LABS.md's items,
"N. (level) Lab ...", are graded labs: kind "Change the code (graded lab)".
"""
import os
import re
import sys

from ..paths import ROOT
DOCS = os.path.join(ROOT, "docs")
OUT = os.path.join(DOCS, "EXERCISES.md")
ITEM = re.compile(r"^(\d+)\. \*\*([^*]+?)\.?\*\*\s*(?:\((easy|medium|hard)\)\s*)?(.*)$")
TAGGED = re.compile(r"^(\d+)\. \((easy|medium|hard)\)\s*(.*)$")   # "1. (easy) Lab ...": LABS.md
LAB_KIND = "Change the code (graded lab)"


def difficulty(kind):
    k = kind.lower()
    if k.startswith("change the code"):
        return "hard"
    if k.startswith("predict, then measure") or k.startswith("trace"):
        return "medium"
    if k.startswith("predict"):
        return "easy"
    raise ValueError(f"exercise kind {kind!r}: not one of Predict / Predict, then measure / Trace / "
                     "Change the code")


def answers(doc):
    """{number: heading} of docs/answers/DOC."""
    path = os.path.join(DOCS, "answers", doc)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {int(m.group(1)): m.group(2) for m in re.finditer(r"^## (\d+)\. (.+)$", f.read(), re.M)}


def exercises():
    """[(doc, number, kind, difficulty, first words, answer heading or None)] of every docs/*.md,
    by file name."""
    out = []
    for doc in sorted(os.listdir(DOCS)):
        if not doc.endswith(".md") or doc == "EXERCISES.md":
            continue
        with open(os.path.join(DOCS, doc)) as f:
            text = f.read()
        m = re.search(r"^## Exercises\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        if not m:
            continue
        ans = answers(doc)
        for line in m.group(1).splitlines():
            it, lab = ITEM.match(line), TAGGED.match(line)
            if it:
                n, kind, level, words = int(it.group(1)), it.group(2), it.group(3), it.group(4)
                out.append((doc, n, kind, level or difficulty(kind), words, ans.get(n)))
            elif lab:
                n = int(lab.group(1))
                out.append((doc, n, LAB_KIND, lab.group(2), lab.group(3), ans.get(n)))
    return out


def render():
    rows = exercises()
    lines = ["# Every exercise", "",
             "Each document ends with exercises; this is the one list of them, written by `tools/exercises`",
             "from the documents' \"Exercises\" sections (`tests/system/test_docs_learn.py` checks that it",
             "is up to date). Difficulty follows the kind of work: **easy** is *Predict* (reason from the",
             "text), **medium** is *Predict, then measure* (reason, then run Granule) or *Trace* (follow",
             "the code, in gdb or by reading), **hard** is *Change the code* (write and test code), unless",
             "an exercise says otherwise. The graded labs ([LABS.md](LABS.md)) are *Change the code* at",
             "their own level, and [START.md](START.md) says in which order to read the documents.", "",
             "| exercise | kind | difficulty | answer |", "|---|---|---|---|"]
    for doc, n, kind, level, text, ans in rows:
        words = " ".join(re.sub(r"[`*]", "", text).split()[:10])
        where = f"[answers/{doc}, {n}. {ans}](answers/{doc})" if ans else "none yet"
        lines.append(f"| [{doc} {n}]({doc}#exercises): {words} ... | {kind} | {level} | {where} |")
    counts = {d: sum(1 for r in rows if r[3] == d) for d in ("easy", "medium", "hard")}
    lines += ["", f"{len(rows)} exercises: {counts['easy']} easy, {counts['medium']} medium, "
                  f"{counts['hard']} hard.", ""]
    return "\n".join(lines)


def main():
    try:
        text = render()
    except ValueError as e:
        sys.exit(f"tools/exercises: {e}")
    if sys.argv[1:] == ["--check"]:
        with open(OUT) as f:
            if f.read() != text:
                sys.exit("tools/exercises: docs/EXERCISES.md is out of date: run tools/exercises")
        return
    if sys.argv[1:]:
        sys.exit(f"tools/exercises: unknown argument {sys.argv[1]!r} (expected none or --check)")
    with open(OUT, "w") as f:
        f.write(text)
