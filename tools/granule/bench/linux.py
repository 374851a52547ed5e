"""tools/granule/bench/linux.py - Granule beside Linux in pictures and words.

  plot_cdfs(runs, data, out)   per mode, for each Linux run with a Granule twin,
                               Linux's CDF (dashed) beside Granule's at HZ=250
                               (solid), one colour per pair: cdf-linux-MODE for
                               the CFS presets on Linux 6.1, cdf-linux-eevdf-MODE
                               for EEVDF and its variants on Linux 6.12 (.png and
                               .svg); with several load seeds the line is the
                               median of the seeds' CDFs and a band spans their
                               min..max
  differences(runs)            the paragraph on where the two differ and why,
                               every ratio computed from the runs, and whether
                               each EEVDF variant moves both kernels the same way

Both pair a Linux configuration (kernel, preset, mode, load, 250) with
Granule's (granule, GRANULE_TWIN[preset], mode, load, 250), as the fidelity
table does (tools/granule/bench/report.py, over tools/granule/bench/common.py).
"""
import os

from ..peer import linux as linux_peer
from ..stats import Spread, ratio_per_seed
from ..gnuplot import gnuplot
from . import common as bc

EEVDF = "linux-6.12"


def pairs(runs, mode=None):
    """[(linux config, linux group, granule group)] with results on both sides."""
    groups = bc.configurations(runs)
    out = []
    for config, group in groups.items():
        kernel, preset, m, load, hz = config
        twin = linux_peer.GRANULE_TWIN.get(preset)
        if kernel == bc.GRANULE or not twin or (mode and m != mode):
            continue
        theirs = [r for r in group if bc.latency_result(r) and r["hist"]]
        mine = [r for r in bc.select(runs, twin, m, load, hz) if r["hist"]]
        if theirs and mine:
            out.append((config, theirs, mine))
    return out


def cdf(run):
    """{x_us: fraction} at the upper edge of each histogram bucket (as write_cdf)."""
    total = max(bc.latency_result(run).get("samples") or 0, sum(n for _, n in run["hist"])) or 1
    out, acc = {}, 0
    for lo, n in run["hist"]:
        acc += n
        out[lo + run["bucket_us"]] = acc / total
    return out


def cdf_band(group):
    """[(x, median, lo, hi)] of the seeds' CDFs, each a step function, on their common grid."""
    curves = [cdf(r) for r in group]
    xs = sorted({x for c in curves for x in c})
    rows = []
    for x in xs:
        vals = [max((v for k, v in c.items() if k <= x), default=0.0) for c in curves]
        s = Spread(vals)
        rows.append((x, s.median, s.lo, s.hi))
    return rows


# One CDF picture per mode and family: the CFS presets on Linux 6.1, and EEVDF (its defaults
# and the variants' settings) on Linux 6.12, so that neither has more than a few curves.
FAMILIES = [("linux-6.1", "cdf-linux", "Linux 6.1"), (EEVDF, "cdf-linux-eevdf", "Linux 6.12")]


def plot_cdfs(runs, data, out):
    for kernel, base, who_linux in FAMILIES:
        for mode in ("thread", "signal"):
            mine = [p for p in pairs(runs, mode) if p[0][0] == kernel]
            if mine:
                plot_family(mine, mode, data, os.path.join(out, f"{base}-{mode}"), who_linux)


def plot_family(mine, mode, data, out_base, who_linux):
    curves = []
    for i, (config, theirs, ours) in enumerate(mine, 1):
        preset = config[1]
        for who, group, dash in (("granule", ours, 1), (config[0], theirs, 2)):
            name = os.path.join(data, bc.safe(f"cdf-{who}-{preset}-{mode}") + ".dat")
            with open(name, "w", encoding="utf-8") as f:
                f.writelines(f"{x} {m:.6f} {lo:.6f} {hi:.6f}\n" for x, m, lo, hi in cdf_band(group))
            title = f"{'Granule' if who == 'granule' else who} {preset}"
            if len(group) > 1:
                curves.append(f"'{name}' using 1:3:4 with filledcurves fs transparent solid 0.15 "
                              f"lc {i} notitle")
            curves.append(f"'{name}' using 1:2 with steps lt {i} dt {dash} title '{title}'")
    seeds = max(len(g) for _, g, _ in mine)
    what = f"{mode} mode, {bc.HEADLINE_LOAD}, HZ={bc.LINUX_HZ}" + \
        (f", median of {seeds} seeds, band: min-max" if seeds > 1 else ", one seed")
    gnuplot(f"set terminal @TERM\nset output '@OUT'\n"
               f"set title 'Granule (solid) beside {who_linux} (dashed): wakeup latency CDF, {what}'\n"
               "set xlabel 'latency (us)'\nset ylabel 'fraction of expiries'\nset logscale x\n"
               f"set key bottom right font ',8'\nset grid\n{bc.COLOURS}plot {', '.join(curves)}\n",
               out_base)


def ratios(runs, key, mode, presets=None):
    """[(Linux preset, median over seeds of Granule / Linux)] of the pairs in MODE (of PRESETS)."""
    out = []
    for config, theirs, ours in pairs(runs, mode):
        if presets is not None and config[1] not in presets:
            continue
        ratio = ratio_per_seed(bc.by_seed(ours, key), bc.by_seed(theirs, key))
        if ratio:
            out.append((config[1], Spread(list(ratio.values())).median))
    return out


def describe(values):
    """'1.07 (linux-2.6.35), 0.90 (...)' and their range in words."""
    return ", ".join(f"{v:.2f} ({p})" for p, v in values)


def closeness(values):
    lo, hi = min(v for _, v in values), max(v for _, v in values)
    if 0.9 <= lo and hi <= 1.1:
        return f"within 10 % of 1 (from {lo:.2f} to {hi:.2f})"
    return f"from {lo:.2f} to {hi:.2f}"


def differences(runs):
    """The section in words; empty without paired Linux runs."""
    if not pairs(runs):
        return []
    family = {}     # Linux kernel -> its paired presets, in pair order
    for (kernel, preset, *_), _, _ in pairs(runs):
        if preset not in family.setdefault(kernel, []):
            family[kernel].append(preset)
    cfs, eevdf = family.get("linux-6.1", []), family.get(EEVDF, [])
    drawn = {(config[0], config[2]) for config, _, _ in pairs(runs)}    # as plot_cdfs draws them
    pictures = " ".join(f"![CDF, {who} {mode}]({base}-{mode}.svg)" for kernel, base, who in FAMILIES
                        for mode in ("thread", "signal") if (kernel, mode) in drawn)
    lines = ["### Where Granule and Linux differ, and why", "", pictures, "",
             "Ratios are Granule / Linux, each the median over the load seeds of the per-seed ratio.", ""]
    # the tick: Granule's own HZ=250 against HZ=1000
    hz = []
    for preset in cfs:
        twin = linux_peer.GRANULE_TWIN[preset]
        r = ratio_per_seed(bc.by_seed(bc.select(runs, twin, "thread", hz=bc.LINUX_HZ), "max_us"),
                              bc.by_seed(bc.select(runs, twin, "thread", hz=bc.DEFAULT_HZ), "max_us"))
        if r:
            hz.append((preset, Spread(list(r.values())).median))
    if hz:
        lines.append(
            f"- **HZ.** Debian builds both kernels with `CONFIG_HZ_250`, so every pair runs at HZ=250 and the "
            "tick is the same on both sides; the rest of this file runs Granule at HZ=1000. The tick "
            "matters: a task that a wakeup does not preempt keeps the CPU until a tick's "
            "`check_preempt_tick()`, 4 ms apart at HZ=250 against 1 ms. Granule's own thread-mode "
            f"maximum at HZ=250 over HZ=1000: {describe(hz)}.")
    sig = ratios(runs, "avg_us", "signal", cfs)
    if sig:
        lines.append(
            "- **Kernel path costs.** In signal mode the woken code is the interrupted task's signal "
            "handler, which runs as soon as the timer interrupt returns, so the latency is the path from "
            "the interrupt to the handler. Linux is a 64-bit kernel running the i386 binaries through its "
            "compat entry, with voluntary preemption points; Granule is a 32-bit kernel without kernel "
            f"preemption. Average ratio in signal mode: {describe(sig)}, {closeness(sig)}"
            + ("; under -icount (instructions, not cycles) the two paths cost about the same on average"
               if all(0.9 <= v <= 1.1 for _, v in sig) else
               "; Granule's path is the " + ("longer" if Spread([v for _, v in sig]).median > 1
                                              else "shorter") + " on average")
            + ("; maximum ratio: " + describe(ratios(runs, "max_us", "signal", cfs)) + "."
               if ratios(runs, "max_us", "signal", cfs) else "."))
    lines.append(
        "- **Autogroup off.** Linux boots with `noautogroup`: with autogroup (2.6.38 on) each session is a "
        "task group, and the kbuild jobs would share one group's weight against the experiment's; "
        "2.6.35 and Granule have no groups, so the pairs compare the same flat runqueue.")
    thr_max, thr_avg = ratios(runs, "max_us", "thread", cfs), ratios(runs, "avg_us", "thread", cfs)
    if thr_max:
        lines.append(
            "- **The 6.1 code's changes since 2.6.35.** With the 2.6.35 knobs written into 6.1's debugfs, "
            f"the thread-mode maximum ratio is {describe(thr_max)}, {closeness(thr_max)}, and the "
            f"average ratio {describe(thr_avg)}, {closeness(thr_avg)}. Same knobs, not the same code: "
            "thirteen years of fair.c (per-entity load tracking, a reworked `place_entity()`, features "
            "2.6.35 had and 6.1 dropped) change which hog runs when"
            + ("; with every ratio within 10 % of 1, the presets' effects carry over to 6.1."
               if all(0.9 <= v <= 1.1 for _, v in thr_max + thr_avg) else
               "; where a ratio is more than 10 % away from 1, that code, not the knobs, is the "
               "difference."))
    eev_max, eev_avg = ratios(runs, "max_us", "thread", eevdf), ratios(runs, "avg_us", "thread", eevdf)
    if eev_max:
        sig = ratios(runs, "max_us", "signal", eevdf)
        near = all(0.9 <= v <= 1.1 for _, v in eev_max + eev_avg)
        lines.append(
            "- **EEVDF.** Granule's EEVDF class (`sched_preset=linux-6.12`, and the variants' words) "
            f"beside Linux 6.12 with the same settings: thread-mode maximum ratio {describe(eev_max)}; "
            f"average ratio {describe(eev_avg)}"
            + (f"; signal-mode maximum ratio {describe(sig)}" if sig else "")
            + ". Granule's class follows Debian's 6.12 step by step but not its surroundings "
            "(docs/SCHEDULER.md, \"Deliberate differences from Linux 6.12\": the pick order around "
            "`put_prev_task()`, DELAY_DEQUEUE's accounting, no kernel preemption)"
            + (", and the ratios stay within 10 % of 1." if near else
               "; where a ratio is more than 10 % away from 1, these runs show that the two EEVDFs "
               "differ, not which of those differences (or another) makes them differ. In thread mode "
               "the averages' distance from 1 is mostly the notification path's cost, cheaper on Granule "
               "and multiplied by PLACE_LAG: \"The notification path's cost\" (below, tools/bench_cost.py) "
               "compares them again with Granule's helper padded to Linux's cost."))
        lines += variant_effects(runs, eevdf)
    return lines + [""]


def variant_effects(runs, eevdf):
    """Does each variant move Granule's figures the way it moves Linux's?  Per variant, its
    thread-mode average and maximum over its base's (same seed, HZ=250), on both kernels."""

    def effect(kernel, name, key):
        r = ratio_per_seed(bc.by_seed(bc.select(runs, name, "thread", hz=bc.LINUX_HZ,
                                                   kernel=kernel), key),
                              bc.by_seed(bc.select(runs, EEVDF, "thread", hz=bc.LINUX_HZ,
                                                   kernel=kernel), key))
        return Spread(list(r.values())).median if r else None

    rows, agree = [], 0
    for preset in eevdf:
        twin = linux_peer.GRANULE_TWIN[preset]
        if preset == EEVDF:
            continue
        mine = {key: effect(bc.GRANULE, twin, key) for key in ("avg_us", "max_us")}
        theirs = {key: effect(EEVDF, preset, key) for key in ("avg_us", "max_us")}
        if None in mine.values() or None in theirs.values():
            continue
        agree += all((mine[k] - 1) * (theirs[k] - 1) > 0 for k in mine)
        rows.append(f"`{twin.split(' ', 1)[1]}` multiplies the average by {mine['avg_us']:.2f} on "
                    f"Granule and {theirs['avg_us']:.2f} on Linux, the maximum by "
                    f"{mine['max_us']:.2f} and {theirs['max_us']:.2f}")
    if not rows:
        return []
    return [f"- **The variants' effects.** Against linux-6.12's own thread-mode figures (the same "
            f"seed, median over seeds): {'; '.join(rows)}. Both figures move the same way on both "
            f"kernels for {agree} of the {len(rows)} variants"
            + ("." if agree == len(rows) else
               "; where they do not, the setting acts on a difference between the two EEVDFs, not "
               "only through its own knob.")]
