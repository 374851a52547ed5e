"""tools/granule/bench/eevdf.py - what Linux did later: EEVDF against the 2010 variants.

Thirteen years after the debate Linux replaced CFS's pick with EEVDF (6.6;
Granule's linux-6.12 class).  This table asks what that buys under the
seeds' load: for each EEVDF configuration (linux-6.12 and its variants,
tools/granule/bench/variants.py) and each 2010 reference (commit-0bf377bbb0be,
what 2.6.36 shipped, and no-start-debit, the seeds' best merged fix), the
reference's figure over EEVDF's, per load seed (the same seed on both
sides), for max, avg and p99: a ratio above 1 means EEVDF's is lower.

  table(runs)     the section (a list of Markdown lines; empty without data)
  words(ratios)   {key: {seed: ratio}} -> "max and avg lower in 5/5 seeds; ..."

On Granule the rows compare runs of one kernel image at HZ=1000 and 250; on
Linux, Debian's 6.12 (the variant's Linux twin, tools/granule/peer/linux.py) against
Debian's 6.1 set to the 2010 knobs, at HZ=250.  The words are counted from
the per-seed ratios, never typed.
"""
import math

from ..peer import linux as linux_peer
from ..stats import Spread, ratio_per_seed
from . import common as bc

EEVDF_BASE = "linux-6.12"
REFERENCES = ["commit-0bf377bbb0be", "no-start-debit"]
KEYS = [("max", "max_us"), ("avg", "avg_us"), ("p99", "p99_us")]


def ratio_text(value):
    """Three significant digits: the ratios span 0.001 (EEVDF's signal-mode maxima) to 1000."""
    if value <= 0:
        return f"{value:g}"
    return f"{value:.{max(0, 2 - math.floor(math.log10(value)))}f}"


def direction(ratios):
    """One figure's per-seed ratios (reference / EEVDF) in words."""
    vals = list(ratios.values())
    n, lower, higher = len(vals), sum(v > 1 for v in vals), sum(v < 1 for v in vals)
    if lower == n:
        return f"lower in {n}/{n} seeds"
    if higher == n:
        return f"higher in {n}/{n} seeds"
    if lower == higher == 0:
        return f"the same in {n}/{n} seeds"
    if lower > higher:
        return f"lower in {lower}/{n}: within seed spread"
    if higher > lower:
        return f"higher in {higher}/{n}: within seed spread"
    return f"lower in {lower}/{n}, higher in {higher}/{n}: within seed spread"


def words(ratios):
    """{name: {seed: ratio}} -> the names that share a direction, joined: 'max and avg lower
    in 5/5 seeds; p99 higher in 3/5: within seed spread'."""
    groups = {}
    for name, r in ratios.items():
        if r:
            groups.setdefault(direction(r), []).append(name)
    parts = []
    for phrase, names in groups.items():
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append(f"{who} {phrase}")
    return "; ".join(parts) or "–"


def sides(runs):
    """[(kernel name, hz, mode, [(EEVDF name, runs)], [(reference, runs)])] with data on both
    sides: Granule at each HZ, then Linux (6.12 against 6.1)."""
    groups = bc.configurations(runs)
    out = []
    for kernel, hz in [(bc.GRANULE, bc.DEFAULT_HZ), (bc.GRANULE, bc.LINUX_HZ),
                       ("linux", linux_peer.LINUX_HZ)]:
        for mode in ("thread", "signal"):
            mine, refs = [], []
            for (k, preset, m, load, h), group in groups.items():
                group = [r for r in group if bc.latency_result(r)]
                if (m, load, h) != (mode, bc.HEADLINE_LOAD, hz) or not group:
                    continue
                if kernel == bc.GRANULE and k == bc.GRANULE:
                    if preset == EEVDF_BASE or preset.startswith(EEVDF_BASE + " "):
                        mine.append((preset, group))
                    elif preset in REFERENCES:
                        refs.append((preset, group))
                elif kernel != bc.GRANULE and k == "linux-6.12":
                    mine.append((linux_peer.GRANULE_TWIN.get(preset, preset), group))
                elif kernel != bc.GRANULE and k == "linux-6.1" and preset in REFERENCES:
                    refs.append((preset, group))
            refs.sort(key=lambda p: REFERENCES.index(p[0]))
            if mine and refs:
                out.append(("Granule" if kernel == bc.GRANULE else "Linux", hz, mode, mine, refs))
    return out


def lowest(configs, key):
    """(name, median) of the configuration with the lowest median KEY."""
    return min(((name, bc.spread(group, key).median) for name, group in configs),
               key=lambda c: c[1])


def table(runs):
    found = sides(runs)
    if not found:
        return []
    lines = [f"## What Linux did later: EEVDF against the 2010 variants ({bc.HEADLINE_LOAD})", "",
             "Linux 6.6 replaced CFS's pick with EEVDF (docs/DEBATE.md, \"Much later\"); Granule's "
             "`linux-6.12` class follows Debian's 6.12. Each row divides a 2010 configuration's figure by "
             "an EEVDF configuration's, under the same load, mode, HZ and load seed, so a ratio above 1 "
             "means EEVDF's is lower; a cell is the per-seed ratios' median [min–max], to three "
             "significant digits, and the words count the seeds in which EEVDF's figure is lower or "
             "higher. Linux rows run Debian's 6.12 with the same setting (its preset in "
             "`tools/linux-peer presets`) against Debian's 6.1 set to the 2010 knobs, at HZ=250.", "",
             "| EEVDF | against | kernel | mode | HZ | max ratio | avg ratio | p99 ratio | in words |",
             "|---|---|---|---|---|---|---|---|---|"]
    best = []
    for kernel, hz, mode, mine, refs in found:
        for name, group in mine:
            for ref, ref_group in refs:
                ratios = {short: ratio_per_seed(bc.by_seed(ref_group, key), bc.by_seed(group, key))
                          for short, key in KEYS}
                cells = " | ".join(Spread(list(r.values())).fmt(ratio_text) for r in ratios.values())
                lines.append(f"| {name} | {ref} | {kernel} | {mode} | {hz} | {cells} | "
                             f"{words(ratios)} |")
        everyone = mine + refs
        (mx, mx_v), (av, av_v) = lowest(everyone, "max_us"), lowest(everyone, "avg_us")
        best.append(f"- {kernel}, {mode} mode, HZ={hz}: the lowest median maximum of these "
                    f"{len(everyone)} configurations is {mx}'s ({bc.fnum(mx_v)} µs), the lowest "
                    f"median average {av}'s ({bc.fnum(av_v)} µs).")
    return lines + [""] + best + [""]
