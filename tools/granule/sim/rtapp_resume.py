"""tools/granule/sim/rtapp_resume.py - rt-app's way back from its timer's sleep to the clock read
that ends wu_lat, counted on the image: the rtapp.resume cost of `tools/sim calibrate` (step 9,
with tools/granule/sim/rtapp_costs.py).

rt-app's timer event sleeps in clock_nanosleep(TIMER_ABSTIME) and, once back in user mode, reads
CLOCK_MONOTONIC through the vDSO (its rdtsc); wu_lat is that reading less the expiry.  The
kernel's part of the way (the timer's interrupt, the wakeup, the switch) is the calibration's
kernel costs; what follows in user mode (glibc's return from clock_nanosleep, rt-app's code,
the vDSO's clock_gettime up to its rdtsc) is rt-app's own, and only an instruction count
resolves it (the logs and the trace count whole microseconds).

How: one boot of workloads/mixed.json under rt-app-logs with the boot module, under gdb (QEMU's
exec log, granule.trace.execlog: one line per instruction, and under -icount one instruction is
one virtual ns), stopped at the STOP_NTH entry of sys_clock_nanosleep (rt-app's threads are
running their timers by then).  Read from there: an interrupt from user mode (vec_239, the
local APIC timer) that runs hrtimer_wakeup and switches (__switch_stacks), after which user
mode runs without entering the kernel to one of the vDSO's rdtsc: the user-mode instructions
before the rdtsc are one sample.  A switch to a task that does not reach the clock within
MAX_USER instructions (a preempted hog resuming its loop) is no sample.  The median of SAMPLES.
Imports granule.qemu, paths and trace.execlog (downward).
"""
import os
import re
import subprocess

from .. import qemu as gq
from ..paths import BUILD, ROOT
from ..trace import execlog

VECTOR_STUB, WAKE, SWITCH = "vec_239", "hrtimer_wakeup", "__switch_stacks"
PAGE_OFFSET = 0xC0000000        # below: user mode
VDSO_SO = os.path.join(BUILD, "arch", "x86", "vdso.so")
VDSO_H = os.path.join(ROOT, "arch", "x86", "include", "arch", "vdso.h")
STOP, STOP_NTH = "sys_clock_nanosleep", 12
SAMPLES = 3
MAX_USER = 5000                 # user instructions: as many is not a return to the clock read


def kernel_symbols():
    """{address: name} of the three kernel functions the path is told by."""
    out = subprocess.run(["nm", gq.KERNEL_DEBUG], capture_output=True, text=True, check=True).stdout
    table = {int(w[0], 16): w[2] for w in map(str.split, out.splitlines())
             if len(w) == 3 and w[2] in (VECTOR_STUB, WAKE, SWITCH)}
    if len(set(table.values())) != 3:
        raise SystemExit(f"sim calibrate: {gq.KERNEL_DEBUG} lacks one of {VECTOR_STUB}, {WAKE}, {SWITCH}")
    return table


def rdtsc_addresses():
    """The user addresses of the vDSO's rdtsc instructions: their offsets in build's vdso.so
    (linked at 0) past VDSO_TEXT, where every program has it (arch/x86/include/arch/vdso.h)."""
    with open(VDSO_H) as f:
        base = int(re.search(r"#define\s+VDSO_TEXT\s+(0x[0-9a-fA-F]+)", f.read()).group(1), 16)
    dis = subprocess.run(["objdump", "-d", VDSO_SO], capture_output=True, text=True, check=True).stdout
    offs = [int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):\s+0f 31\s+rdtsc", dis, re.M)]
    if not offs:
        raise SystemExit(f"sim calibrate: no rdtsc in {VDSO_SO}")
    return {base + o for o in offs}


def samples(pcs, table, clock):
    """The user-mode instruction counts of the paths in PCS (guest PCs in order; the module
    comment says which), at most SAMPLES of them."""
    out, state, seen, n, prev_user = [], "wait", set(), 0, False
    for pc in pcs:
        user = pc < PAGE_OFFSET
        name = table.get(pc)
        if state == "wait" and name == VECTOR_STUB and prev_user:
            state, seen = "kernel", set()
        elif state == "kernel" and name:
            seen.add(name)
        elif state == "kernel" and user:
            state, n = ("user", 0) if {WAKE, SWITCH} <= seen else ("wait", 0)
        if state == "user":
            if not user or n >= MAX_USER:
                state = "wait"
            elif pc in clock:
                out.append(n)
                if len(out) == SAMPLES:
                    return out
                state = "wait"
            n += 1
        prev_user = user
    return out


def pcs_of(stream):
    """Guest PCs from QEMU's exec log: "Trace 0: HOST [CS/PC/FLAGS/CFLAGS] ..."."""
    for raw in stream:
        if raw.startswith(b"Trace "):
            yield int(raw.split(b"[", 1)[1].split(b"/")[1], 16)


def measure(cmdline, module):
    """(the boot's command line with its gdb stop, the median of the samples in ns) from one
    boot of CMDLINE with MODULE."""
    table, clock = kernel_symbols(), rdtsc_addresses()
    got = execlog.read_after(cmdline, STOP, STOP_NTH, lambda f: samples(pcs_of(f), table, clock),
                             extra=["-initrd", module]) or []
    if not got:
        raise SystemExit(f"sim calibrate: `{cmdline}`: no wakeup back to rt-app's clock read in the exec log")
    return f"{cmdline} (exec log from {STOP} #{STOP_NTH})", sorted(got)[len(got) // 2]
