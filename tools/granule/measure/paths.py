"""tools/measure-paths - instruction counts along two kernel paths, under -icount.

  tools/measure-paths switch     the life of a context switch
  tools/measure-paths sigev      the life of a SIGEV_THREAD expiry
  tools/measure-paths --check  KIND   compare with docs/ARCHITECTURE.md's table
  tools/measure-paths --update KIND   rewrite that table

How: QEMU runs with one-insn-per-tb (one guest instruction per translation
block) under gdb (tools/granule/qemu.py gdb_session).  gdb stops once, at a
deterministic point (the 20th do_fork under `load=kbuild:10` for switch, the
3rd posix_timer_fn under `load=none` for sigev), turns on QEMU's
`-d exec,nochain` log through the monitor (`monitor log exec,nochain`) and
lets the guest run without further stops.  The log (a FIFO, never a file on
disk) then names every instruction executed, in order: counting lines counts
instructions exactly as -icount does (1 instruction = 1 virtual ns).  This
script reads it, finds the first path of the kind asked for, starting at the
local APIC timer vector's stub (vec_239, LOCAL_TIMER_VECTOR 0xef):

  switch  an interrupt from user mode whose tick (check_preempt_tick)
          preempts: ... __switch_stacks ... up to the next task's first
          user-mode instruction;
  sigev   an interrupt that runs posix_timer_fn, followed until the new
          SIGEV_THREAD thread (ret_from_fork) runs its first user instruction;

and prints, for each function of interest entered on the way (and each
crossing between kernel and user mode), the instruction count from the
stub's first instruction and from the previous event.  docs/ARCHITECTURE.md
holds the same table between "<!-- measure-paths KIND -->" and
"<!-- end measure-paths -->"; --check fails if it differs from a new
measurement (tests/system/test_measure_paths.py), --update rewrites it.
Same image, same output: the run is deterministic.
"""
import argparse
import os
import re
import subprocess
import sys

from .. import qemu as gq
from ..trace import execlog

VECTOR_STUB = "vec_239"         # LOCAL_TIMER_VECTOR 0xef (arch/x86/entry.asm)
PAGE_OFFSET = 0xC0000000        # below: user mode
WATCH = [
    VECTOR_STUB, "trap_dispatch", "hrtimer_interrupt", "tick_sched_timer", "timer_tick",
    "scheduler_tick", "task_tick_fair", "check_preempt_tick", "resched_task",
    "posix_timer_fn", "try_to_wake_up", "check_preempt_wakeup", "exit_to_caller", "schedule",
    "__schedule", "put_prev_task_fair", "pick_next_task_fair", "arch_switch_to",
    "__switch_stacks", "ret_from_trap", "do_signal", "do_syscall",
    "do_fork", "sched_fork", "task_fork_fair", "place_entity", "wake_up_new_task",
    "ret_from_fork", "schedule_tail", "cpu_idle",
]
SETUPS = {
    "switch": ("run=experiment mode=thread load=kbuild:10 duration=1", "do_fork", 20),
    "sigev": ("run=experiment mode=thread load=none duration=1", "posix_timer_fn", 3),
}


def symbols():
    """{address: name} of the WATCH functions, from build/granule-debug.elf."""
    out = subprocess.run(["nm", gq.KERNEL_DEBUG], stdout=subprocess.PIPE, check=True).stdout
    table = {}
    for line in out.decode().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in WATCH:
            table[int(parts[0], 16)] = parts[2]
    missing = set(WATCH) - set(table.values())
    if missing:
        sys.exit(f"measure-paths: no symbol for {sorted(missing)}")
    return table


class Tracer:
    """Reads the exec log and finds the first path of KIND."""

    def __init__(self, kind, table):
        self.kind, self.table = kind, table
        self.events = None          # the answer: [(count, name)]
        self.lines = 0

    def pcs(self, stream):
        """Guest PCs of the executed instructions: "Trace 0: HOST [CS/PC/FLAGS/CFLAGS] ..."."""
        for raw in stream:
            self.lines += 1
            if not raw.startswith(b"Trace "):
                continue
            fields = raw.split(b"[", 1)[1].split(b"/")
            yield int(fields[1], 16)

    def run(self, stream):
        trace, n, user, prev_user = None, 0, False, False
        for pc in self.pcs(stream):
            user = pc < PAGE_OFFSET
            name = self.table.get(pc)
            if name == VECTOR_STUB and (trace is None or not trace["sticky"]):
                trace = {"events": [(0, "interrupt from " + ("user" if prev_user else "kernel"))],
                         "sticky": False, "from_user": prev_user}
                n = 0
            if trace is not None:
                ev = trace["events"]
                if user != prev_user and n:
                    ev.append((n, "user mode" if user else "kernel entry"))
                if name:
                    ev.append((n, name))
                if self.done(trace, user, name):
                    self.events = ev
                    return
                if user and trace is not None and not trace["sticky"]:
                    trace = None            # back to user without what we want
            prev_user = user
            n += 1

    def done(self, trace, user, name):
        names = [e[1] for e in trace["events"]]
        if self.kind == "switch":
            return (user and trace["from_user"] and "check_preempt_tick" in names
                    and "resched_task" in names and "__switch_stacks" in names)
        if name == "posix_timer_fn":
            trace["sticky"] = True
        return user and trace["sticky"] and "ret_from_fork" in names


def measure(kind, cmdline, stop_at, nth):
    """One gdb-stopped boot with QEMU's exec log read as it is written; the Tracer."""
    tracer = Tracer(kind, symbols())
    execlog.read_after(cmdline, stop_at, nth, tracer.run)
    return tracer


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=sorted(SETUPS))
    ap.add_argument("--check", action="store_true", help="fail if the doc's table differs")
    ap.add_argument("--update", action="store_true", help="rewrite the doc's table")
    ap.add_argument("--doc", default=os.path.join(gq.ROOT, "docs", "ARCHITECTURE.md"))
    a = ap.parse_args()
    cmdline, stop_at, nth = SETUPS[a.kind]
    # A session whose exec log delivered no line at all never got going (gdb
    # found no socket to attach to, say); it says nothing about the path, so
    # it is run again, at most twice more.
    for _attempt in range(3):
        tracer = measure(a.kind, cmdline, stop_at, nth)
        if tracer.lines:
            break
    if not tracer.events:
        sys.exit(f"measure-paths: no {a.kind} path found in {tracer.lines} log lines")
    table = markdown(tracer.events)
    if not (a.check or a.update):
        print(f"# tools/measure-paths {a.kind}: {cmdline} (gdb stop: {stop_at} #{nth})")
        print(table, end="")
        return
    with open(a.doc) as f:
        doc = f.read()
    rx = re.compile(r"(<!-- measure-paths %s -->\n)(.*?)(<!-- end measure-paths -->)" % a.kind, re.S)
    m = rx.search(doc)
    if not m:
        sys.exit(f"measure-paths: no '<!-- measure-paths {a.kind} -->' block in {a.doc}")
    if a.check:
        if m.group(2) != table:
            sys.exit(f"measure-paths: {a.doc}'s {a.kind} table differs from the code's path;\n"
                     f"run tools/measure-paths --update {a.kind}\n--- doc\n{m.group(2)}--- now\n{table}")
        print(f"measure-paths: {a.kind} table matches")
        return
    with open(a.doc, "w") as f:
        f.write(doc[:m.start(2)] + table + doc[m.end(2):])


def markdown(events):
    """The events as a Markdown table: instructions from the stub, delta, event."""
    rows = ["| instructions | +Δ | event |", "|---:|---:|---|"]
    last = 0
    for n, name in events:
        label = name if " " in name else f"`{name}`"
        rows.append(f"| {n} | {n - last:+d} | {label} |")
        last = n
    return "\n".join(rows) + "\n"
