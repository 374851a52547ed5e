"""tools/soak - the experiment under every scheduler preset, back to back.

  tools/soak [--seconds N] [-j JOBS] [--load LOAD] [--mode thread|signal]
             [--json FILE] [--docs] [PRESET...]
  tools/soak --report-only FILE [--docs]
  tools/soak --smp N[,M...] [--seconds S] [PRESET...]
                 the SMP soak (smp_soak.py), S per count and preset (600;
                 no preset named: the default one only)

N seconds of guest time in all (default 3600, one virtual hour) are shared
by the presets (default: every one in tools/presets).  Each preset boots
once, with sched_verify=1, running

  experiment duration=1 (warm-up); frames; experiment duration=D; frames

so the second "frames" reading is taken at the same point as the first,
after a run that already built the kernel heap's steady state: any
difference is a leak.  Reported per preset: invariant violations
("sched_verify: N violations"), leaked frames, missed timer events (the
experiment's "missed timer events: N"), kernel warnings (lines starting
WARNING:, BUG:, Kernel panic, or sched_verify: other than the total), a
hang (the boot's timeout) and init's power-off status.  Prints a table and
one RESULT {json} line; exit status 1 if any preset was not clean.
-j JOBS boots that many presets at once (default 1): guest time is counted
by instructions (-icount), so sharing the host's cores changes no figure,
only the wall time.  The RESULT object is also written to --json (default
build/soak/soak.json); --docs writes it as the soak section of
docs/RESULTS.md (kept in docs/results/soak.md, which tools/bench --docs
appends when it rewrites RESULTS.md); --report-only FILE rebuilds the table
(and with --docs the section) from a saved RESULT object.
"""
import argparse
import concurrent.futures
import json
import os
import re
import sys
import time

from .. import qemu as gq
from . import smp_soak
from ..paths import ROOT

WARN = re.compile(r"^(WARNING:|BUG:|Kernel panic|sched_verify: (?!\d+ violations$))")
SOAK_BEGIN = "<!-- SOAK"
SOAK_END = "<!-- /SOAK -->"
WARMUP_S = 1
OVERHEAD_S = 5          # warm-up experiment + the loads' lead/tail + frames


def presets():
    with open(os.path.join(ROOT, "tools", "presets")) as f:
        return [l.split("\t")[0] for l in f if l.strip() and not l.startswith("#")]


def aliases():
    """The presets' second spellings (tools/presets' alias=NAME), which the kernel accepts too."""
    with open(os.path.join(ROOT, "tools", "presets")) as f:
        return re.findall(r"\balias=(\S+)", "".join(l for l in f if not l.startswith("#")))


def soak_one(preset, seconds, load, mode):
    duration = max(1, seconds - OVERHEAD_S)
    exp = f"experiment mode={mode} load={load}"
    cmdline = (f"sched_verify=1 sched_preset={preset} "
               f'run="{exp} duration={WARMUP_S}; frames; {exp} duration={duration}; frames"')
    t0 = time.time()
    r = gq.run(cmdline, timeout=duration * 8 + 180)
    lines = r.lines
    frames = [int(m.group(1)) for l in lines for m in [re.match(r"^frames: (\d+) free$", l)] if m]
    verify = [int(m.group(1)) for l in lines
              for m in [re.match(r"^sched_verify: (\d+) violations$", l)] if m]
    warnings = [l for l in lines if WARN.match(l)]
    lat = []                            # wakeup-latency's RESULT objects: warm-up, measured
    for l in lines:
        if l.startswith('RESULT {"bench":"wakeup-latency"'):
            try:
                lat.append(json.loads(l[len("RESULT "):]))
            except ValueError:
                pass
    m = lat[-1] if len(lat) == 2 else {}
    res = {
        "preset": preset,
        "duration_s": duration,
        "status": r.status,
        "hang": r.timed_out,
        "violations": verify[-1] if verify else None,
        "leaked_frames": frames[0] - frames[1] if len(frames) == 2 else None,
        "samples": m.get("samples"),
        "max_us": m.get("max_us"),
        # missed = expected - samples: the overruns (expiries that came
        # while the last one's signal was still queued - the scheduler's
        # latency, which the experiment measures, counted by the kernel as
        # POSIX says) plus any expiry never notified nor counted (lost:
        # the kernel's fault).
        "missed_timer_events": m.get("missed"),
        "overruns": m.get("overruns"),
        "lost_timer_events": m["missed"] - m["overruns"] if m else None,
        "warnings": warnings[:5],
        "wall_s": round(time.time() - t0, 1),
    }
    res["clean"] = (res["status"] == 0 and not res["hang"] and res["violations"] == 0
                    and res["leaked_frames"] == 0 and res["lost_timer_events"] == 0
                    and not warnings and bool(res["samples"]))
    return res


def hms(seconds):
    return f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"


def table(result):
    """The per-preset table as text lines (what a terminal shows)."""
    fmt = "{:<22} {:>6} {:>8} {:>7} {:>5} {:>10} {:>7} {:>8} {:>6}"
    out = [fmt.format("preset", "secs", "samples", "missed", "lost", "violations", "leaked",
                      "warnings", "status")]
    for r in result["presets"]:
        out.append(fmt.format(r["preset"], r["duration_s"], str(r.get("samples")),
                              str(r["missed_timer_events"]), str(r.get("lost_timer_events")),
                              str(r["violations"]), str(r["leaked_frames"]), len(r["warnings"]),
                              "hang" if r["hang"] else str(r["status"])))
        out += [f"    {w}" for w in r["warnings"]]
    return out


def docs_section(result):
    """docs/RESULTS.md's soak section, between the SOAK markers."""
    presets = result["presets"]
    per = result["soak"] // len(presets)
    jobs = result.get("jobs", 1)
    bad = [r["preset"] for r in presets if not r["clean"]]
    lines = [SOAK_BEGIN + " written by tools/soak --docs; tools/bench --docs keeps it -->",
             "## The soak: every preset back to back under sched_verify=1", "",
             f"Command: `tools/soak --seconds {result['soak']} -j {jobs}` (`make soak`), load "
             f"`{result['load']}`, mode {result['mode']}; image of commit "
             f"`{result.get('commit') or 'unknown'}`.  {len(presets)} presets x {per} s of guest "
             f"time took {hms(result['wall_s'])} of wall time, {jobs} at once (guest time counts "
             "instructions: the wall time changes no figure).", "",
             "Verdict: " + ("**clean**: no invariant violation, no leaked frame, no lost timer "
                            "event, no kernel warning, no hang, and every boot powered off with "
                            "status 0." if not bad else "**NOT CLEAN**: " + ", ".join(bad) + "."),
             "",
             "| preset | measured s | wakeups | max (us) | missed (overruns) | lost | violations "
             "| leaked frames | warnings | power-off |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in presets:
        status = "hang" if r["hang"] else f"status {r['status']}"
        lines.append(f"| {r['preset']} | {r['duration_s']} | {r['samples']} | {r['max_us']} | "
                     f"{r['missed_timer_events']} | {r['lost_timer_events']} | "
                     f"{r['violations']} | {r['leaked_frames']} | {len(r['warnings'])} | "
                     f"{status} |")
    lines += ["", "Each boot runs `experiment duration=1; frames; experiment duration=D; frames`; "
              "the row is the second run's.  *Missed* is the experiment's count (expected minus "
              "wakeups).  An overrun, an expiry that came while the previous one's signal still "
              "waited for the helper thread, is counted by the kernel as POSIX says: the "
              "scheduler's latency exceeded the 10 ms period, which is what the experiment "
              "measures, not a fault.  *Lost* is missed minus overruns: an expiry neither "
              "notified nor counted, which would be the kernel's fault.  Leaked frames are the two `frames` readings' difference, violations the "
              "kernel's `sched_verify` total at power-off; docs/ROBUSTNESS.md (\"The soak\") "
              "tells the whole method.", SOAK_END]
    return lines


def write_docs(result, docs):
    """docs/results/soak.md and the soak section of docs/RESULTS.md (replaced, or appended)."""
    section = "\n".join(docs_section(result)) + "\n"
    os.makedirs(os.path.join(docs, "results"), exist_ok=True)
    with open(os.path.join(docs, "results", "soak.md"), "w", encoding="utf-8") as f:
        f.write(section)
    path = os.path.join(docs, "RESULTS.md")
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    begin, end = text.find(SOAK_BEGIN), text.find(SOAK_END)
    if 0 <= begin < end:
        text = text[:begin] + section + text[end + len(SOAK_END):].lstrip("\n")
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + section
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"soak: wrote {path} (its soak section) and {os.path.join(docs, 'results', 'soak.md')}")


def main_smp(a):
    """tools/soak --smp N[,M...] [--seconds S] [PRESET...]: S s of guest time per CPU count
    and preset (default 600 s; no preset: the default one)."""
    try:
        cpus = [int(x) for x in a.smp.split(",")]
    except ValueError:
        cpus = []
    if not cpus or any(n < 1 or n > 32 for n in cpus):
        sys.exit(f"soak: --smp {a.smp}: expected CPU counts 1..32, comma-separated")
    known = presets()
    for p in a.presets:
        if p not in known and p not in aliases():
            print(f"soak: preset {p!r}: expected one of {', '.join(known)}", file=sys.stderr)
            sys.exit(2)
    seconds = a.seconds if a.seconds != 3600 else 600
    result = smp_soak.soak(cpus, seconds, a.presets)
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    print("\n".join(smp_soak.table(result["runs"])))
    print("RESULT " + json.dumps(result))
    sys.exit(0 if result["clean"] else 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=3600)
    ap.add_argument("--load", default="kbuild:10")
    ap.add_argument("--mode", default="thread", choices=("thread", "signal"))
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--json", default=os.path.join(ROOT, "build", "soak", "soak.json"))
    ap.add_argument("--docs", action="store_true")
    ap.add_argument("--docs-dir", default=os.path.join(ROOT, "docs"), help=argparse.SUPPRESS)
    ap.add_argument("--report-only", metavar="FILE")
    ap.add_argument("--smp", metavar="N[,M...]",
                    help="the SMP soak instead: smpstress and hackbench on N CPUs (smp_soak.py)")
    ap.add_argument("presets", nargs="*")
    a = ap.parse_args()
    if a.smp:
        main_smp(a)
    if a.report_only:
        with open(a.report_only, encoding="utf-8") as f:
            result = json.load(f)
    else:
        result = soak(a)
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    print("\n".join(table(result)))
    if not a.report_only:
        print(f"soak: {result['soak']} s of guest time in {hms(result['wall_s'])} of wall time, "
              f"{result['jobs']} at once", flush=True)
    print("RESULT " + json.dumps(result))
    if a.docs:
        write_docs(result, a.docs_dir)
    sys.exit(0 if result["clean"] else 1)


def soak(a):
    """Boot every preset (a.jobs at once); the RESULT object."""
    names = a.presets or presets()
    per = a.seconds // len(names)
    commit = gq.source_commit()         # before the runs: what they measure
    print(f"soak: {len(names)} presets x {per} s of guest time, load {a.load}, mode {a.mode}, "
          f"sched_verify=1, {a.jobs} at once", flush=True)
    t0 = time.time()

    def one(p):
        r = soak_one(p, per, a.load, a.mode)
        print(f"soak: {p}: {'clean' if r['clean'] else 'NOT CLEAN'} ({r['wall_s']} s wall)",
              flush=True)
        return r
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = list(ex.map(one, names))       # in the presets' order
    return {"soak": per * len(names), "load": a.load, "mode": a.mode, "jobs": a.jobs,
            "commit": commit, "wall_s": round(time.time() - t0),
            "clean": all(r["clean"] for r in results), "presets": results}
