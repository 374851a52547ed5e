"""tools/debate-figures - put Granule's own figure, with its load-seed spread,
beside each published 2010 figure in docs/DEBATE.md.

  tools/debate-figures           rewrite the summary table between its markers in docs/DEBATE.md,
                                 and each claim's line at the end of its timeline section
  tools/debate-figures --check   exit 1 (one line) if the block differs from docs/RESULTS.md

The figures are the bench's (tools/granule/bench/report.py writes docs/RESULTS.md,
"The 2010 claims, judged over load seeds"): for each claim, the published
ratio and Granule's median [min-max] over the load seeds at HZ=1000 and
HZ=250, with the verdict.  Nothing is measured or recomputed here.

The section on EEVDF ("Much later: EEVDF in 6.6") gets EEVDF's gain, raw and
cost-matched, from docs/RESULTS.md's COST block (tools/bench_cost.py --docs,
"EEVDF's gain: CFS's average over EEVDF's").
"""
import os
import re
import sys

from ..paths import ROOT
RESULTS = os.path.join(ROOT, "docs", "RESULTS.md")
DEBATE = os.path.join(ROOT, "docs", "DEBATE.md")
BEGIN = "<!-- tools/debate-figures: begin (generated from docs/RESULTS.md; do not edit) -->"
END = "<!-- tools/debate-figures: end -->"
# Each claim's own line at the end of the timeline section that tells it.
SECTIONS = {
    "dyn-gran lowers the max": "### 2010-09-11: Mathieu's measurements",
    "signals are far faster than threads": "### 2010-09-11: Mathieu's measurements",
    "2.6.35's max is above 0bf377bbb0be's": "### 2010-09-12: commit 0bf377bbb0be",
    "NO_START_DEBIT lowers the average": "### Mike Galbraith and START_DEBIT",
    "START_NICE lowers the max further": "### 2010-09-14: START_NICE v2",
}


def claims(results_text):
    """{(claim, quantity): {hz: (median_range, published, verdict)}} in table order."""
    m = re.search(r"^## The 2010 claims, judged over load seeds.*?\n(\|.*?)(?=\n\n|\Z)", results_text, re.M | re.S)
    if not m:
        raise ValueError("docs/RESULTS.md has no \"The 2010 claims, judged over load seeds\" table")
    out = {}
    for line in m.group(1).splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) != 8:
            raise ValueError(f"docs/RESULTS.md claims table: a row of {len(cells)} cells, expected 8: {line}")
        claim, qty, hz, _per_seed, spread, published, verdict, _needed = cells
        out.setdefault((claim, qty), {})[hz] = (spread, published, verdict)
    return out


GAIN_SECTION = "### Much later: EEVDF in 6.6"
GAIN_TITLE = "EEVDF's gain: CFS's average over EEVDF's"


def gains(results_text):
    """[(kernel, cfs_avg, eevdf_avg, gain)] from the COST block's gain table, in table order."""
    m = re.search(r"^#+ " + re.escape(GAIN_TITLE) + r".*?\n(\|.*?)(?=\n\n|\n<!--|\Z)", results_text, re.M | re.S)
    if not m:
        raise ValueError(f"docs/RESULTS.md has no \"{GAIN_TITLE}\" table (tools/bench_cost.py --docs)")
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in m.group(1).splitlines()[2:]]
    bad = [r for r in rows if len(r) != 4]
    if bad or not rows:
        raise ValueError(f"docs/RESULTS.md gain table: expected rows of 4 cells, got {bad or 'none'}")
    return [tuple(r) for r in rows]


def gain_line(rows):
    at = "; ".join(f"{k}: {g} ({c} µs over {e} µs)" for k, c, e, g in rows)
    return ("<!-- tools/debate-figures: EEVDF's gain -->\n**EEVDF's gain** (`tools/bench_cost.py`, kbuild:10, "
            f"thread mode, HZ=250, linux-2.6.35's average over linux-6.12's, median [min–max] over the load "
            f"seeds): {at}.\n<!-- tools/debate-figures: end -->")


def with_gain(deb, res):
    """DEB with EEVDF's gain line (re)written at the end of the EEVDF section."""
    line = gain_line(gains(res))
    old = re.search(r"<!-- tools/debate-figures: EEVDF's gain -->.*?<!-- tools/debate-figures: end -->", deb, re.S)
    if old:
        return deb[:old.start()] + line + deb[old.end():]
    start = deb.find("\n" + GAIN_SECTION)
    if start < 0:
        raise ValueError(f"docs/DEBATE.md has no section {GAIN_SECTION!r}")
    end = deb.find("\n##", start + 1)             # the next section, ## or ###
    end = len(deb) if end < 0 else end
    return deb[:end].rstrip("\n") + "\n\n" + line + "\n" + deb[end:]


def block(results_text):
    rows = ["| claim (ratio > 1 when it holds) | published | Granule, HZ=1000: median [min–max] over the "
            "load seeds | Granule, HZ=250 |", "|---|---|---|---|"]
    for (claim, qty), by_hz in claims(results_text).items():
        pub = next(iter(by_hz.values()))[1]
        cell = lambda hz: (f"{by_hz[hz][0]} ({by_hz[hz][2]})" if hz in by_hz else "-")  # noqa: E731
        rows.append(f"| {claim}: {qty} | {pub} | {cell('1000')} | {cell('250')} |")
    return "\n".join([BEGIN, "", *rows, "", END])


def claim_line(claim, qty, by_hz):
    pub = next(iter(by_hz.values()))[1]
    at = "; ".join(f"{by_hz[hz][0]} at HZ={hz} ({by_hz[hz][2]})" for hz in ("1000", "250") if hz in by_hz)
    return (f"<!-- tools/debate-figures: {claim} -->\n**Granule's figure** (`make bench`, median [min–max] "
            f"over the load seeds): {claim}, {qty} = {at}; published: {pub}.\n<!-- tools/debate-figures: end -->")


def with_claims(deb, res):
    """DEB with each claim's line (re)written at the end of its section."""
    for (claim, qty), by_hz in claims(res).items():
        if claim not in SECTIONS:
            raise ValueError(f"claim {claim!r} of docs/RESULTS.md has no DEBATE.md section in SECTIONS")
        line = claim_line(claim, qty, by_hz)
        old = re.search(r"<!-- tools/debate-figures: " + re.escape(claim) + r" -->.*?"
                        r"<!-- tools/debate-figures: end -->", deb, re.S)
        if old:
            deb = deb[:old.start()] + line + deb[old.end():]
            continue
        start = deb.find("\n" + SECTIONS[claim])
        if start < 0:
            raise ValueError(f"docs/DEBATE.md has no section {SECTIONS[claim]!r}")
        end = deb.find("\n### ", start + 1)
        end = len(deb) if end < 0 else end
        deb = deb[:end].rstrip("\n") + "\n\n" + line + "\n" + deb[end:]
    return deb


def main():
    with open(RESULTS) as f:
        res = f.read()
    with open(DEBATE) as f:
        deb = f.read()
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(f"tools/debate-figures: unknown argument {sys.argv[1]!r} (expected none or --check)")
    m = re.search(re.escape(BEGIN) + r".*?" + re.escape(END), deb, re.S)
    if not m:
        sys.exit("tools/debate-figures: docs/DEBATE.md has no generated block (its begin/end markers)")
    try:
        new = with_gain(with_claims(deb[:m.start()] + block(res) + deb[m.end():], res), res)
    except ValueError as e:
        sys.exit(f"tools/debate-figures: {e}")
    if sys.argv[1:] == ["--check"]:
        if new != deb:
            sys.exit("tools/debate-figures: docs/DEBATE.md's figures differ from docs/RESULTS.md: "
                     "run tools/debate-figures")
        return
    with open(DEBATE, "w") as f:
        f.write(new)
