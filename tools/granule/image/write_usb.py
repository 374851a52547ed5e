"""tools/write-usb - write build/granule-usb.img to a USB stick, carefully.

  tools/write-usb [--image IMG] [--yes] [--dry-run] DEVICE      e.g. /dev/sdb

Every check must pass before a byte is written; each refusal names the
reason and exits with status 2:
  1. DEVICE is a block device (not a file, not a character device);
  2. it is a whole disk, not a partition (/dev/sdb, not /dev/sdb1);
  3. it is not a virtual disk: loop, ram, zram, device-mapper, md, nbd;
  4. it does not hold the running system: not the disk of /, /boot,
     /boot/efi or /usr, nor anything stacked on it (holders: LVM, RAID);
  5. neither it nor any of its partitions is mounted or used as swap;
  6. it is removable (sysfs "removable" = 1) or attached through USB;
  7. the image fits.
Then it shows the model and size and asks you to type the device name
(unless --yes), writes with O_EXCL (the kernel refuses if anything opened
the disk meanwhile), syncs, drops the cached pages and reads the image back
from the device, comparing SHA-256 digests.  --dry-run stops after the
checks.  Other systems: see docs/HARDWARE.md (dd).
"""
import argparse
import hashlib
import os
import stat
import sys

from ..paths import ROOT
CHUNK = 4 << 20
VIRTUAL = ("loop", "ram", "zram", "dm-", "md", "nbd")


class Refuse(Exception):
    pass


def sysfs(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def disk_of(dev_t):
    """Name of the whole disk holding block device number DEV_T (or None)."""
    link = f"/sys/dev/block/{os.major(dev_t)}:{os.minor(dev_t)}"
    if not os.path.exists(link):
        return None
    real = os.path.realpath(link)
    if os.path.exists(os.path.join(real, "partition")):
        real = os.path.dirname(real)
    return os.path.basename(real)


def system_disks():
    """Disks holding /, /boot, /boot/efi, /usr (by their backing devices),
    following device-mapper/md slaves down to the physical disks."""
    disks = set()
    todo = []
    for mnt in ("/", "/boot", "/boot/efi", "/usr"):
        try:
            d = disk_of(os.stat(mnt).st_dev)
        except OSError:
            continue
        if d:
            todo.append(d)
    while todo:
        d = todo.pop()
        if d in disks:
            continue
        disks.add(d)
        todo += os.listdir(f"/sys/block/{d}/slaves") if os.path.isdir(f"/sys/block/{d}/slaves") else []
    return disks


def mounted_devices():
    """major:minor of every mounted filesystem and swap device."""
    used = set()
    for line in open("/proc/self/mountinfo"):
        used.add(line.split()[2])
    for line in open("/proc/swaps").readlines()[1:]:
        try:
            used.add("%d:%d" % (os.major(os.stat(line.split()[0]).st_rdev),
                                os.minor(os.stat(line.split()[0]).st_rdev)))
        except OSError:
            pass
    return used


def check(device, image_size):
    """All safety checks; returns (name, model, size in bytes) or raises Refuse."""
    try:
        st = os.stat(device)
    except OSError as e:
        raise Refuse(f"{device}: {e.strerror}")
    if not stat.S_ISBLK(st.st_mode):
        kind = "a regular file" if stat.S_ISREG(st.st_mode) else \
               "a character device" if stat.S_ISCHR(st.st_mode) else "not a block device"
        raise Refuse(f"{device} is {kind}, not a block device")
    link = f"/sys/dev/block/{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"
    real = os.path.realpath(link)
    name = os.path.basename(real)
    if os.path.exists(os.path.join(real, "partition")):
        raise Refuse(f"{device} is a partition of /dev/{os.path.basename(os.path.dirname(real))}; "
                     "give the whole disk")
    if name.startswith(VIRTUAL):
        raise Refuse(f"{device} ({name}) is a virtual disk, not a USB stick")
    if name in system_disks():
        raise Refuse(f"{device} holds the running system")
    parts = [p for p in os.listdir(real) if p.startswith(name)]
    for p in [name] + parts:
        holders = os.path.join(real if p == name else os.path.join(real, p), "holders")
        if os.path.isdir(holders) and os.listdir(holders):
            raise Refuse(f"/dev/{p} is in use by {', '.join(os.listdir(holders))} (LVM/RAID/crypt)")
    used = mounted_devices()
    for p in [name] + parts:
        mm = sysfs(f"/sys/class/block/{p}/dev")
        if mm in used:
            raise Refuse(f"/dev/{p} is mounted or used as swap; unmount it first")
    removable = sysfs(os.path.join(real, "removable")) == "1"
    usb = "/usb" in os.path.realpath(os.path.join(real, "device")) if os.path.exists(
        os.path.join(real, "device")) else False
    if not (removable or usb):
        raise Refuse(f"{device} is neither removable nor attached by USB")
    size = int(sysfs(os.path.join(real, "size"), "0")) * 512
    if size < image_size:
        raise Refuse(f"{device} has {size} bytes, the image needs {image_size}")
    model = " ".join(filter(None, (sysfs(os.path.join(real, "device", "vendor")),
                                   sysfs(os.path.join(real, "device", "model"))))) or "unknown model"
    return name, model, size


def sha256_of(path, length):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        left = length
        while left:
            b = f.read(min(CHUNK, left))
            if not b:
                break
            h.update(b)
            left -= len(b)
    return h.hexdigest(), length - left


def write(image, device, size):
    fd = os.open(device, os.O_WRONLY | os.O_EXCL)
    try:
        with open(image, "rb") as src:
            done = 0
            while True:
                b = src.read(CHUNK)
                if not b:
                    break
                os.write(fd, b)
                done += len(b)
                print(f"\rwrite-usb: {done >> 20} / {size >> 20} MiB", end="", flush=True)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("device")
    ap.add_argument("--image", default=os.path.join(ROOT, "build", "granule-usb.img"))
    ap.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    ap.add_argument("--dry-run", action="store_true", help="run the checks, write nothing")
    a = ap.parse_args()

    if not os.path.isfile(a.image):
        print(f"write-usb: no image {a.image} (run 'make usb')", file=sys.stderr)
        return 2
    isize = os.path.getsize(a.image)
    try:
        name, model, size = check(a.device, isize)
    except Refuse as e:
        print(f"write-usb: refusing: {e}", file=sys.stderr)
        return 2
    print(f"write-usb: {a.device}: {model}, {size / 1e9:.1f} GB ({size} bytes)")
    print(f"write-usb: image {a.image} ({isize >> 20} MiB); everything on {a.device} will be lost")
    if a.dry_run:
        print("write-usb: dry run: all checks passed, nothing written")
        return 0
    if not a.yes:
        if not sys.stdin.isatty():
            print("write-usb: refusing: no terminal to confirm on (use --yes)", file=sys.stderr)
            return 2
        if input(f"Type {name} to overwrite it: ").strip() != name:
            print("write-usb: not confirmed; nothing written", file=sys.stderr)
            return 2
    try:
        write(a.image, a.device, isize)
    except OSError as e:
        print(f"write-usb: write failed: {e}", file=sys.stderr)
        return 1
    want, _ = sha256_of(a.image, isize)
    got, n = sha256_of(a.device, isize)
    if n != isize or got != want:
        print(f"write-usb: VERIFY FAILED: read back {n} bytes, sha256 {got} != {want}", file=sys.stderr)
        return 1
    print(f"write-usb: verified {isize} bytes (sha256 {want[:16]}...); you can remove {a.device}")
    return 0
