"""tools/granule_qemu.py - boot Granule under QEMU and collect what it printed.

Used by tools/run-qemu (humans, `make run`), the system tests and the bench
runner.  Two boot paths:
  kernel  qemu-system-i386 -kernel build/granule.elf -append CMDLINE
          (multiboot1, fast; QEMU prepends the file name, the kernel strips it)
  iso     a GRUB multiboot2 ISO whose default entry carries CMDLINE
          (the real path; ~10 s of wall time under icount)
Deterministic by default: -icount shift=0,sleep=off (1 guest instruction =
1 virtual ns; the same image and command line print the same bytes).
The guest leaves through isa-debug-exit at 0xf4: QEMU exits with
(status << 1) | 1, which `Run.status` turns back into the kernel's status.
"""
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
KERNEL = os.path.join(BUILD, "granule.elf")
ISO = os.path.join(BUILD, "granule.iso")
OVMF = "/usr/share/ovmf/OVMF.fd"

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d{6}\] ")
ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>c])")


@dataclass
class Run:
    cmdline: str
    returncode: int
    output: str                 # serial output, ANSI sequences and CRs removed
    timed_out: bool = False
    argv: list = field(default_factory=list)

    @property
    def status(self):
        """The kernel's machine_power_off() status, or None if it never wrote one."""
        if self.timed_out or self.returncode % 2 == 0:
            return None
        return self.returncode >> 1

    @property
    def lines(self):
        """Serial lines with the printk timestamp removed."""
        return [TIMESTAMP.sub("", l) for l in self.output.split("\n")]

    def has_line(self, text):
        return text in self.lines

    def find(self, pattern):
        """First regex match over the timestamp-free lines, or None."""
        rx = re.compile(pattern)
        for l in self.lines:
            m = rx.search(l)
            if m:
                return m
        return None


def qemu_argv(boot="kernel", cmdline="", cpu=None, icount=True, memory="128M",
              firmware="bios", iso=None, extra=()):
    argv = ["qemu-system-i386" if firmware == "bios" else "qemu-system-x86_64",
            "-machine", "pc", "-m", memory, "-display", "none", "-no-reboot",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if cpu:
        argv += ["-cpu", cpu]
    if icount:
        argv += ["-icount", "shift=0,sleep=off"]
    if firmware == "uefi":
        argv += ["-bios", OVMF]
    if boot == "kernel":
        argv += ["-kernel", KERNEL, "-append", cmdline]
    else:
        argv += ["-cdrom", iso or ISO, "-boot", "d"]
    return argv + list(extra)


def make_iso(cmdline, path, timeout=0):
    """Build a GRUB ISO whose default entry boots with CMDLINE."""
    subprocess.run([os.path.join(ROOT, "tools", "mkiso"), "--cmdline", cmdline,
                    "--timeout", str(timeout), path], check=True,
                   stdout=subprocess.DEVNULL)
    return path


def run(cmdline="", boot="kernel", cpu=None, icount=True, timeout=120,
        memory="128M", firmware="bios", extra=()):
    """Boot once, headless, serial captured; returns a Run."""
    iso = None
    tmp = None
    if boot != "kernel":
        tmp = tempfile.TemporaryDirectory(prefix="granule-iso-")
        iso = make_iso(cmdline, os.path.join(tmp.name, "run.iso"))
    argv = qemu_argv(boot, cmdline, cpu, icount, memory, firmware, iso, extra)
    argv += ["-serial", "stdio"]
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        out, rc, to = p.stdout, p.returncode, False
    except subprocess.TimeoutExpired as e:
        out, rc, to = e.stdout or b"", -1, True
    finally:
        if tmp:
            tmp.cleanup()
    text = out.decode("utf-8", "replace")
    # Firmware and GRUB paint the screen with ANSI sequences and bare CRs.
    text = ANSI.sub("", text).replace("\r", "")
    return Run(cmdline, rc, text, to, argv)
