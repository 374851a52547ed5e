"""tools/granule/run/summary.py - `make run`'s closing line: this run's own ratio to Granule's mainline.

The image's one-screen summary (user/bench/experiment.c) sets this run beside the 2010 posts'
figures, each post's row as a ratio to its mode's mainline row, and says to compare ratios,
not µs.  The line here gives the ratio of this run itself: its maximum and average over
those of the mainline preset (linux-2.6.35) on this image with the same settings, taken
from tools/granule/sim/engine/reference.json (the QEMU runs `tools/sim calibrate --reference` measures;
tests/system/test_sim_validate.py fails when they were not measured on this image).
"""
import json
import os

from ..paths import ENGINE

REFERENCE = os.path.join(ENGINE, "reference.json")
MAINLINE = "linux-2.6.35"


def result_of(text):
    """The last wakeup-latency RESULT of a boot's output, with the load's seed
    (kbuild-load's RESULT; 1, experiment's default, without one), or None."""
    found, seed = None, 1
    for line in text.splitlines():
        if not line.startswith("RESULT {"):
            continue
        try:
            r = json.loads(line[len("RESULT "):])
        except ValueError:
            continue
        if r.get("bench") == "wakeup-latency":
            found = r
        elif r.get("bench") == "kbuild-load":
            seed = r.get("seed", seed)
    if found:
        found.setdefault("seed", seed)
    return found


def mainline_run(r, reference):
    """The reference run of the mainline preset with R's settings, or None."""
    words = {"hz=%s" % r.get("hz"), "mode=%s" % r.get("mode"), "load=%s" % r.get("load"),
             "duration=%s" % r.get("duration_s"), "seed=%s" % r.get("seed")}
    for run in reference.get("runs", []):
        if run.get("preset") == MAINLINE and words <= set(run["cmdline"].split()) and \
                r.get("period_us") == 10000:
            return run
    return None


def ratio_line(text, reference_path=REFERENCE):
    """The closing line for a boot's output TEXT, or None if it ran no experiment."""
    r = result_of(text)
    if not r or not r.get("samples"):
        return None
    try:
        with open(reference_path) as fh:
            reference = json.load(fh)
    except (OSError, ValueError):
        reference = {}
    base = mainline_run(r, reference)
    if not base:
        return ("make run: this run's own ratio needs a %s run with the same settings; none is in "
                "tools/granule/sim/engine/reference.json, so boot with sched_preset=%s and divide" % (MAINLINE,
                                                                                        MAINLINE))
    return ("make run: this run (preset %s) is x%.2f / x%.2f of Granule's mainline row (%s with the "
            "same settings on this image: max %.1f / avg %.1f us, tools/granule/sim/engine/reference.json); "
            "set it beside the ratio of the post's row marked above" % (
                r.get("preset"), r["max_us"] / base["max_us"], r["avg_us"] / base["avg_us"],
                MAINLINE, base["max_us"], base["avg_us"]))
