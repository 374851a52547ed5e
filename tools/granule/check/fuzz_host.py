"""tools/fuzz-host - run the libFuzzer targets (tests/fuzz) for a while each.

  tools/fuzz-host [--seconds N] [--timeout S] [-j N] build/fuzz/TARGET...

Each target fuzzes for N seconds (default 60) of wall time, starting from
its seed corpus (tests/fuzz/corpus/TARGET) and regression inputs
(tests/fuzz/regress/TARGET); what it learns goes to build/fuzz/corpus/TARGET
(never into the repository).  A crash, leak or timeout is copied to
tests/fuzz/regress/TARGET/ (libFuzzer's crash-SHA1 name), where `make test`
replays it from then on: fix the parser, keep the input.
An input that runs longer than --timeout seconds (default 60) counts as a
hang: every input of these targets replays in well under a second, but a
loaded two-core host stalls a process for several seconds at times, and a
tighter bound turned those stalls into false timeouts.  -j N fuzzes N
targets at once (default: the number of cores; libFuzzer itself is one
process per target).
Prints one line per target and a closing JSON line; exit status 1 if any
target failed.
"""
import argparse
import concurrent.futures as cf
import glob
import json
import os
import shutil
import subprocess
import sys

from ..paths import ROOT


def run(binary, seconds, timeout):
    name = os.path.basename(binary)
    work = os.path.join(ROOT, "build", "fuzz", "corpus", name)
    arts = os.path.join(ROOT, "build", "fuzz", "artifacts", name)
    regress = os.path.join(ROOT, "tests", "fuzz", "regress", name)
    seeds = os.path.join(ROOT, "tests", "fuzz", "corpus", name)
    for d in (work, arts):
        os.makedirs(d, exist_ok=True)
    dirs = [work] + [d for d in (seeds, regress) if os.path.isdir(d)]
    cmd = [binary, f"-max_total_time={seconds}", f"-timeout={timeout}", "-rss_limit_mb=2048",
           "-print_final_stats=1", f"-artifact_prefix={arts}/"] + dirs
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    out = p.stdout.decode("utf-8", "replace")
    runs = 0
    for line in out.splitlines():
        if line.startswith("stat::number_of_executed_units:"):
            runs = int(line.split(":")[-1])
    found = []
    for a in sorted(glob.glob(os.path.join(arts, "*"))):
        os.makedirs(regress, exist_ok=True)
        dst = os.path.join(regress, os.path.basename(a))
        shutil.move(a, dst)
        found.append(os.path.relpath(dst, ROOT))
    ok = p.returncode == 0 and not found
    if not ok:
        sys.stdout.write(out[-4000:])     # (whole, from a worker thread: one write)
    return {"target": name, "seconds": seconds, "runs": runs, "ok": ok, "new_inputs": found}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("-j", "--parallel", type=int, default=os.cpu_count() or 1)
    ap.add_argument("targets", nargs="+")
    a = ap.parse_args()
    results = []
    with cf.ThreadPoolExecutor(max_workers=max(1, a.parallel)) as pool:
        futures = [pool.submit(run, t, a.seconds, a.timeout) for t in a.targets]
        for f in futures:                   # in the order given, as each is done
            r = f.result()
            results.append(r)
            print(f"fuzz-host: {r['target']:<14} {r['runs']:>10} runs in {r['seconds']} s: "
                  + ("clean" if r["ok"] else "FOUND " + " ".join(r["new_inputs"]) or "failed"),
                  flush=True)
    print("RESULT " + json.dumps({"targets": results, "failed": sum(not r["ok"] for r in results)}))
    sys.exit(0 if all(r["ok"] for r in results) else 1)
