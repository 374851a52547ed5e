"""tools/run-qemu - boot Granule in QEMU with a kernel command line.

  tools/run-qemu [--boot kernel|iso] [--cpu MODEL] [--smp N] [--no-icount] [--uefi]
                 [--timeout S] [--interactive [--menu S]] -- CMDLINE...
  tools/run-qemu --gdb [--boot kernel|iso] [--cpu MODEL] -- CMDLINE...

--interactive puts the serial port on this terminal (Ctrl-A X quits QEMU);
with --boot iso the GRUB menu waits --menu S seconds (0 under -icount, where
each second of GRUB's countdown costs ~40 s of wall time; 3 with --no-icount);
otherwise the serial output is printed when the guest powers off, and the
exit status is the kernel's power-off status (124 on timeout, 125 if the
guest never reported one).  QEMU is the pinned one (tools/fetch-qemu: Debian's
10.0 from bookworm-backports, run from the cache); the command is printed
with --interactive.
--gdb (`make gdb`) boots paused with QEMU's gdb stub on a unix socket and
starts gdb on build/granule-debug.elf with tools/granule.gdb's helpers
(gr-current, gr-rq, gr-min-vruntime); the serial output goes to
build/serial.log; quitting gdb stops QEMU.  It boots with gdb_clock=1 so
that a stop moves the guest clock by under 0.1 ms (docs/ARCHITECTURE.md,
"Watching it in a debugger"); --gdb-cmds FILE runs FILE's gdb commands first.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from .. import qemu as gq
from . import summary as run_summary


# GRUB drives the serial line as a VT100: it clears the screen and moves the
# cursor before the kernel starts.  On `make run`'s terminal those codes only
# wipe what was there; they are dropped until the kernel's banner.
GRUB_ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def call_filtered(argv, cwd=None):
    """Run QEMU with the terminal as its stdin; its output goes through, minus
    GRUB's escape codes before the kernel's first line.  Returns the exit
    status and the output's last 256 KB (where the experiment's RESULT is)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, cwd=cwd)
    out, pending, started = sys.stdout.buffer, b"", False
    tail = b""
    for chunk in iter(lambda: p.stdout.read1(4096), b""):
        tail = (tail + chunk)[-(256 << 10):]
        if not started:
            pending += chunk
            at = pending.find(b"Granule ")
            started = at >= 0
            head, pending = (pending[:at], pending[at:]) if started else (pending, b"")
            esc = head.rfind(b"\x1b")
            if not started and esc >= 0 and not re.search(rb"[A-Za-z]", head[esc + 2:]):
                head, pending = head[:esc], head[esc:]	# a code cut by the read: wait for the rest
            out.write(GRUB_ESCAPES.sub(b"", head) + (pending if started else b""))
            if started:
                pending = b""
        else:
            out.write(chunk)
        out.flush()
    return p.wait(), tail.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boot", choices=["kernel", "iso"], default="kernel")
    ap.add_argument("--cpu", default=None, help="QEMU -cpu model, e.g. coreduo, pentium3, coreduo,-apic")
    ap.add_argument("--smp", type=int, default=1, help="QEMU -smp: the number of CPUs (default 1)")
    ap.add_argument("--no-icount", action="store_true", help="plain TCG: faster, not deterministic")
    ap.add_argument("--uefi", action="store_true", help="boot the ISO with OVMF (qemu-system-x86_64)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--interactive", action="store_true")
    ap.add_argument("--menu", type=int, default=None,
                    help="GRUB menu timeout in s for --interactive --boot iso (default: 0 under -icount, "
                         "where GRUB's countdown polls the UART for ~40 s of wall time a second; 3 without)")
    ap.add_argument("--gdb", action="store_true", help="boot paused under gdb (make gdb)")
    ap.add_argument("--gdb-cmds", default=None, metavar="FILE",
                    help="with --gdb: gdb runs FILE's commands first (make gdb GDB_CMDS=FILE)")
    ap.add_argument("--module", default=None, metavar="TAR",
                    help="a second initrd archive as a boot module (-kernel boots), e.g. "
                         "build/rt-tests/rt-tests.tar from tools/fetch-rttests")
    ap.add_argument("cmdline", nargs="*")
    a = ap.parse_args()
    if not 1 <= a.smp <= 255:
        sys.exit(f"run-qemu: --smp {a.smp}: invalid (expected 1..255 CPUs)")
    try:
        gq.qemufetch.root()         # the pinned QEMU: one line, not a traceback, when it cannot be had
    except gq.qemufetch.df.FetchError as e:
        sys.exit(f"run-qemu: error: {e}")
    cmdline = " ".join(a.cmdline)
    firmware = "uefi" if a.uefi else "bios"
    if a.uefi:
        a.boot = "iso"
    module = ["-initrd", a.module] if a.module else []

    if a.gdb_cmds is not None and not os.path.isfile(a.gdb_cmds):
        sys.exit(f"run-qemu: GDB_CMDS={a.gdb_cmds!r}: no such file (a gdb command file, one command a line)")
    if a.gdb:
        gdb_args = ["-x", a.gdb_cmds] if a.gdb_cmds else []
        s = gq.gdb_session(cmdline, gdb_args, batch=False, boot=a.boot, cpu=a.cpu, icount=not a.no_icount,
                           serial_log=os.path.join(gq.BUILD, "serial.log"), hold_clock=True)
        sys.exit(s.returncode)

    if a.interactive:
        with tempfile.TemporaryDirectory(prefix="granule-run-") as tmp:
            menu = a.menu if a.menu is not None else (3 if a.no_icount else 0)
            iso = gq.make_iso(cmdline, os.path.join(tmp, "run.iso"), timeout=menu) if a.boot == "iso" else None
            argv = gq.qemu_argv(a.boot, cmdline, a.cpu, not a.no_icount, firmware=firmware, iso=iso,
                                extra=module, smp=a.smp, cwd=tmp)
            argv += ["-serial", "mon:stdio"]
            print(f"run-qemu: (in {tmp}) " + " ".join(argv), file=sys.stderr)
            rc, text = call_filtered(argv, cwd=tmp)
        line = run_summary.ratio_line(text)
        if line:
            print(line)
        sys.exit(0 if rc in (0, 1) else rc)

    r = gq.run(cmdline, boot=a.boot, cpu=a.cpu, icount=not a.no_icount, timeout=a.timeout, firmware=firmware,
               extra=module, smp=a.smp)
    sys.stdout.write(r.output)
    if r.timed_out:
        print(f"run-qemu: timeout after {a.timeout} s", file=sys.stderr)
        sys.exit(124)
    sys.exit(125 if r.status is None else r.status)
