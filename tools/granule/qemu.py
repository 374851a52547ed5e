"""tools/granule/qemu.py - boot Granule under QEMU and collect what it printed.

Used by tools/run-qemu (humans, `make run`), the system tests and the bench
runner.  Two boot paths:
  kernel  qemu-system-i386 -kernel build/granule.elf -append CMDLINE
          (multiboot1, fast; QEMU prepends the file name, the kernel strips it)
  iso     a GRUB multiboot2 ISO whose default entry carries CMDLINE
          (the real path; ~10 s of wall time under icount)
  usb-ehci, usb-xhci
          the same image (or image=, e.g. tools/mkusb's) as a USB stick
          (usb-storage) on an EHCI or xHCI controller, booted by the firmware
Optional: monitor_cmds= runs QEMU monitor (HMP) commands once the serial
output matches until= (e.g. a screendump after the guest halted), then quits.
Deterministic by default: -icount shift=0,sleep=off (1 guest instruction =
1 virtual ns; the same image and command line print the same bytes), and a
-kernel boot runs QEMU in a directory of its own where the kernel is linked
as granule.elf (link_kernel(): QEMU hands the guest the file's name).
QEMU is the pinned one (tools/granule/debian/qemu.py: Debian's 10.0 from bookworm-backports,
with its SeaBIOS and OVMF, run from the cache), never whatever `qemu-system-*` is
on the PATH: a Debian point release of the system's QEMU cannot move a figure.
smp= sets the number of CPUs (-smp; 1 by default).
A headless boot (run(), gdb_session()) has nobody at the console, so a
command line without run= gets `run=` in front (`headless_cmdline()`): the
kernel's init would otherwise start the login shell and wait at its prompt
for ever; `run=` runs nothing and powers off.  Console (an interactive boot)
passes the command line as it is.
The guest leaves through isa-debug-exit at 0xf4: QEMU exits with
(status << 1) | 1, which `Run.status` turns back into the kernel's status.
QEMU 10 ends the machine only once its main loop takes the request, and
the guest runs on meanwhile (arch/x86/power.c goes on to ACPI S5 and
prints): how far is a matter of host timing, so run() keeps the serial text
up to the kernel's "Powering off (status N)" line (`after_exit()`).
debug_exit=False leaves the device out: the kernel then powers off through
ACPI S5 and QEMU exits with 0 (`Run.status` is None).  machine= picks the
QEMU machine type (pc: i440FX/PIIX4, q35: ICH9).
gdb_session() boots paused (-S) with QEMU's gdb stub on a unix socket and
runs Debian's gdb on build/granule-debug.elf with tools/granule.gdb loaded
(`make gdb`, tools/run-qemu --gdb, tools/measure-paths, the gdb test).
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

from .debian import qemu as qemufetch
from .paths import BUILD, ROOT
KERNEL = os.path.join(BUILD, "granule.elf")
KERNEL_DEBUG = os.path.join(BUILD, "granule-debug.elf")    # same loadable bytes + DWARF
GDB_SCRIPT = os.path.join(ROOT, "tools", "granule.gdb")
ISO = os.path.join(BUILD, "granule.iso")

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


USB_HCD = {"usb-ehci": "usb-ehci", "usb-xhci": "qemu-xhci"}
RUN_WORD = re.compile(r"(^|\s)run=")


def source_commit():
    """The commit the image and the programs are built from (+"-dirty" for
    local changes to tracked files), as the reports record it; None outside
    a git checkout."""
    def git(*words):
        return subprocess.run(["git", "-C", ROOT, *words],
                              capture_output=True, text=True, check=True).stdout.strip()
    try:
        head = git("rev-parse", "--short=12", "HEAD")
        return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def headless_cmdline(cmdline):
    """CMDLINE for a boot nobody types into: as it is if it names run= (any
    value: run=shell would wait, but was asked for), else with "run=" in
    front, i.e. run nothing and power off (a later run= would still win, as
    the kernel applies words left to right).  In front, not at the end: an
    unterminated quote in CMDLINE would swallow it."""
    return cmdline if RUN_WORD.search(cmdline) else ("run= " + cmdline).rstrip()


# The name QEMU is given the kernel by.  Its multiboot loader puts that name in
# front of the command line (hw/i386/multiboot.c, "%s %s" of the file name and
# -append), and arch/x86/multiboot.c reads past it, a few instructions a
# character: booted by its full path, an image ran as many instructions more
# as the path was longer, and under -icount at more than one CPU that shift
# moved later figures (kbuild-load at four CPUs did 226 jobs from one tree,
# 227 from another; one CPU absorbs it).  Every boot with a directory of its
# own (`cwd=`) links the kernel there under this one name, whatever the tree.
KERNEL_NAME = "granule.elf"


def link_kernel(kernel, cwd):
    """KERNEL linked as CWD/granule.elf (KERNEL_NAME); returns that relative
    name, for a QEMU started in CWD."""
    link = os.path.join(cwd, KERNEL_NAME)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.path.abspath(kernel), link)
    return KERNEL_NAME


def qemu_argv(boot="kernel", cmdline="", cpu=None, icount=True, memory="128M",
              firmware="bios", iso=None, extra=(), machine="pc", debug_exit=True, kernel=None,
              smp=1, cwd=None):
    # QEMU may run in another directory (run()'s workdir): every file it is
    # given is named from the root, so a caller's relative path (make usb's
    # build/granule-usb.img) still opens.  The kernel is the exception when
    # CWD (the directory QEMU will run in) is given: link_kernel()'s name.
    iso = os.path.abspath(iso or ISO)
    kernel = os.path.abspath(kernel or KERNEL)
    if boot == "kernel" and cwd:
        kernel = link_kernel(kernel, cwd)
    argv = [qemufetch.binary("qemu-system-i386" if firmware == "bios" else "qemu-system-x86_64"),
            "-machine", machine, "-smp", str(smp), "-m", memory, "-display", "none", "-no-reboot"]
    if debug_exit:
        argv += ["-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    # A fixed wall clock that follows virtual time: CLOCK_REALTIME is
    # deterministic too (the LWN article's date).
    argv += ["-rtc", "base=2010-09-14T12:00:00,clock=vm"]
    if cpu:
        argv += ["-cpu", cpu]
    if icount:
        # a string is the shift itself, e.g. "3": 2^3 ns per instruction
        # (a 125 MHz machine) for a run whose figures do not depend on speed
        shift = icount if isinstance(icount, str) else "0"
        argv += ["-icount", f"shift={shift},sleep=off"]
    if firmware == "uefi":
        argv += ["-bios", qemufetch.ovmf()]
    if boot == "kernel":
        argv += ["-kernel", kernel, "-append", cmdline]
    elif boot in USB_HCD:
        argv += ["-drive", f"if=none,id=stick,format=raw,snapshot=on,file={iso}",
                 "-device", f"{USB_HCD[boot]},id=hcd",
                 "-device", "usb-storage,bus=hcd.0,drive=stick,bootindex=0"]
    else:
        argv += ["-cdrom", iso, "-boot", "d"]
    if cwd:     # a module named from the caller's directory, named from the root
        extra = [os.path.abspath(x) if i and extra[i - 1] == "-initrd" else x
                 for i, x in enumerate(extra)]
    return argv + list(extra)


def make_iso(cmdline, path, timeout=0):
    """Build a GRUB ISO whose default entry boots with CMDLINE."""
    subprocess.run([os.path.join(ROOT, "tools", "mkiso"), "--cmdline", cmdline,
                    "--timeout", str(timeout), path], check=True,
                   stdout=subprocess.DEVNULL)
    return path


def hmp(sock, command=None):
    """Send one monitor command on a connected HMP socket; returns its reply
    (up to the next prompt).  COMMAND None sends nothing: the banner QEMU
    greets a new connection with (an empty line would leave a second prompt
    behind, and the next command's reply would end there, empty)."""
    if command is not None:
        sock.sendall(command.encode() + b"\n")
    buf = b""
    while not buf.endswith(b"(qemu) "):
        chunk = sock.recv(4096)
        if not chunk:
            break
        buf += chunk
    return buf.decode("utf-8", "replace")


def _run_with_monitor(argv, timeout, until, monitor_cmds, tmpdir, workdir, log):
    """Run QEMU (in WORKDIR), watch the serial output (the file LOG) for
    UNTIL, then run MONITOR_CMDS on the HMP socket and quit.  File names in
    the commands are relative to WORKDIR (HMP would parse "4000 /tmp/x" as a
    division).  Returns (QEMU's own output bytes, returncode, timed_out)."""
    path = os.path.join(tmpdir, "monitor.sock")
    argv = argv + ["-monitor", f"unix:{path},server=on,wait=off"]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, cwd=workdir)
    out = bytearray()
    seen = threading.Event()
    rx = re.compile(until.encode(), re.M)

    def reader():                   # QEMU's own messages
        for chunk in iter(lambda: p.stdout.read1(4096), b""):
            out.extend(chunk)

    def watcher():                  # the serial file, until UNTIL or QEMU leaves
        while p.poll() is None and not seen.is_set():
            if rx.search(_read(log).replace(b"\r", b"")):
                seen.set()
            time.sleep(0.1)
        if rx.search(_read(log).replace(b"\r", b"")):
            seen.set()
    t = threading.Thread(target=reader, daemon=True)
    t.start()
    threading.Thread(target=watcher, daemon=True).start()
    deadline = time.monotonic() + timeout
    while not seen.is_set() and p.poll() is None and time.monotonic() < deadline:
        seen.wait(0.2)
    timed_out = not seen.is_set() and p.poll() is None
    if seen.is_set() and p.poll() is None:
        time.sleep(0.5)     # let the guest finish the other consoles' copy of the line
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            try:
                s.connect(path)
            except (ConnectionRefusedError, FileNotFoundError):
                pass                        # QEMU already left: the guest powered off
            else:
                try:
                    hmp(s)                  # read the banner up to the prompt
                    for c in monitor_cmds:
                        hmp(s, c)
                    s.sendall(b"quit\n")
                except (ConnectionResetError, BrokenPipeError):
                    pass                    # QEMU left meanwhile: the guest powered off
                try:                        # keep the socket open until QEMU is gone
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
    if p.poll() is None:
        try:
            p.wait(timeout=10 if not timed_out else 0.1)
        except subprocess.TimeoutExpired:
            pass
    if p.poll() is None:
        p.kill()
        p.wait()
    t.join(5)
    return bytes(out), p.returncode if not timed_out else -1, timed_out


POWER_OFF_LINE = re.compile(rb"Powering off \(status -?\d+\)\r?\n")


def after_exit(serial, returncode):
    """SERIAL without what the guest printed after it wrote its status to
    isa-debug-exit (RETURNCODE odd): QEMU exits asynchronously, and that
    tail differs from run to run.  Anything else comes back whole."""
    m = POWER_OFF_LINE.search(serial) if returncode > 0 and returncode % 2 else None
    return serial[:m.end()] if m else serial


def _read(path):
    """The bytes of PATH so far (b"" before QEMU creates it)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


def run(cmdline="", boot="kernel", cpu=None, icount=True, timeout=120,
        memory="128M", firmware="bios", extra=(), image=None, until=None,
        monitor_cmds=(), workdir=None, machine="pc", debug_exit=True, kernel=None, smp=1):
    """Boot once, headless, serial captured; returns a Run.

    image: boot this prebuilt image (iso and usb-* boots) instead of making
    an ISO for CMDLINE.  until/monitor_cmds/workdir: see _run_with_monitor.
    machine/debug_exit: see the module comment.  kernel: another ELF for
    the -kernel boot (e.g. one built with BUSYBOX=0)."""
    cmdline = headless_cmdline(cmdline)
    iso = image
    tmp = tempfile.TemporaryDirectory(prefix="granule-iso-")
    if boot != "kernel" and not image:
        iso = make_iso(cmdline, os.path.join(tmp.name, "run.iso"))
    cwd = workdir if until and workdir else tmp.name
    argv = qemu_argv(boot, cmdline, cpu, icount, memory, firmware, iso, extra,
                     machine, debug_exit, kernel, smp, cwd)
    # The serial line goes to a regular file, which never blocks QEMU's
    # UART: through a pipe, a host reader late by tens of ms (two busy
    # cores) kept THRE clear past the guest's spin limit (arch/x86/serial.c),
    # and the guest dropped a character.
    log = os.path.join(tmp.name, "serial.log")
    argv += ["-serial", f"file:{log}"]
    out, rc = b"", -1
    try:
        if until:
            out, rc, to = _run_with_monitor(argv, timeout, until, monitor_cmds, tmp.name,
                                            cwd, log)
        else:
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=timeout, cwd=cwd)
            out, rc, to = p.stdout, p.returncode, False
    except subprocess.TimeoutExpired as e:
        out, rc, to = e.stdout or b"", -1, True
    finally:
        out = after_exit(_read(log), rc) + out    # the serial text, then QEMU's own messages
        tmp.cleanup()
    text = out.decode("utf-8", "replace")
    # Firmware and GRUB paint the screen with ANSI sequences and bare CRs.
    text = ANSI.sub("", text).replace("\r", "")
    return Run(cmdline, rc, text, to, argv)


@dataclass
class GdbSession:
    returncode: int             # gdb's exit status
    gdb_output: str             # what gdb printed (stdout + stderr), or "" if it was interactive
    serial: str                 # the guest's serial output, cleaned as Run.output
    timed_out: bool = False


def gdb_session(cmdline="", gdb_args=(), batch=True, boot="kernel", cpu=None, icount=True,
                timeout=600, memory="128M", serial_log=None, extra=(), watch=None, hold_clock=False):
    """Boot QEMU paused with its gdb stub listening on a unix socket (never
    a TCP port), attach `gdb -x tools/granule.gdb build/granule-debug.elf`,
    run it with GDB_ARGS (e.g. ["-ex", "break scheduler_tick", ...]) in
    batch mode (output captured) or interactively (BATCH=False, on this
    terminal), then stop QEMU.  The serial output goes to SERIAL_LOG (or a
    temporary file) and comes back in GdbSession.serial.  Under -icount a
    session is deterministic, but each gdb stop lets QEMU's icount clock skip
    to the next virtual timer deadline: after a stop the guest's figures
    differ from a plain run's (the same on every session).  EXTRA: more QEMU arguments; WATCH(qemu):
    called with the QEMU Popen once it runs (tools/measure-paths).
    HOLD_CLOCK (make gdb): boot with gdb_clock=1, whose PIT guard (IRQ
    masked) keeps a virtual timer under 0.1 ms ahead, so a stop moves the
    guest clock by less than that instead of up to the firmware PIT's 27.5 ms
    (arch/x86/pit.c pit_start_guard)."""
    if hold_clock and icount:
        cmdline = "gdb_clock=1 " + cmdline
    cmdline = headless_cmdline(cmdline)
    with tempfile.TemporaryDirectory(prefix="granule-gdb-") as tmp:
        sock = os.path.join(tmp, "gdb.sock")
        log = serial_log or os.path.join(tmp, "serial.log")
        iso = make_iso(cmdline, os.path.join(tmp, "run.iso")) if boot != "kernel" else None
        argv = qemu_argv(boot, cmdline, cpu, icount, memory, iso=iso, extra=extra, cwd=tmp)
        argv += ["-S", "-gdb", f"unix:{sock},server=on,wait=off", "-serial", f"file:{log}"]
        # Its own session: gdb's Ctrl-C (interrupt the guest) must not reach QEMU.
        qemu = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True, cwd=tmp)
        try:
            # The watcher first: QEMU opens a -D log at start-up, and a FIFO's
            # open blocks until its reader is there, so QEMU makes its gdb
            # socket only once the watcher reads (tools/measure-paths).
            if watch:
                watch(qemu)
            deadline = time.monotonic() + 30
            while not os.path.exists(sock) and qemu.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            gdb = ["gdb", "-q", "-nx", "-x", GDB_SCRIPT, "-ex", f"target remote {sock}"]
            gdb += list(gdb_args)
            if batch:
                gdb.insert(1, "-batch")
            gdb.append(KERNEL_DEBUG)
            timed_out = False
            if batch:
                try:
                    p = subprocess.run(gdb, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, timeout=timeout)
                    rc, out = p.returncode, p.stdout.decode("utf-8", "replace")
                except subprocess.TimeoutExpired as e:
                    rc, out, timed_out = -1, (e.stdout or b"").decode("utf-8", "replace"), True
            else:
                print(f"gdb: serial output in {log}", file=sys.stderr)
                old = signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is gdb's
                try:
                    rc, out = subprocess.call(gdb), ""
                finally:
                    signal.signal(signal.SIGINT, old)
        finally:
            if qemu.poll() is None:
                qemu.kill()
            qemu.wait()
        text = ""
        if os.path.exists(log):
            with open(log, "rb") as f:
                text = ANSI.sub("", f.read().decode("utf-8", "replace")).replace("\r", "")
        return GdbSession(rc, out, text, timed_out)


class Console:
    """An interactive boot: the serial line on pipes, the monitor on a unix
    socket.  expect(text) waits until TEXT has appeared in the serial output
    since the last expect() (so input is only sent once the guest asked for
    it: the transcript does not depend on host timing; CRs are removed
    before matching); send(s) types S on
    the serial line; sendkey(k) presses a key through the monitor (the PS/2
    keyboard).  Use as a context manager; close() quits QEMU."""

    def __init__(self, cmdline="", timeout=60, icount=True, extra=(), kernel=None):
        self.tmp = tempfile.TemporaryDirectory(prefix="granule-console-")
        self.sock_path = os.path.join(self.tmp.name, "monitor.sock")
        argv = qemu_argv("kernel", cmdline, None, icount, extra=extra, kernel=kernel, cwd=self.tmp.name)
        argv += ["-serial", "stdio", "-monitor", f"unix:{self.sock_path},server=on,wait=off"]
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, cwd=self.tmp.name)
        self.timeout = timeout
        self.out = bytearray()
        self.pos = 0
        self.cond = threading.Condition()
        self.mon = None
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for chunk in iter(lambda: self.p.stdout.read1(4096), b""):
            with self.cond:
                self.out.extend(chunk.replace(b"\r", b""))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    @property
    def text(self):
        """Everything printed so far, CRs removed."""
        return bytes(self.out).decode("utf-8", "replace")

    def expect(self, text, timeout=None):
        """Wait for TEXT after the last match; returns the output up to and
        including it.  Raises TimeoutError with the transcript."""
        want = text.encode()
        deadline = time.monotonic() + (timeout or self.timeout)
        with self.cond:
            while True:
                i = bytes(self.out).find(want, self.pos)
                if i >= 0:
                    seg = bytes(self.out[self.pos:i + len(want)])
                    self.pos = i + len(want)
                    return seg.decode("utf-8", "replace")
                left = deadline - time.monotonic()
                if left <= 0 or (self.p.poll() is not None and not self.cond.wait(0.2)):
                    raise TimeoutError(f"{text!r} not seen; output:\n{self.text[-3000:]}")
                self.cond.wait(min(left, 0.5))

    def send(self, s):
        self.p.stdin.write(s.encode() if isinstance(s, str) else s)
        self.p.stdin.flush()

    def monitor(self, command):
        if self.mon is None:
            self.mon = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.mon.connect(self.sock_path)
            hmp(self.mon)
        return hmp(self.mon, command)

    def sendkey(self, key):
        return self.monitor(f"sendkey {key}")

    def wait(self, timeout=None):
        """Wait for QEMU to leave (the guest powered off): the kernel's
        power-off status, as Run.status, or None on timeout."""
        try:
            rc = self.p.wait(timeout=timeout or self.timeout)
        except subprocess.TimeoutExpired:
            return None
        return rc >> 1 if rc % 2 else None

    def close(self):
        if self.p.poll() is None:
            try:
                self.monitor("quit")
            except OSError:
                pass
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        if self.mon:
            self.mon.close()
        self.tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
