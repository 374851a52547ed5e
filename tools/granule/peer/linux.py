"""tools/granule/peer/linux.py - run Granule's own benchmark binaries on Debian's real Linux kernels.

Granule's user programs are static Linux i386 ELFs, so the very same
experiment, wakeup-latency, kbuild-load and video-load binaries run on a
Linux kernel (through its IA32 emulation) in the same QEMU under the same
-icount.  This module fetches Debian's kernel packages, packs an initramfs
of Debian's busybox-static and Granule's programs, sets the scheduler knobs
through debugfs, and boots it.  Used by tools/linux-peer (humans), tools/bench
and the tests.

The kernels (Debian 12's archive, fetched with apt-get download into a private
apt state, so the machine's apt configuration is untouched):
  6.1   linux-image-amd64 from bookworm            CFS, the 2.6.35 knobs still exist
  6.12  linux-image-amd64 from bookworm-backports  EEVDF

Choices that make the comparison fair (each is on the kernel command line):
  noautogroup      Granule has no autogroup; 2.6.35 had none (it came in 2.6.38)
  mitigations=off  Spectre/Meltdown work on every entry has no 2010 counterpart
  nokaslr          one kernel layout: the same bytes on every run
  cryptomgr.notests  no crypto API boot self-tests: Debian runs them in a
                   kernel thread (cryptomgr_test) that takes ~9% of the CPU
                   during the measurement; Granule has no such thread
  quiet, console=ttyS0, panic=-1: serial output only; a panic ends the run
  -smp 1, 128 MiB, the RTC pinned to 2010-09-14: Granule's machine (smp= asks for
                   more CPUs: under -icount QEMU runs them in turn on one thread, so
                   the run stays deterministic), in the same pinned QEMU (tools/granule/debian/qemu.py)
Debian's kernels are HZ=250 (CONFIG_HZ_250); tools/bench pairs each Linux run
with Granule's run at hz=250.
"""
import gzip
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

from ..debian import fetch as df
from ..debian import qemu as qemufetch
from ..paths import ROOT
USER_DIR = os.path.join(ROOT, "build", "user")
CACHE = os.path.join(df.cache_dir(), "linux-peer")

# name -> (suite, human label).  The package is linux-image-amd64 from that suite.
KERNELS = {
    "6.1": ("bookworm", "Linux 6.1 (CFS)"),
    "6.12": ("bookworm-backports", "Linux 6.12 (EEVDF)"),
}

# 2.6.35's features that Linux 6.1 still has under the same name; the others
# (NORMALIZED_SLEEPER, ADAPTIVE_GRAN, ASYM_GRAN, LB_*, ...) are gone.
CFS_0BF = {"latency_ns": 6000000, "min_granularity_ns": 750000, "wakeup_granularity_ns": 1000000}
LINUX_PRESETS = {
    # preset: (kernel, {debugfs knob: value}, [feature words], {environment: value})
    # The environment reaches every program, as Granule's unknown boot words do:
    # slice_us=100 makes experiment ask sched_setattr(2) for a 0.1 ms slice on its
    # notifying threads, which Linux 6.12 takes as the EEVDF request (commit
    # 857b158dc5e8, "sched/eevdf: Use sched_attr::sched_runtime to set request/slice
    # suggestion"; it clamps to 0.1-100 ms, as Granule does).
    "linux-2.6.35": ("6.1", {"latency_ns": 6000000, "min_granularity_ns": 2000000,
                             "wakeup_granularity_ns": 1000000}, ["START_DEBIT"], {}),
    "commit-0bf377bbb0be": ("6.1", CFS_0BF, ["START_DEBIT"], {}),
    "no-start-debit": ("6.1", CFS_0BF, ["NO_START_DEBIT"], {}),
    "commit-0bf377bbb0be+hrtick": ("6.1", CFS_0BF, ["START_DEBIT", "HRTICK"], {}),
    "linux-6.12": ("6.12", {}, [], {}),
    "linux-6.12-slice3ms": ("6.12", {"base_slice_ns": 3000000}, [], {}),
    "linux-6.12-slice100us": ("6.12", {}, [], {"slice_us": "100"}),
    "linux-6.12-no-place-lag": ("6.12", {}, ["NO_PLACE_LAG"], {}),
    "linux-6.12-no-run-to-parity": ("6.12", {}, ["NO_RUN_TO_PARITY"], {}),
}
# Granule presets Linux cannot emulate: their changes never reached Linux.
NOT_ON_LINUX = {
    "dyn-gran": "the dynamic-granularity RFC was never merged",
    "dyn-gran-sleeper": "the sleeper-slice RFC was never merged",
    "start-nice": "START_NICE was never merged",
    "start-nice-debit": "START_NICE was never merged",
    "deadline": "Peter Zijlstra's DEADLINE idea was never written for CFS",
    "cpt-fix": "a Granule guess, not a Linux change",
}
# Granule's configuration each Linux preset is compared with (same knobs): a preset
# of tools/presets, or the label of a variant (tools/granule/bench/variants.py: the preset
# and the boot words).  The HRTICK run has no Granule twin: the report lists it on
# its own.
GRANULE_TWIN = {
    "linux-2.6.35": "linux-2.6.35",
    "commit-0bf377bbb0be": "commit-0bf377bbb0be",
    "no-start-debit": "no-start-debit",
    "linux-6.12": "linux-6.12",     # Granule's EEVDF class (kernel/sched/eevdf*.c)
    "linux-6.12-slice3ms": "linux-6.12 sched_base_slice_ns=3000000",
    "linux-6.12-slice100us": "linux-6.12 slice_us=100",
    "linux-6.12-no-place-lag": "linux-6.12 sched_features=NO_PLACE_LAG",
    "linux-6.12-no-run-to-parity": "linux-6.12 sched_features=NO_RUN_TO_PARITY",
}
LINUX_HZ = 250

# The chain of kbuild-load -P chain's stages are one program under four names,
# in the directory where they are exec'd by path (user/bench/bench.h KBUILD_CHAIN_DIR).
CHAIN_DIR = "usr/lib/granule/kbuild"
ALIASES = {f"{CHAIN_DIR}/{n}": "chainjob" for n in ("sh", "gcc", "cc1", "as")}
BEGIN, END = "linux-peer: begin", "linux-peer: end"


def log(msg):
    print(f"linux-peer: {msg}", file=sys.stderr)


# --- fetching ------------------------------------------------------------------------
# The packages are pinned in tools/debs.lock and fetched through tools/granule/debian/fetch.py
# (a private apt state; a mirror in mid-sync is a warning; every .deb checked
# against the archive's SHA-256 and cached in ~/.cache/granule/debs).

# kernel name -> (tools/debs.lock role, the metapackage naming its successor)
LOCK_ROLES = {"6.1": ("linux-6.1", ("linux-image-amd64", "bookworm")),
              "6.12": ("linux-6.12", ("linux-image-amd64", "bookworm-backports"))}


def _extract(deb, member_glob, dest):
    os.makedirs(dest, exist_ok=True)
    tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", dest, "--wildcards", member_glob], stdin=tar.stdout,
                   check=True)
    if tar.wait() != 0:
        raise SystemExit(f"linux-peer: dpkg-deb failed on {deb}")


def kernel_dir(name):
    return os.path.join(CACHE, f"linux-{name}")


def busybox_path():
    return os.path.join(CACHE, "busybox", "bin", "busybox")


def _pinned(name):
    """True when kernel NAME's unpacked files come from the .deb tools/debs.lock pins."""
    try:
        with open(os.path.join(kernel_dir(name), "package"), encoding="ascii") as f:
            got = f.read().strip()
    except OSError:
        return False
    w = df.want(LOCK_ROLES[name][0])
    return got == df.deb_name(w.name, w.version, w.arch)


def fetched():
    """True when both kernels and busybox are in the cache."""
    return all(os.path.exists(os.path.join(kernel_dir(k), "vmlinuz")) for k in KERNELS) and \
        os.path.exists(busybox_path())


def _unpack_kernel(name, deb):
    kd = kernel_dir(name)
    os.makedirs(CACHE, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=CACHE)
    _extract(deb, "./boot/*", tmp)
    boot = os.path.join(tmp, "boot")
    os.makedirs(kd, exist_ok=True)
    for f in os.listdir(boot):
        if f.startswith("vmlinuz-"):
            shutil.copy(os.path.join(boot, f), os.path.join(kd, "vmlinuz"))
            with open(os.path.join(kd, "release"), "w", encoding="ascii") as r:
                r.write(f[len("vmlinuz-"):] + "\n")
        elif f.startswith("config-"):
            shutil.copy(os.path.join(boot, f), os.path.join(kd, "config"))
    with open(os.path.join(kd, "package"), "w", encoding="ascii") as r:
        r.write(os.path.basename(deb) + "\n")
    shutil.rmtree(tmp)


def fetch(force=False):
    """Unpack what is missing or not the pinned version: each kernel's vmlinuz +
    config, busybox-static.  A kernel already unpacked serves when the pinned one
    cannot be had (offline), with a warning."""
    kernels = [k for k in KERNELS if force or not _pinned(k)]
    wants = [df.want(*LOCK_ROLES[k]) for k in kernels]
    if force or not os.path.exists(busybox_path()):
        wants.append(df.want("busybox-amd64"))
    if not wants:
        return
    try:
        paths = df.get(wants, "linux-peer", suites=("bookworm", "bookworm-backports"))
    except df.FetchError as e:
        if fetched():
            log(f"warning: {e}; using the kernels unpacked before")
            return
        raise SystemExit(f"linux-peer: error: {e}")
    for k in kernels:
        _unpack_kernel(k, paths[LOCK_ROLES[k][0]])
    if "busybox-amd64" in paths:
        _extract(paths["busybox-amd64"], "./bin/busybox", os.path.join(CACHE, "busybox"))


def kernel_config(name, key):
    """CONFIG_KEY's value in kernel NAME's config ('y', '250', ...) or None."""
    with open(os.path.join(kernel_dir(name), "config"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(f"CONFIG_{key}="):
                return line.split("=", 1)[1].strip()
    return None


def release(name):
    with open(os.path.join(kernel_dir(name), "release"), encoding="ascii") as f:
        return f.read().strip()


# --- the initramfs -----------------------------------------------------------------

def cpio_newc(entries):
    """A reproducible cpio 'newc' archive (what the kernel's initramfs reads).

    entries: (name, mode, data) with data None for a directory.  Every
    timestamp, owner and inode number is fixed, so the bytes depend only on
    the entries."""
    out = io.BytesIO()

    def put(name, mode, data, ino):
        name_b = name.encode() + b"\0"
        fields = [ino, mode, 0, 0, 1 if data is not None else 2, 0, len(data or b""),
                  0, 0, 0, 0, len(name_b), 0]
        out.write(b"070701" + b"".join(b"%08X" % v for v in fields))
        out.write(name_b)
        out.write(b"\0" * (-(110 + len(name_b)) % 4))
        if data:
            out.write(data)
            out.write(b"\0" * (-len(data) % 4))

    for ino, (name, mode, data) in enumerate(entries, 1):
        put(name, mode, data, ino)
    put("TRAILER!!!", 0, b"", 0)
    return out.getvalue()


INIT = r"""#!/bin/busybox sh
# linux-peer's /init: mount what the programs and knobs need, apply the
# run's knobs (run.conf), run its commands, print markers, power off.
B=/bin/busybox
$B mount -t proc proc /proc
$B mount -t sysfs sys /sys
$B mount -t debugfs none /sys/kernel/debug
$B mount -t devtmpfs dev /dev
cd /
. /run.conf
D=/sys/kernel/debug/sched
$B echo "linux-peer: kernel $($B uname -s) $($B uname -r)"
for kv in $KNOBS; do
  k=${kv%%=*}; v=${kv#*=}
  $B echo "$v" > $D/$k || $B echo "linux-peer: cannot set $k=$v"
done
for f in $FEATURES; do
  $B echo "$f" > $D/features || $B echo "linux-peer: cannot set feature $f"
done
for f in $($B ls $D); do
  case $f in *_ns) $B echo "linux-peer: knob $f=$($B cat $D/$f)";; esac
done
$B echo "linux-peer: features $($B cat $D/features)"
$B echo "linux-peer: begin"
status=0
IFS=';'
for cmd in $RUN; do
  IFS=' '
  $B env $cmd || status=1
  IFS=';'
done
IFS=' '
$B echo "linux-peer: end status=$status"
$B poweroff -f
"""


def module_entries(tar_path):
    """The members of a Granule boot module (a ustar archive such as
    build/rt-tests/rt-tests.tar) as cpio entries at the same paths."""
    import tarfile
    entries = []
    with tarfile.open(tar_path) as t:
        for m in t.getmembers():
            name = m.name.rstrip("/")
            if m.isdir():
                entries.append((name, 0o40755, None))
            elif m.issym():
                entries.append((name, 0o120777, m.linkname.encode()))
            elif m.isfile():
                entries.append((name, 0o100755, t.extractfile(m).read()))
    return entries


def initramfs(knobs, features, run, env, user_dir=USER_DIR, module=None):
    """The initramfs bytes (gzip, fixed mtime): busybox, /init, run.conf and every
    program in USER_DIR (build/user/*.elf) at /NAME, plus the chainjob aliases in
    /usr/lib/granule/kbuild; with MODULE (a Granule boot module's path) its files
    too, under the same paths (Debian's rt-tests and their glibc: /usr/bin,
    /lib/i386-linux-gnu)."""
    conf = [f"KNOBS='{' '.join(f'{k}={v}' for k, v in knobs.items())}'",
            f"FEATURES='{' '.join(features)}'",
            f"RUN='{run}'",
            "export PATH=/"]
    conf += [f"export {k}='{v}'" for k, v in env.items()]
    entries = [("bin", 0o40755, None), ("proc", 0o40755, None), ("sys", 0o40755, None),
               ("dev", 0o40755, None), ("tmp", 0o41777, None),
               ("usr", 0o40755, None), ("usr/lib", 0o40755, None), ("usr/lib/granule", 0o40755, None),
               (CHAIN_DIR, 0o40755, None)]
    with open(busybox_path(), "rb") as f:
        entries.append(("bin/busybox", 0o100755, f.read()))
    entries.append(("init", 0o100755, INIT.encode()))
    entries.append(("run.conf", 0o100644, ("\n".join(conf) + "\n").encode()))
    progs = {}
    for f in sorted(os.listdir(user_dir)):
        if f.endswith(".elf") and f != "init.elf":	# /init is the script
            with open(os.path.join(user_dir, f), "rb") as fh:
                progs[f[:-4]] = fh.read()
    if "experiment" not in progs:
        raise SystemExit(f"linux-peer: no Granule programs in {user_dir}: run 'make all' first")
    for alias, prog in ALIASES.items():
        progs.setdefault(alias, progs[prog])
    entries += [(name, 0o100755, data) for name, data in sorted(progs.items())]
    if module:
        have = {e[0] for e in entries}
        entries += [e for e in module_entries(module) if e[0] not in have]
    return gzip.compress(cpio_newc(entries), mtime=0)


# --- running -------------------------------------------------------------------------

KERNEL_ARGS = ("console=ttyS0 noautogroup mitigations=off nokaslr cryptomgr.notests "
               "quiet panic=-1")


def qemu_argv(kernel, initrd_path, icount=True, memory="128M", smp=1):
    argv = [qemufetch.binary("qemu-system-x86_64"), "-machine", "pc", "-smp", str(smp), "-m", memory,
            "-display", "none", "-no-reboot",
            "-rtc", "base=2010-09-14T12:00:00,clock=vm",
            "-kernel", os.path.join(kernel_dir(kernel), "vmlinuz"),
            "-initrd", initrd_path, "-append", KERNEL_ARGS, "-serial", "stdio"]
    if icount:
        argv += ["-icount", "shift=0,sleep=off"]
    return argv


def preset_config(preset):
    """(kernel, knobs, features, environment) for a Linux preset name, or SystemExit."""
    if preset in NOT_ON_LINUX:
        raise SystemExit(f"linux-peer: {preset} has no Linux equivalent: {NOT_ON_LINUX[preset]}")
    if preset not in LINUX_PRESETS:
        raise SystemExit(f"linux-peer: unknown preset {preset!r} (one of {', '.join(LINUX_PRESETS)})")
    return LINUX_PRESETS[preset]


class PeerRun:
    """One Linux boot: its serial text and what it said back."""

    def __init__(self, preset, text, returncode, timed_out):
        self.preset, self.text, self.returncode, self.timed_out = preset, text, returncode, timed_out
        self.lines = [re.sub(r"^\[\s*\d+\.\d+\]\s*", "", l) for l in text.replace("\r", "").split("\n")]

    def knobs(self):
        """{'latency_ns': 6000000, ...} as the kernel reported them after setting."""
        return {m.group(1): int(m.group(2)) for m in
                (re.match(r"linux-peer: knob (\w+)=(\d+)$", l) for l in self.lines) if m}

    def features(self):
        for l in self.lines:
            if l.startswith("linux-peer: features "):
                return l.split(" ", 2)[2].split()
        return []

    def kernel(self):
        for l in self.lines:
            if l.startswith("linux-peer: kernel "):
                return l.split(" ", 2)[2]
        return None

    def results(self):
        return [l[len("RESULT "):] for l in self.lines if l.startswith("RESULT ")]

    def status(self):
        for l in self.lines:
            m = re.match(r"linux-peer: end status=(\d+)", l)
            if m:
                return int(m.group(1))
        return None


def run(preset, run_cmds, env=None, timeout=900, icount=True, user_dir=USER_DIR, module=None,
        memory="128M", smp=1):
    """Boot PRESET's kernel with its knobs, run RUN_CMDS ('prog args; prog args').
    MEMORY: QEMU's -m (hackbench's 400 processes need more than 128M on Linux).
    SMP: the number of CPUs."""
    kernel, knobs, features, preset_env = preset_config(preset)
    fetch()
    env = dict(preset_env, **(env or {}))
    env.setdefault("PRESET", preset)
    with tempfile.TemporaryDirectory(prefix="linux-peer-") as tmp:
        path = os.path.join(tmp, "initrd.gz")
        with open(path, "wb") as f:
            f.write(initramfs(knobs, features, run_cmds, env, user_dir, module))
        try:
            p = subprocess.run(qemu_argv(kernel, path, icount, memory, smp), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=timeout)
            out, rc, to = p.stdout, p.returncode, False
        except subprocess.TimeoutExpired as e:
            out, rc, to = e.stdout or b"", -1, True
    return PeerRun(preset, out.decode("utf-8", "replace"), rc, to)
