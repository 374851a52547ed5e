"""tools/fuzz-image - a long run of the in-image fuzzer (user/tests/fuzz.c).

  tools/fuzz-image [--seconds N] [--seed S] [--calls C]

Boots the kernel with sched_verify=1 and run="fuzz -s S -t N" (N seconds of
guest time, default 600; seed default 1) and grades the serial log: no
"Kernel panic", "BUG:" or "WARNING:" line, no invariant violation, no hang
(the boot's own timeout), no worker that survived SIGKILL, zero leaked
frames and power-off status 0.  On a failure it names the last batch that
started, to replay with  make run CMDLINE='run="fuzz -s S -b BATCH -v"'.
Prints the fuzzer's RESULT line and one verdict line; exit status 0 only
if the run was clean.
"""
import argparse
import json
import re
import sys
import time

from .. import qemu as gq

BAD = re.compile(r"^(Kernel panic|BUG:|WARNING:|sched_verify: (?!0 violations$))")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calls", type=int, default=48)
    a = ap.parse_args()
    cmd = f'sched_verify=1 run="fuzz -s {a.seed} -t {a.seconds} -c {a.calls}"'
    t0 = time.time()
    # Wall time runs ~2-4x guest time under -icount on a loaded host.
    r = gq.run(cmd, timeout=a.seconds * 10 + 300)
    lines = r.lines
    bad = [l for l in lines if BAD.match(l)]
    unkillable = [l for l in lines if re.search(r"fuzz: batch \d+: worker pid \d+ survived", l)]
    batches = [m.group(1) for l in lines for m in [re.search(r"fuzz: batch (\d+):", l)] if m]
    m = r.find(r"RESULT (\{.*\})$")
    res = json.loads(m.group(1)) if m else None
    problems = []
    if r.timed_out:
        problems.append("hang (no power-off before the timeout)")
    problems += bad[:5] + unkillable[:5]
    if not res:
        problems.append("no RESULT line")
    elif res["leaked_frames"]:
        problems.append(f"{res['leaked_frames']} leaked frames")
    if r.status != 0 and not problems:
        problems.append(f"power-off status {r.status}")
    if res:
        print("RESULT " + json.dumps(res))
    wall = round(time.time() - t0)
    if problems:
        last = batches[-1] if batches else "0"
        print(f"fuzz-image: seed {a.seed}, {a.seconds} s: FAILED after batch {last} ({wall} s wall):")
        for p in problems:
            print(f"  {p}")
        print(f"  replay: make run CMDLINE='sched_verify=1 run=\"fuzz -s {a.seed} -b {last} -v\"'")
        sys.stdout.write("\n".join(r.output.splitlines()[-40:]) + "\n")
        sys.exit(1)
    print(f"fuzz-image: seed {a.seed}, {a.seconds} s of guest time: clean, {res['batches']} batches, "
          f"{res['calls']} calls ({wall} s wall)")
