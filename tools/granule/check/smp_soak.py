"""tools/soak --smp N[,M...] - the SMP soak: threads and pipes on N CPUs.

Each CPU count boots once with sched_verify=1 lockdep=1 and runs

  frames; smpstress -t 2N -d S; hackbench -p -l L -g N; hackbench -p -T -l L -g N; frames

(smpstress, user/tests/smpstress.c: threads of one process mapping and
unmapping memory, passing futex words and forking; hackbench from the
rt-tests boot module, when build/rt-tests/rt-tests.tar is there).  Reported
per CPU count: smpstress's rounds and its status, each hackbench's time and
status, the invariant violations at power-off, every lockdep report
("[ INFO: ... ]"), every WARNING:/BUG:/panic line and each violation's own
"sched_verify: ..." line (what broke, as the preset soak's table shows it), the leaked frames
(the two `frames` readings' difference), a hang and init's power-off
status.  Clean when all are nil and every program exited 0.

Presets named after the counts (tools/soak --smp 4 linux-6.12) boot each
count once per preset, with sched_preset=NAME added to the line; each row
then names its preset.  None named: the default preset, as the kernel boots.
"""
import os
import re
import time

from .. import qemu as gq
from ..paths import ROOT

MODULE = os.path.join(ROOT, "build", "rt-tests", "rt-tests.tar")
WARN = re.compile(r"^(WARNING:|BUG:|Kernel panic|\[ INFO: |sched_verify: (?!\d+ violations$))")
HACKBENCH_LOOPS = 200
OVERHEAD_S = 3          # hackbench's two runs and the frames' quiet, roughly


def soak_one(cpus, seconds, preset=None, module=MODULE):
    stress = max(1, seconds - OVERHEAD_S)
    progs = ["frames", f"smpstress -t {2 * cpus} -d {stress}"]
    extra = []
    if os.path.exists(module):
        extra = ["-initrd", module]
        progs += [f"/usr/bin/hackbench -p -l {HACKBENCH_LOOPS} -g {cpus}",
                  f"/usr/bin/hackbench -p -T -l {HACKBENCH_LOOPS} -g {cpus}"]
    progs.append("frames")
    t0 = time.time()
    chosen = f"sched_preset={preset} " if preset else ""
    r = gq.run(f'sched_verify=1 lockdep=1 {chosen}run="{"; ".join(progs)}"', smp=cpus,
               extra=extra, timeout=stress * 40 + 300)
    out = r.output
    frames = [int(x) for x in re.findall(r"^frames: (\d+) free$", out, re.M)]
    verify = re.findall(r"^sched_verify: (\d+) violations$", out, re.M)
    stress_line = re.search(r"^smpstress: .*$", out, re.M)
    exits = re.findall(r"^init: (\S+) \(pid \d+\) exited with status (\d+)$", out, re.M)
    hackbench = re.findall(r"^Time: ([\d.]+)$", out, re.M)
    warnings = [l for l in r.lines if WARN.match(l)]
    res = {"preset": preset} if preset else {}     # no key for the default: output as before
    res.update({
        "cpus": cpus,
        "stress_s": stress,
        "smpstress": stress_line.group(0) if stress_line else None,
        "hackbench_s": [float(t) for t in hackbench],
        "failed_programs": [name for name, st in exits if st != "0"],
        "status": r.status,
        "hang": r.timed_out,
        "violations": int(verify[-1]) if verify else None,
        "leaked_frames": frames[0] - frames[1] if len(frames) == 2 else None,
        "warnings": warnings[:5],
        "wall_s": round(time.time() - t0, 1),
    })
    res["clean"] = (r.status == 0 and not r.timed_out and res["violations"] == 0
                    and res["leaked_frames"] == 0 and not warnings and not res["failed_programs"]
                    and res["smpstress"] is not None and len(exits) == len(progs))
    return res


def table(results):
    """Text lines, one row per run; a first "preset" column when presets were named."""
    fmt = "{:>4} {:>7} {:>10} {:>8} {:>18} {:>8} {:>6}  {}"
    named = any("preset" in r for r in results)
    if named:                           # soak.py's table starts with the preset too
        fmt = "{:<22} " + fmt
    head = ["preset"] if named else []
    out = [fmt.format(*head, "cpus", "secs", "violations", "leaked", "hackbench p/T (s)",
                      "warnings", "status", "smpstress")]
    for r in results:
        hb = "/".join(f"{t:.3f}" for t in r["hackbench_s"]) or "-"
        name = [r.get("preset") or "default"] if named else []
        out.append(fmt.format(*name, r["cpus"], r["stress_s"], str(r["violations"]),
                              str(r["leaked_frames"]), hb, len(r["warnings"]),
                              "hang" if r["hang"] else str(r["status"]),
                              (r["smpstress"] or "none").replace("smpstress: ", "")))
        out += [f"    {w}" for w in r["warnings"]]
        out += [f"    failed: {p}" for p in r["failed_programs"]]
    return out


def soak(cpu_list, seconds, presets=()):
    """One boot per CPU count and preset (none: the default), SECONDS of guest
    time each; the RESULT object."""
    commit = gq.source_commit()
    under = f", presets {', '.join(presets)}" if presets else ""
    print(f"soak: SMP, {', '.join(map(str, cpu_list))} CPUs x {seconds} s of guest time, "
          f"sched_verify=1 lockdep=1{under}", flush=True)
    t0 = time.time()
    results = []
    for n in cpu_list:
        for p in presets or [None]:
            r = soak_one(n, seconds, p)
            what = f"{n} CPUs, {p}" if p else f"{n} CPUs"
            print(f"soak: {what}: {'clean' if r['clean'] else 'NOT CLEAN'} "
                  f"({r['wall_s']} s wall)", flush=True)
            results.append(r)
    named = {"presets": list(presets)} if presets else {}
    return {"soak": "smp", "seconds": seconds, **named, "commit": commit,
            "wall_s": round(time.time() - t0), "clean": all(r["clean"] for r in results),
            "runs": results}
