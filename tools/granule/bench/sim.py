"""tools/granule/bench/sim.py - the bench's QEMU runs beside the simulator's (tools/sim
experiment): RESULTS.md's "Simulated beside QEMU" table.

Every Granule experiment run of the matrix under kbuild:10 is simulated with
the same boot words (preset, knobs, HZ, mode, duration, seed; slice_us and
notify_pad_us as --slice-us and --pad); a configuration's cell is the median
over its seeds, as elsewhere in the report.  Runs with words the simulator
does not model (profile=chain) are left out and counted.
Imports bench/common.py only (downward).
"""
import json
import os
import shlex
import subprocess
import statistics

from ..paths import ROOT
from .common import GRANULE, HEADLINE_LOAD, configurations, fnum, latency_result

SIM = os.path.join(ROOT, "tools", "sim")
OPTION = {"sched_preset": "--preset", "hz": "--hz", "mode": "--mode", "load": "--load",
          "duration": "--duration", "seed": "--seed", "slice_us": "--slice-us",
          "notify_pad_us": "--pad", "period_ms": "--period-ms"}
IGNORED = {"run", "hist"}


def sim_args(cmdline):
    """tools/sim experiment's arguments for a Granule command line, or None."""
    args = []
    for word in shlex.split(cmdline):
        key, _, value = word.partition("=")
        if key in IGNORED:
            continue
        if key == "profile" and value != "canonical":
            return None
        if key in OPTION:
            args += [OPTION[key], value]
        else:
            args.append(word)          # a knob: the engine applies it as the boot line does
    return args


def simulate(cmdline):
    args = sim_args(cmdline)
    if args is None:
        return None
    r = subprocess.run([SIM, "experiment", *args], capture_output=True, text=True)
    if r.returncode:
        return None
    return json.loads(next(l for l in r.stdout.splitlines() if l.startswith("RESULT "))[7:])


def table(runs):
    """RESULTS.md's section: per configuration, QEMU's median max/avg and the simulator's."""
    rows, skipped = [], 0
    for (kernel, preset, mode, load, hz), group in configurations(runs).items():
        if kernel != GRANULE or load != HEADLINE_LOAD:
            continue
        qemu = [latency_result(r) for r in group if latency_result(r)]
        sims = [simulate(r["cmdline"]) for r in group]
        if not qemu or None in sims:
            skipped += 1
            continue
        med = lambda rs, k: statistics.median(x[k] for x in rs)  # noqa: E731
        qa, sa, qm, sm = med(qemu, "avg_us"), med(sims, "avg_us"), med(qemu, "max_us"), med(sims, "max_us")
        rows.append(f"| {preset} | {mode} | {hz} | {len(group)} | {fnum(qa)} | {fnum(sa)} | "
                    f"{sa / qa:.2f} | {fnum(qm)} | {fnum(sm)} | {sm / qm:.2f} |")
    if not rows:
        return []
    return ["## Simulated beside QEMU (kbuild:10)", "",
            "Each configuration above simulated by `tools/sim experiment` with the same boot words "
            "(docs/EXPLORE.md: what the simulator models and how it is calibrated). Cells are medians "
            "over the load seeds; ratio = simulated / QEMU."
            + (f" {skipped} configuration(s) with words the simulator does not model are left out."
               if skipped else ""), "",
            "| preset | mode | HZ | seeds | QEMU avg (µs) | sim avg (µs) | ratio | QEMU max (µs) "
            "| sim max (µs) | ratio |", "|---|---|---|---|---|---|---|---|---|---|", *rows, ""]
