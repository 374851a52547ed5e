"""tools/mkusb - build the USB stick image (build/granule-usb.img) and check it.

  tools/mkusb [--cmdline ARGS] [--append ARGS] [--timeout S] [--check-only] [OUT.img]

The image is tools/mkiso's GRUB image with `poweroff=0` appended to every
menu entry (on a real machine the results stay on the screen; --append
replaces that).  grub-mkrescue writes a hybrid image, and this tool verifies
each way of booting it before it says OK:

  BIOS from USB   sector 0 is an MBR (0x55AA) with GRUB's boot code, which
                  loads the BIOS GRUB core from the same image;
  UEFI from USB   a GPT (protective MBR partition 0xEE) whose EFI system
                  partition is a FAT image holding /EFI/BOOT/BOOTX64.EFI
                  (64-bit firmware) and /EFI/BOOT/BOOTIA32.EFI (32-bit
                  firmware, as on some early Intel Macs and tablets);
  CD (BIOS, UEFI) an El Torito catalog with a BIOS entry (no emulation) and a
                  UEFI entry pointing at the same FAT image;
  and /boot/granule.elf plus /boot/grub/grub.cfg with multiboot2 entries.

Then it boots the image in QEMU as a USB stick on an xHCI controller, once
by SeaBIOS and once by OVMF (UEFI, qemu-system-x86_64), each until the
kernel's "Boot complete", and says for each whether it booted (plain TCG,
no -icount: about 5 s and 30 s); --no-boot skips that.  QEMU and both
firmwares are the pinned ones (tools/fetch-qemu).  The QEMU commands are
printed, to boot it by hand (docs/HARDWARE.md).

Write it with tools/write-usb DEVICE, or dd (see docs/HARDWARE.md).
--check-only verifies (and boots) an existing image without building it.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

from .. import qemu as gq
from ..paths import ROOT
ESP_GUID = bytes.fromhex("28732ac11ff8d211ba4b00a0c93ec93b")  # C12A7328-F81F-11D2-BA4B-00A0C93EC93B


def fail(msg):
    print(f"mkusb: FAILED: {msg}", file=sys.stderr)
    sys.exit(1)


def gpt_esp(img):
    """(first byte, size in bytes) of the EFI system partition from the GPT."""
    with open(img, "rb") as f:
        f.seek(512)
        hdr = f.read(92)
        if hdr[:8] != b"EFI PART":
            fail("no GPT header at LBA 1")
        entries_lba, count, esize = struct.unpack_from("<QII", hdr, 72)
        f.seek(entries_lba * 512)
        table = f.read(count * esize)
    for i in range(count):
        e = table[i * esize:(i + 1) * esize]
        if e[:16] == ESP_GUID:
            first, last = struct.unpack_from("<QQ", e, 32)
            return first * 512, (last - first + 1) * 512
    fail("the GPT has no EFI system partition")


def check(img):
    report = []
    with open(img, "rb") as f:
        mbr = f.read(512)
    if mbr[510:512] != b"\x55\xaa":
        fail("sector 0 has no MBR signature 0x55AA")
    if not any(mbr[:440]):
        fail("the MBR has no boot code")
    parts = [struct.unpack_from("<B3xBxxxII", mbr, 446 + 16 * i) for i in range(4)]
    types = [p[1] for p in parts if p[1]]
    if 0xEE not in types and 0xEF not in types:
        fail(f"MBR partition types {types}: neither GPT-protective 0xEE nor EFI 0xEF")
    report.append("BIOS USB: MBR 0x55AA with boot code, partition types "
                  + ", ".join(f"0x{t:02x}" for t in types))

    off, size = gpt_esp(img)
    out = subprocess.run(["mdir", "-/", "-b", "-i", f"{img}@@{off}", "::/"],
                         capture_output=True, text=True)
    files = {l.strip().lower() for l in out.stdout.splitlines()}
    for need in ("::/efi/boot/bootx64.efi", "::/efi/boot/bootia32.efi"):
        if need not in files:
            fail(f"EFI system partition lacks {need[3:]} (mdir: {out.stderr.strip()})")
    report.append(f"UEFI USB: GPT EFI system partition at byte {off} ({size // 1024} KiB) "
                  "with EFI/BOOT/BOOTX64.EFI and EFI/BOOT/BOOTIA32.EFI")

    out = subprocess.run(["xorriso", "-indev", img, "-report_el_torito", "plain"],
                         capture_output=True, text=True)
    rows = re.findall(r"El Torito boot img :\s+\d+\s+(\S+)\s+y", out.stdout)
    if "BIOS" not in rows or "UEFI" not in rows:
        fail(f"El Torito boot entries {rows}, expected BIOS and UEFI")
    report.append("CD: El Torito entries " + " + ".join(rows))

    with tempfile.TemporaryDirectory(prefix="granule-usb-") as tmp:
        cfg = os.path.join(tmp, "grub.cfg")
        elf = os.path.join(tmp, "granule.elf")
        subprocess.run(["xorriso", "-indev", img, "-osirrox", "on",
                        "-extract", "/boot/grub/grub.cfg", cfg,
                        "-extract", "/boot/granule.elf", elf],
                       capture_output=True, check=False)
        if not os.path.exists(elf):
            fail("/boot/granule.elf missing")
        if not os.path.exists(cfg):
            fail("/boot/grub/grub.cfg missing")
        entries = re.findall(r"^\s*multiboot2 /boot/granule.elf.*$", open(cfg).read(), re.M)
        if not entries:
            fail("grub.cfg has no multiboot2 entry")
    report.append(f"GRUB: {len(entries)} menu entries, e.g. '{entries[0].strip()}'")
    return report


def boot_both_ways(img):
    """Boot IMG as a USB stick by BIOS and by UEFI; (ok, lines) of what happened."""
    ok, lines = True, []
    for firmware, label in (("bios", "BIOS (SeaBIOS)"), ("uefi", "UEFI (OVMF, x86_64)")):
        argv = gq.qemu_argv("usb-xhci", firmware=firmware, iso=img, icount=False, debug_exit=False)
        lines.append(f"{label}: {' '.join(argv)} -serial stdio")
        with tempfile.TemporaryDirectory(prefix="granule-usb-") as tmp:
            r = gq.run("", boot="usb-xhci", image=img, firmware=firmware, icount=False, timeout=240,
                       until=r"Boot complete", monitor_cmds=[], workdir=tmp)
        booted = r.has_line("Boot complete") and "Kernel panic" not in r.output
        said = [l for l in r.lines if l.strip()]    # QEMU's own complaint comes last
        ok &= booted
        lines.append(f"booted by {label} from USB (xHCI): "
                     + ("yes, to 'Boot complete'" if booted else
                        "NO" + (" (timed out)" if r.timed_out else "") + ": "
                        + (said[-1] if said else "no output")))
    return ok, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cmdline", default="", help="the default entry's kernel arguments")
    ap.add_argument("--append", default="poweroff=0", help="added to every entry (default: poweroff=0)")
    ap.add_argument("--timeout", default="5", help="GRUB menu timeout in seconds")
    ap.add_argument("--check-only", action="store_true", help="only verify OUT.img")
    ap.add_argument("--no-boot", action="store_true", help="do not boot it in QEMU")
    ap.add_argument("out", nargs="?", default=os.path.join(ROOT, "build", "granule-usb.img"))
    a = ap.parse_args()

    if not a.check_only:
        tmp = a.out + ".tmp"
        subprocess.run([os.path.join(ROOT, "tools", "mkiso"), "--cmdline", a.cmdline,
                        "--append", a.append, "--timeout", str(a.timeout), tmp], check=True)
        os.replace(tmp, a.out)
    for line in check(a.out):
        print("mkusb: " + line)
    size = os.path.getsize(a.out) // (1024 * 1024)
    if a.no_boot:
        print(f"mkusb: OK {a.out} ({size} MiB): built to boot by BIOS and UEFI (x86_64, ia32) "
              "from USB or CD; not booted (--no-boot)")
        return
    try:
        ok, lines = boot_both_ways(a.out)
    except gq.qemufetch.df.FetchError as e:
        fail(f"no QEMU to boot it with: {e}")
    for line in lines:
        print("mkusb: " + line)
    if not ok:
        fail(f"{a.out} did not boot both ways in QEMU (above)")
    print(f"mkusb: OK {a.out} ({size} MiB): booted in QEMU by BIOS and by UEFI from USB; "
          "the structure also holds for 32-bit UEFI and CD boots")
