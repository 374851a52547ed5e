"""tools/granule/sim/sweep_plot.py - the pictures of `tools/sim sweep` (gnuplot, SVG + PNG).

  draw(out, axes, grid, results) -> the names drawn (max_us, avg_us, p99_us, work_frac)

Two knobs: a heatmap per figure over the grid, drawn in grid-index space (one
cell per configuration, so a log-spaced axis has cells of one size), the knob
values as tic labels.  One knob: a line plot per figure.  The reference
settings are marked where the swept knobs are theirs: a point when a setting
gives both knobs, a dashed line when it gives one.  They are read, not typed
here: linux-2.6.35 (the 2010 settings) and commit-0bf377bbb0be (2.6.36) from
tools/presets (through tools/genpresets' parser), and Linux 6.12's defaults
(sched_base_slice_ns) from the knobs' .def in kernel/sched/eevdf_tunables.c.
"""
import math
import os
import re
import shutil

from ..gnuplot import GnuplotError, gnuplot
from ..image import genpresets
from ..paths import ROOT, TOOLS

PRESETS = os.path.join(TOOLS, "presets")
EEVDF_TUNABLES = os.path.join(ROOT, "kernel", "sched", "eevdf_tunables.c")
# (preset of tools/presets, label on the plots)
MARKED_PRESETS = [("linux-2.6.35", "2010: linux-2.6.35"), ("commit-0bf377bbb0be", "2.6.36")]
EEVDF_LABEL = "linux-6.12"
UNITS = {"max_us": "us", "avg_us": "us", "p99_us": "us", "work_frac": "fraction of the CPU"}
PALETTE = "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', 4 '#fde725')\n"
MAX_TICS = 10                  # tic labels per heatmap axis
MAX_CELL_LABELS = 144          # figures written in the cells up to 12 x 12


class PlotError(RuntimeError):
    """No pictures: gnuplot is missing or failed."""


def references():
    """[(label, {knob: value})]: the settings marked on the pictures."""
    gp = genpresets
    presets = {name: s for name, _alias, s, _line in gp.parse(PRESETS)}
    refs = [(label, {knob: presets[name][key] for knob, key in gp.USER_STEPS if key})
            for name, label in MARKED_PRESETS if name in presets]
    with open(EEVDF_TUNABLES, encoding="utf-8") as f:
        defaults = re.findall(r"__KNOB\((\w+)\) = \{[^}]*?\.def = (\d+)", f.read())
    refs.append((EEVDF_LABEL, {k: int(v) for k, v in defaults}))
    return refs


def shown(knob, value):
    """A knob value as the axes show it: a *_ns knob in ms."""
    return value / 1e6 if knob.endswith("_ns") else value


def axis_label(knob):
    return f"{knob} (ms)" if knob.endswith("_ns") else knob


def index_of(axis, value):
    """VALUE's place in grid-index space (linear between neighbours, in log space on a
    log axis), or None outside the swept range."""
    vs = axis.values
    if not vs[0] <= value <= vs[-1]:
        return None
    for i in range(len(vs) - 1):
        a, b = vs[i], vs[i + 1]
        if value <= b:
            if axis.log:
                return i + math.log(value / a) / math.log(b / a)
            return i + (value - a) / (b - a)
    return len(vs) - 1


def title(name, axes, results):
    r = results[0]
    what = ", ".join(str(x) for x in (r.get("preset"), r.get("mode") and f"{r['mode']} mode",
                                      r.get("load") and f"load {r['load']}",
                                      r.get("hz") and f"HZ={r['hz']}",
                                      r.get("duration_s") and f"{r['duration_s']} s",
                                      r.get("seed") is not None and f"seed {r['seed']}") if x)
    return f"{name} over {' x '.join(ax.knob for ax in axes)}" + (f"\\n{what}" if what else "")


def mark_heatmap(axes, refs):
    """gnuplot lines marking REFS on a two-knob heatmap (grid-index coordinates)."""
    lines = []
    for n, (label, settings) in enumerate(refs, 1):
        x = index_of(axes[0], settings[axes[0].knob]) if axes[0].knob in settings else None
        y = index_of(axes[1], settings[axes[1].knob]) if axes[1].knob in settings else None
        if x is not None and y is not None:
            lines.append(f"set label {n} '{label}' at {x},{y} point pt 7 ps 1.6 lc rgb 'white' "
                         "offset 1,1 front boxed tc rgb 'black'")
        elif x is not None:
            lines.append(f"set arrow {n} from {x}, graph 0 to {x}, graph 1 nohead dt 2 lw 2 lc rgb 'white' front")
            lines.append(f"set label {n} '{label}' at {x}, graph 0.96 offset 0.5,0 front boxed")
        elif y is not None:
            lines.append(f"set arrow {n} from graph 0, first {y} to graph 1, first {y} nohead dt 2 lw 2 "
                         "lc rgb 'white' front")
            lines.append(f"set label {n} '{label}' at graph 0.02, first {y} offset 0,0.7 front boxed")
    return "\n".join(lines) + "\n"


def tics(axis):
    step = max(1, math.ceil(axis.n / MAX_TICS))
    return ", ".join(f"'{shown(axis.knob, v):.3g}' {i}" for i, v in enumerate(axis.values) if i % step == 0)


def heatmap(out, name, axes, grid, results, refs):
    nx, ny = axes[0].n, axes[1].n
    rows, k = [], 0
    for i in range(nx):
        for j in range(ny):
            rows.append(f"{i} {j} {results[k][name]}")
            k += 1
        rows.append("")
    cells = ""
    if nx * ny <= MAX_CELL_LABELS:
        fmt = "%.3f" if name == "work_frac" else "%.0f"
        cells = f", $d using 1:2:(sprintf('{fmt}', $3)) with labels font ',8' tc rgb 'grey50' notitle"
    gnuplot("set terminal @TERM\nset output '@OUT'\n"
            "$d << EOD\n" + "\n".join(rows) + "\nEOD\n"
            f'set title "{title(name, axes, results)}"\n'
            f"set xlabel '{axis_label(axes[0].knob)}'\nset ylabel '{axis_label(axes[1].knob)}'\n"
            f"set cblabel '{name} ({UNITS[name]})'\n{PALETTE}"
            "set style textbox opaque noborder\n"
            f"set xrange [-0.5:{nx - 0.5}]\nset yrange [-0.5:{ny - 0.5}]\n"
            f"set xtics ({tics(axes[0])})\nset ytics ({tics(axes[1])})\n"
            + mark_heatmap(axes, refs)
            + "plot $d using 1:2:3 with image notitle" + cells + "\n",
            os.path.join(out, name),
            terms=(("pngcairo noenhanced size 900,700", "png"), ("svg noenhanced size 900,700", "svg")))


def line_plot(out, name, axes, grid, results, refs):
    ax = axes[0]
    rows = [f"{shown(ax.knob, c[0])} {r[name]}" for c, r in zip(grid, results)]
    marks = []
    for n, (label, settings) in enumerate(refs, 1):
        v = settings.get(ax.knob)
        if v is not None and ax.values[0] <= v <= ax.values[-1]:
            x = shown(ax.knob, v)
            marks.append(f"set arrow {n} from {x}, graph 0 to {x}, graph 1 nohead dt 2 lw 1.5 lc rgb 'black'\n"
                         f"set label {n} '{label}' at {x}, graph {0.95 - 0.06 * n} offset 0.5,0")
    gnuplot("set terminal @TERM\nset output '@OUT'\n"
            "$d << EOD\n" + "\n".join(rows) + "\nEOD\n"
            f'set title "{title(name, axes, results)}"\n'
            f"set xlabel '{axis_label(ax.knob)}'\nset ylabel '{name} ({UNITS[name]})'\n"
            + ("set logscale x\n" if ax.log else "") + "set grid\n" + "\n".join(marks) + "\n"
            f"plot $d using 1:2 with linespoints pt 7 lw 1.5 title '{name}'\n",
            os.path.join(out, name))


def draw(out, axes, grid, results):
    """Draw every figure the results have into OUT; return the names drawn."""
    if not shutil.which("gnuplot"):
        raise PlotError("gnuplot not found (Debian package gnuplot-nox: tools/deps all); "
                        "sweep.csv is written, the pictures are not")
    names = [n for n in UNITS if all(r.get(n) is not None for r in results)]
    refs = references()
    draw_one = heatmap if len(axes) == 2 else line_plot
    try:
        for name in names:
            draw_one(out, name, axes, grid, results, refs)
    except GnuplotError as e:
        raise PlotError(str(e)) from e
    return names
