"""tools/granule/bench/common.py - what every part of tools/bench's report shares: the
configurations of a list of runs, the seed spreads and the published figures.  The bottom of the bench modules: it imports none of them.

  granule/stats.py  <-  common  <-  linux, eevdf, sim, trace (the report's sections)
                               <-  report (the whole report)  <-  cli (tools/bench)
                               <-  rt (Debian's cyclictest and hackbench, with jobs)

A run is the dict granule.bench.jobs.run_job() returns: the job (id, label,
kernel, preset, mode, load, hz, seed, cmdline or run) plus results {bench
name: RESULT object}, hist [(lo_us, n)] and bucket_us.  A configuration is
(kernel, preset, mode, load, hz); it has one run per load seed.
"""
import json
import os
import re

from ..paths import TOOLS
from ..stats import Spread

SEEDS = os.path.join(TOOLS, "seeds.json")
DEFAULT_HZ = 1000
LINUX_HZ = 250                 # Debian's CONFIG_HZ: Linux runs pair with Granule's hz=250 runs
HEADLINE_LOAD = "kbuild:10"    # the seeds' make -j10 (without the video player)
GRANULE = "granule"


def preset_names():
    """The presets of tools/presets, in its order."""
    with open(os.path.join(TOOLS, "presets"), encoding="utf-8") as f:
        return [line.split("\t")[0].strip() for line in f
                if line.strip() and not line.startswith("#")]


def fnum(value, fmt="{:.1f}"):
    """A figure for a table cell; '–' for a missing one."""
    if value is None or value == "" or value == -1:
        return "–"
    return fmt.format(value) if isinstance(value, (int, float)) else str(value)


def published_rows():
    """The published figures of 2010 (tools/seeds.json's rows)."""
    with open(SEEDS, encoding="utf-8") as f:
        return json.load(f)["rows"]


def latency_result(run):
    """The run's wakeup-latency RESULT object, or None."""
    return run["results"].get("wakeup-latency")


def config_of(run):
    return (run.get("kernel", GRANULE), run["preset"], run["mode"], run["load"],
            run.get("hz", DEFAULT_HZ))


def configurations(runs):
    """{configuration: [runs in seed order]}, configurations in first-run order."""
    groups = {}
    for run in runs:
        if run.get("bench", "experiment") == "experiment":
            groups.setdefault(config_of(run), []).append(run)
    for group in groups.values():
        group.sort(key=lambda r: r.get("seed", 1))
    return groups


def select(runs, preset, mode, load=HEADLINE_LOAD, hz=DEFAULT_HZ, kernel=GRANULE):
    """The runs (one per seed) of one configuration that have a latency result."""
    return [r for r in configurations(runs).get((kernel, preset, mode, load, hz), [])
            if latency_result(r)]


def by_seed(group, key, bench="wakeup-latency"):
    """{seed: figure} over a configuration's runs."""
    return {r.get("seed", 1): r["results"][bench].get(key)
            for r in group if bench in r["results"]}


def spread(group, key, bench="wakeup-latency"):
    return Spread(list(by_seed(group, key, bench).values()))


# Ten distinguishable line colours (gnuplot's default cycle repeats after eight), then
# the same ten dashed: the presets and the variant rows fit in one plot.
PALETTE = ["#9400d3", "#009e73", "#56b4e9", "#e69f00", "#f0e442", "#0072b2", "#e51e10", "#000000",
           "#a0522d", "#808080"]
COLOURS = "".join(f"set linetype {i + 1} lc rgb '{c}' lw 1.5 dt {1 + i // len(PALETTE)}\n"
                  for i, c in enumerate(PALETTE * 2))


def safe(label):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label)


def config_name(config):
    kernel, preset, mode, load, hz = config
    who = preset if kernel == GRANULE else f"{kernel} {preset}"
    return f"{who} {mode} {load}" + (f" HZ={hz}" if hz != DEFAULT_HZ else "")


def write_cdf(group, data):
    """DATA/<config>.cdf and .hist from the first seed's histogram (the CDF is
    normalised by every sample, so samples beyond the histogram keep it below 1)."""
    run = group[0]
    name, acc = safe(config_name(config_of(run))), 0
    total = max(latency_result(run).get("samples") or 0, sum(n for _, n in run["hist"])) or 1
    with open(os.path.join(data, name + ".cdf"), "w", encoding="utf-8") as f:
        for lo, n in run["hist"]:
            acc += n
            f.write(f"{lo + run['bucket_us']} {acc / total:.6f}\n")
    with open(os.path.join(data, name + ".hist"), "w", encoding="utf-8") as f:
        f.writelines(f"{lo} {n}\n" for lo, n in run["hist"])
    return name


