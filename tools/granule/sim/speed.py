"""tools/sim_bench.py - how fast the simulator is (make bench; not a test).

  tools/sim_bench.py [--runs N] [--grid G] [-j J]

1. One 10-s experiment (linux-2.6.35, thread mode, kbuild:10), N times (5):
   the median wall time and CPU time of the engine.
2. A G x G sweep (40) of 10-s experiments over sched_min_granularity_ns x
   sched_latency_ns on J cores (all): its wall time, gnuplot included.
Prints one `RESULT {json}` line per figure (bench "sim-speed").
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

from ..paths import ROOT
SIM = os.path.join(ROOT, "tools", "sim")


def one_experiment():
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    subprocess.run([SIM, "experiment", "--duration", "10"], check=True, capture_output=True)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description="How fast tools/sim is.")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--grid", type=int, default=40)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    subprocess.run([SIM, "--help"], check=True, capture_output=True)     # builds it
    one_experiment()                                                      # warm
    runs = [one_experiment() for _ in range(args.runs)]
    print("RESULT " + json.dumps(dict(
        bench="sim-speed", what="one 10-s experiment", runs=args.runs,
        wall_s=round(statistics.median(r[0] for r in runs), 3),
        cpu_s=round(statistics.median(r[1] for r in runs), 3)), separators=(",", ":")), flush=True)
    with tempfile.TemporaryDirectory(prefix="sim-bench-") as out:
        t = time.monotonic()
        g = args.grid
        subprocess.run([SIM, "sweep", f"sched_min_granularity_ns=0.25ms..4ms:{g}",
                        f"sched_latency_ns=2ms..24ms:{g}", "--preset", "linux-2.6.35",
                        "--duration", "10", "-j", str(args.j), "--out", out],
                       check=True, capture_output=True)
        wall = time.monotonic() - t
    print("RESULT " + json.dumps(dict(
        bench="sim-speed", what=f"{g}x{g} sweep of 10-s experiments", j=args.j,
        experiments=g * g, wall_s=round(wall, 1)), separators=(",", ":")), flush=True)
