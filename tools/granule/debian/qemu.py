"""tools/granule/debian/qemu.py - the one QEMU behind every figure: Debian's QEMU 10.0 from bookworm-backports,
pinned in tools/debs.lock and run from the cache, never installed.

Why not bookworm's own QEMU (7.2): under -icount it cannot bring up a second CPU (Linux
6.1 at -smp 2 stops at "x86: Booting SMP configuration:"), and a Debian point release of
it could move every figure.  10.0 from bookworm-backports boots Linux at -smp 2 and 4
under -icount shift=0,sleep=off, the same bytes run after run.

What is pinned (tools/debs.lock, ROLES below): qemu-system-x86 (qemu-system-i386 and
qemu-system-x86_64), qemu-system-common (its loadable modules), qemu-system-data (option
ROMs, keymaps), seabios (the BIOS and VGA BIOS; 10.0 needs bookworm-backports' 1.16.3),
ipxe-qemu (the NIC option ROMs) and ovmf (UEFI, bookworm's: backports has none).  The
shared libraries QEMU links are bookworm's, installed by tools/deps as ordinary packages
(`libraries()`, read from the pinned qemu-system-x86's Depends).

How it runs without touching the system: the .debs are unpacked (dpkg-deb -x) into
$GRANULE_CACHE/qemu/KEY (KEY: a hash of the pins, so a new pin unpacks anew; the unpack
is renamed into place whole, so a second process never sees half of it), and
KEY/bin/qemu-system-{i386,x86_64} are small wrappers that run the unpacked binary with
  -L .../usr/share/qemu -L .../usr/share/seabios -L .../usr/lib/ipxe/qemu
(the firmware directories, searched before the compiled-in /usr/share paths, where an
installed bookworm QEMU keeps 7.2's files), QEMU_MODULE_DIR set to the unpacked modules
(QEMU refuses modules "from another build", which the system's are) and -audio none
(QEMU probes for a sound backend otherwise, loading modules, and falls back to the
system's module directory for one it does not find in QEMU_MODULE_DIR; the machines
here have no sound to make).
`binary(name)` gives a wrapper's path; `PATH=$(tools/fetch-qemu):$PATH` puts them on a
shell's path to run QEMU by hand.
"""
import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from . import fetch as df

PROG = "tools/fetch-qemu"
SUITES = ("bookworm", "bookworm-backports")
RELEASE = "bookworm-backports"      # a dropped pin is replaced from here (fetch.Want)
ROLES = ("qemu-x86", "qemu-common", "qemu-data", "seabios", "ipxe-qemu", "ovmf")
BINARIES = ("qemu-system-i386", "qemu-system-x86_64")
FIRMWARE_DIRS = ("usr/share/qemu", "usr/share/seabios", "usr/lib/ipxe/qemu")
MODULE_DIR = "usr/lib/x86_64-linux-gnu/qemu"
OVMF = "usr/share/ovmf/OVMF.fd"


def wants():
    return [df.want(r, release=RELEASE) for r in ROLES]


def pin_key():
    """12 hex digits naming the pinned set (role, package, version, SHA-256 of each)."""
    pins = [e for e in df.lock_entries() if e[0] in ROLES]
    return hashlib.sha256(repr(pins).encode()).hexdigest()[:12]


def root_dir():
    return os.path.join(df.cache_dir(), "qemu", pin_key())


WRAPPER = """#!/bin/sh
# {name} of {source}, unpacked by tools/fetch-qemu: the firmware
# and modules are the unpacked ones (tools/granule/debian/qemu.py).  -audio none: no
# sound backend is probed (the probe loads modules, and looks for them in the
# system's module directory too).
QEMU_MODULE_DIR='{root}/{modules}'
export QEMU_MODULE_DIR
exec '{root}/usr/bin/{name}' {dirs} -audio none "$@"
"""


def _unpack(debs, dest):
    """Unpack DEBS into a new directory and rename it to DEST; a concurrent unpack
    that got there first wins (its files are the same)."""
    parent = os.path.dirname(dest)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="unpack-", dir=parent)
    try:
        for deb in debs:
            subprocess.run(["dpkg-deb", "-x", deb, tmp], check=True)
        source = []
        for deb in debs:
            r = df.record(deb)
            source.append(f"{r['package']}:{r['arch']} {r['version']} sha256:{r['sha256']}")
        with open(os.path.join(tmp, "SOURCE"), "w", encoding="utf-8") as f:
            f.write("\n".join(source) + "\n")
        qemu = source[0].split(" sha256:")[0]
        os.makedirs(os.path.join(tmp, "bin"))
        for name in BINARIES:
            dirs = " ".join(f"-L '{dest}/{d}'" for d in FIRMWARE_DIRS)
            path = os.path.join(tmp, "bin", name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(WRAPPER.format(name=name, source=qemu, root=dest, modules=MODULE_DIR,
                                       dirs=dirs))
            os.chmod(path, 0o755)
        try:
            os.rename(tmp, dest)
        except OSError:
            if not os.path.isdir(os.path.join(dest, "bin")):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@functools.lru_cache(maxsize=None)
def root():
    """The unpacked pinned QEMU's directory, fetched and unpacked when missing.
    Raises fetch.FetchError when a package cannot be had."""
    dest = root_dir()
    if not os.path.isfile(os.path.join(dest, "SOURCE")):
        paths = df.get(wants(), PROG, SUITES)
        _unpack([paths[r] for r in ROLES], dest)
    return dest


def binary(name):
    """The path of pinned QEMU's NAME (qemu-system-i386, qemu-system-x86_64)."""
    if name not in BINARIES:
        raise ValueError(f"{name}: not one of {BINARIES}")
    return os.path.join(root(), "bin", name)


def ovmf():
    """The pinned OVMF image (UEFI firmware, for -bios)."""
    return os.path.join(root(), OVMF)


def version():
    """What the pinned qemu-system-i386 says it is ('QEMU emulator version 10.0.2 (Debian ...)')."""
    p = subprocess.run([binary("qemu-system-i386"), "--version"], capture_output=True, text=True)
    if p.returncode != 0:
        raise df.FetchError(f"{binary('qemu-system-i386')} does not start: "
                            f"{(p.stderr.strip().splitlines() or ['no output'])[-1]}")
    return p.stdout.splitlines()[0]


def libraries():
    """The Debian packages (bookworm's) the pinned qemu-system-x86 depends on besides the
    pinned ones: its shared libraries, for apt-get install (tools/deps)."""
    paths = df.get([df.want("qemu-x86", release=RELEASE)], PROG, SUITES)
    depends = subprocess.run(["dpkg-deb", "-f", paths["qemu-x86"], "Depends"], check=True,
                             capture_output=True, text=True).stdout
    pinned = {df.want(r).name for r in ROLES}
    names = [re.split(r"[\s(|:]", d.strip(), maxsplit=1)[0] for d in depends.split(",")]
    return [n for n in names if n and n not in pinned]
