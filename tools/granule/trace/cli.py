"""tools/trace - turn Granule's trace dump into files the Linux tools open.

  tools/trace LOG -o DIR [--elf build/granule.elf]
  tools/trace run -o DIR [--timeout S] -- CMDLINE...

LOG is a serial log of a boot with trace_event= (see docs/TRACING.md);
"run" boots CMDLINE itself under -icount (tools/granule/qemu.py), adding
trace_event=sched:*,timer:* if CMDLINE names no events, and keeps the log
as DIR/serial.log.  Writes into DIR:
  trace.txt  ftrace's trace file (hrtimer functions by name), which
             Perfetto's UI and trace-cmd's own text tools read;
  trace.dat  trace-cmd's binary format (version 6), for
             'trace-cmd report -i DIR/trace.dat' and KernelShark;
  latency.txt  the worst --worst N (10) timer samples: who ran between the
             expiry and the woken thread, and where place_entity put it;
             its first line counts the samples the trace does not hold
             against the program's RESULT line ("200 samples, 58 not traced");
  sched_latency.txt  per task run time, switches, average and maximum
             delay (from wakeup or preemption to running), as perf sched latency;
  timeline, vruntime, worst (.png, .svg)  gnuplot pictures (tools/granule/trace/plot.py).
Function addresses (hrtimer_expire_entry's function=) are named from the
kernel ELF's symbol table (nm), which also becomes trace.dat's kallsyms.
The last line is tools/granule/trace/worst.py's verdict on the worst sample.
"""
import argparse
import os
import re
import subprocess
import sys

import shutil

from .. import qemu as gq
from ..paths import ROOT
from . import dat as trace_dat
from . import plot as trace_plot
from . import sched as trace_sched
from . import text as trace_text
from . import worst as trace_worst
DEFAULT_EVENTS = "trace_event=sched:*,timer:*"
ADDR_RE = re.compile(r"function=(0x[0-9a-f]+)")


def symbols(elf):
    """{address: name} of the ELF's text symbols (empty if no ELF or nm)."""
    try:
        out = subprocess.run(["nm", elf], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    syms = {}
    for l in out.splitlines():
        parts = l.split()
        if len(parts) == 3 and parts[1] in "tT":
            syms[int(parts[0], 16)] = parts[2]
    return syms


def convert(log_text, outdir, elf, worst=10):
    dump = trace_text.find_dump(log_text)
    syms = symbols(elf)
    used = {}

    def name(m):
        addr = int(m.group(1), 16)
        if addr in syms:
            used[addr] = syms[addr]
            return "function=" + syms[addr]
        return m.group(0)

    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "trace.txt"), "w") as f:
        f.write("\n".join(dump.header[:1] + dump.header[1:]) + "\n")
        for ev in dump.events:
            f.write(ADDR_RE.sub(name, ev["line"]) + "\n")
    kallsyms = [(a, "t", n) for a, n in sorted(used.items())]
    trace_dat.write(os.path.join(outdir, "trace.dat"), dump.events, kallsyms, dump.ncpus)
    sched = trace_sched.Sched(dump.events)
    result = trace_text.results(log_text).get("wakeup-latency")
    with open(os.path.join(outdir, "latency.txt"), "w") as f:
        f.write(trace_sched.attribution_report(sched, worst, result))
    with open(os.path.join(outdir, "sched_latency.txt"), "w") as f:
        f.write(trace_sched.latency_report(sched))
    if shutil.which("gnuplot"):
        trace_plot.plots(sched, sched.samples(), outdir)
    return dump


def build_kernel(kernel):
    """`tools/trace run` boots KERNEL: build it first if this tree has none."""
    if os.path.exists(kernel):
        return
    print("tools/trace: no kernel at %s yet: building it (make all)" % os.path.relpath(kernel, ROOT))
    if subprocess.run(["make", "-s", "-j2", "-C", ROOT, "all"]).returncode:
        sys.exit("tools/trace: make all failed (above): the kernel must build before it is traced")


def main():
    argv = sys.argv[1:]
    if argv and argv[0] == "run":
        ap = argparse.ArgumentParser(prog="tools/trace run")
        ap.add_argument("-o", "--outdir", required=True)
        ap.add_argument("--elf", default=os.path.join(ROOT, "build", "granule.elf"))
        ap.add_argument("--timeout", type=float, default=900)
        ap.add_argument("--worst", type=int, default=10)
        ap.add_argument("cmdline", nargs="+")
        a = ap.parse_args(argv[1:])
        cmdline = " ".join(a.cmdline)
        if "trace_event=" not in cmdline:
            cmdline = DEFAULT_EVENTS + " " + cmdline
        build_kernel(gq.KERNEL)
        r = gq.run(cmdline, timeout=a.timeout)
        os.makedirs(a.outdir, exist_ok=True)
        with open(os.path.join(a.outdir, "serial.log"), "w") as f:
            f.write(r.output)
        if r.timed_out:
            sys.exit("tools/trace: timeout after %s s (log in %s/serial.log)" % (a.timeout, a.outdir))
        if "Granule" not in r.output:
            sys.exit("tools/trace: the kernel did not boot; QEMU said: %s" % (
                r.output.strip().splitlines() or ["nothing"])[-1])
        log_text = r.output
    else:
        ap = argparse.ArgumentParser(prog="tools/trace", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
        ap.add_argument("log")
        ap.add_argument("-o", "--outdir", required=True)
        ap.add_argument("--elf", default=os.path.join(ROOT, "build", "granule.elf"))
        ap.add_argument("--worst", type=int, default=10)
        a = ap.parse_args(argv)
        with open(a.log, encoding="utf-8", errors="replace") as f:
            log_text = f.read()
    try:
        dump = convert(log_text, a.outdir, a.elf, a.worst)
    except ValueError as e:
        sys.exit("tools/trace: %s" % e)
    print("tools/trace: %d events (%d lost to overflow) -> %s/{trace.txt,trace.dat,latency.txt,"
          "sched_latency.txt}" % (len(dump.events), dump.lost, a.outdir))
    print("tools/trace: open them with trace-cmd report -i %s/trace.dat, or kernelshark %s/trace.dat"
          % (a.outdir, a.outdir))
    print("tools/trace: " + verdict(log_text))


def verdict(log_text):
    """trace/worst.py's sentences on the worst sample (why it waited, and whether
    it is the run's maximum), after the count of samples the trace holds."""
    res = trace_text.results(log_text)
    tr = trace_worst.analyse(log_text.splitlines())
    head = trace_text.not_traced(tr.get("samples", 0), res.get("wakeup-latency")) + "."
    if not tr.get("worst"):
        return head + " No traced wakeup-latency sample to explain."
    return head + " " + trace_worst.why({"trace": tr, "results": res})
