"""Real hardware: the USB image, the screen consoles, TSC calibration,
ACPI power off.

The USB image (tools/mkusb, as `make usb` builds it, with a short experiment
as the default entry) boots as a usb-storage stick on EHCI and on xHCI under
SeaBIOS, on xHCI under OVMF, and as a CD.  Those boots keep poweroff=0 (the
real-hardware default of the image): the guest halts with the summary on the
screen, the harness takes a screendump through the QEMU monitor and quits.
They run without -icount (firmware and GRUB under icount take ~1 min per
USB boot) and assert text only, never timings.  TSC calibration runs on the
fast, deterministic -kernel path under -icount (TSC = 1 GHz exactly).
ACPI power off boots without isa-debug-exit, so only the FADT's PM1a
control port and the DSDT's _S5 values can make QEMU exit.
"""
import os
import re
import subprocess

import pytest

from conftest import BANNER_RE, boot, check_clean

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
TOOLS = os.path.join(ROOT, "tools")
from granule.image import fontgen
from granule import qemu as gq

EXPERIMENT = "run=experiment load=none duration=1"
HALTED = r"init finished with status (\d+); system halted \(poweroff=0\)"
FG, BG = (0xAA, 0xAA, 0xAA), (0, 0, 0)


@pytest.fixture(scope="module")
def usb_image(tmp_path_factory):
    img = str(tmp_path_factory.mktemp("usb") / "granule-usb.img")
    subprocess.run([os.path.join(TOOLS, "mkusb"), "--cmdline", EXPERIMENT, "--timeout", "0", "--no-boot",
                    img], check=True, stdout=subprocess.DEVNULL)
    return img


def read_ppm(path):
    """(width, height, rows of (r, g, b) tuples) of a binary P6 screendump."""
    data = open(path, "rb").read()
    magic, w, h, maxval, pixels = data.split(maxsplit=4)
    assert magic == b"P6" and maxval == b"255"
    w, h = int(w), int(h)
    px = pixels[:w * h * 3]
    return w, h, [[tuple(px[(y * w + x) * 3:(y * w + x) * 3 + 3]) for x in range(w)] for y in range(h)]


def boot_halted(image, boot_kind, tmp_path, firmware="bios", cpu=None, cmds=(), machine="pc", smp=1):
    """Boot IMAGE until the poweroff=0 halt line, run monitor CMDS, quit."""
    r = gq.run("", boot=boot_kind, image=image, firmware=firmware, cpu=cpu, icount=False,
               timeout=180, until=HALTED, monitor_cmds=list(cmds), workdir=str(tmp_path),
               machine=machine, smp=smp)
    assert not r.timed_out, "timeout:\n" + r.output[-3000:]
    return r


def assert_experiment_ran(r):
    """Banner once, Boot complete, the experiment's RESULT, status 0 at the halt."""
    banners = [l for l in r.lines if re.match(BANNER_RE, l)]
    assert len(banners) == 1, r.output[-3000:]
    assert r.has_line("Boot complete"), r.output[-3000:]
    assert "Kernel panic" not in r.output
    results = [l for l in r.lines if l.startswith("RESULT {")]
    assert results and '"bench":"wakeup-latency"' in results[0], r.output[-3000:]
    m = r.find(HALTED)
    assert m and m.group(1) == "0", r.output[-2000:]
    assert r.find(r"^Boot loader: GRUB 2\.\S+ \(multiboot2\)$"), r.output[:3000]


def serial_tail(r, n):
    """The last N non-empty serial lines, timestamps kept (as the screen shows them)."""
    lines = [l for l in r.output.split("\n") if l.strip()]
    return lines[-n:]


# ---- the image -------------------------------------------------------------

def test_make_usb_as_typed_builds_checks_and_boots_both_ways():
    # Exactly the README's command, from the top of the tree: mkusb is handed
    # the relative build/granule-usb.img and QEMU runs in a scratch directory,
    # so a path not made absolute fails here ("Could not open ...").
    out = subprocess.run(["make", "usb"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "BIOS USB: MBR 0x55AA with boot code" in out.stdout
    assert "EFI/BOOT/BOOTX64.EFI and EFI/BOOT/BOOTIA32.EFI" in out.stdout
    assert "CD: El Torito entries BIOS + UEFI" in out.stdout
    # make usb boots what it built, both ways, and says so (with the QEMU commands).
    assert "mkusb: booted by BIOS (SeaBIOS) from USB (xHCI): yes, to 'Boot complete'" in out.stdout
    assert "mkusb: booted by UEFI (OVMF, x86_64) from USB (xHCI): yes, to 'Boot complete'" in out.stdout
    # The commands are the pinned QEMU's and firmware's (tools/fetch-qemu), to be run as printed.
    assert f"mkusb: UEFI (OVMF, x86_64): {gq.qemufetch.binary('qemu-system-x86_64')} " in out.stdout
    assert f" -bios {gq.qemufetch.ovmf()} " in out.stdout
    assert "mkusb: OK build/granule-usb.img" in out.stdout


def test_usb_image_is_hybrid_bios_uefi_cd(usb_image):
    out = subprocess.run([os.path.join(TOOLS, "mkusb"), "--check-only", "--no-boot", usb_image],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "BIOS USB: MBR 0x55AA with boot code" in out.stdout
    assert "EFI/BOOT/BOOTX64.EFI and EFI/BOOT/BOOTIA32.EFI" in out.stdout
    assert "CD: El Torito entries BIOS + UEFI" in out.stdout


def test_mkusb_check_rejects_a_plain_file(tmp_path):
    f = tmp_path / "junk.img"
    f.write_bytes(b"\0" * 1024 * 1024)
    out = subprocess.run([os.path.join(TOOLS, "mkusb"), "--check-only", str(f)],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "no MBR signature" in out.stderr


def test_grub_menu_has_an_entry_per_preset_and_text_mode_under_bios(usb_image, tmp_path):
    cfg = tmp_path / "grub.cfg"
    subprocess.run(["xorriso", "-indev", usb_image, "-osirrox", "on", "-extract",
                    "/boot/grub/grub.cfg", str(cfg)], capture_output=True, check=True)
    text = cfg.read_text()
    presets = [l.split("\t")[0] for l in open(os.path.join(TOOLS, "presets"))
               if l.strip() and not l.startswith("#")]
    assert presets
    for p in presets:
        assert f"multiboot2 /boot/granule.elf sched_preset={p} poweroff=0\n" in text, p
    assert f"multiboot2 /boot/granule.elf {EXPERIMENT} poweroff=0\n" in text
    # gfxpayload=text must follow the multiboot2 line (which sets gfxpayload itself)
    assert "multiboot2 /boot/granule.elf run=shell poweroff=0\n" in text    # the interactive shell, last
    entries = re.findall(r"menuentry [^{]*\{(.*?)\}", text, re.S)
    assert len(entries) == len(presets) + 2
    for e in entries:
        assert re.search(r"multiboot2 .*\n\s*if \[ \"\$grub_platform\" = pc \]; then set gfxpayload=text; fi\n\s*boot", e), e
    assert "terminal_output serial console" in text


def test_font_table_is_generated_from_fontgen():
    with open(os.path.join(ROOT, "arch", "x86", "font8x16.c")) as f:
        assert f.read() == fontgen.c_source()
    # glyphs really differ (a font of blanks would pass a pixel test on spaces)
    assert len({tuple(fontgen.glyph(c)) for c in range(0x21, 0x7f)}) == 0x7e - 0x21 + 1


# ---- booting the stick --------------------------------------------------------

def test_usb_ehci_seabios_draws_vga_text(usb_image, tmp_path):
    r = boot_halted(usb_image, "usb-ehci", tmp_path,
                    cmds=["screendump screen.ppm", "pmemsave 0xb8000 4000 vga.bin"])
    assert_experiment_ran(r)
    assert r.has_line("vga: 80x25 text console at 0xb8000"), r.output[-3000:]

    # Text memory: 25 rows of 80 (character, attribute 0x07) cells; the screen
    # ends with the same lines as the serial log, then the cursor's blank row.
    mem = (tmp_path / "vga.bin").read_bytes()
    assert set(mem[1::2]) == {0x07}
    rows = [bytes(mem[r * 160:(r + 1) * 160:2]).decode("cp437").rstrip() for r in range(25)]
    tail = serial_tail(r, 3)
    assert rows[24] == ""
    assert rows[21:24] == tail, (rows, tail)

    # The screendump is text mode (720x400: 9x16 cells) and shows exactly the
    # ink that text memory implies on the halt line: glyph cells have lit
    # pixels, blank cells none.
    w, h, px = read_ppm(tmp_path / "screen.ppm")
    assert (w, h) == (720, 400)
    line = rows[23]
    for c in range(80):
        cell = [px[y][x] for y in range(23 * 16, 24 * 16) for x in range(c * 9, c * 9 + 9)]
        lit = any(p != (0, 0, 0) for p in cell)
        ch = line[c] if c < len(line) else " "
        assert lit == (ch != " "), (c, ch)


def test_usb_xhci_seabios_pentium3(usb_image, tmp_path):
    r = boot_halted(usb_image, "usb-xhci", tmp_path, cpu="pentium3")
    assert_experiment_ran(r)
    assert r.find(r"^CPU: GenuineIntel family 6 model 7 "), r.output[:4000]


def test_cd_boot_coreduo(usb_image, tmp_path):
    r = boot_halted(usb_image, "iso", tmp_path, cpu="coreduo")
    assert_experiment_ran(r)
    assert r.find(r"^CPU: GenuineIntel family 6 model 14 "), r.output[:4000]


def test_uefi_usb_framebuffer_console_draws_the_font(usb_image, tmp_path):
    r = boot_halted(usb_image, "usb-xhci", tmp_path, firmware="uefi",
                    cmds=["screendump screen.ppm"])
    assert_experiment_ran(r)
    m = r.find(r"^fbcon: (\d+)x(\d+)x(\d+) framebuffer at 0x[0-9a-f]+, (\d+)x(\d+) text "
               r"\(8x16 font, scale (\d)\)$")
    assert m, r.output[-4000:]
    fw, fh, bpp, cols, rows, scale = map(int, m.groups())
    assert bpp in (32, 24, 16)
    w, h, px = read_ppm(tmp_path / "screen.ppm")
    assert (w, h) == (fw, fh)

    # The last three serial lines are the screen's rows rows-4..rows-2 (the
    # cursor sits on the blank last row); every pixel of every cell must be
    # the font's: foreground grey where the glyph has ink, black elsewhere.
    tail = serial_tail(r, 3)
    assert all(len(l) <= cols for l in tail)
    for i, text in enumerate(tail):
        row = rows - 4 + i
        for c in range(cols):
            ch = text[c] if c < len(text) else " "
            glyph = fontgen.pixels(ord(ch))
            for y in range(16 * scale):
                for x in range(8 * scale):
                    want = FG if glyph[y // scale][x // scale] else BG
                    got = px[row * 16 * scale + y][c * 8 * scale + x]
                    assert got == want, (row, c, ch, x, y, got)
    # ... and the last row is blank.
    y0 = (rows - 1) * 16 * scale
    assert all(px[y][x] == BG for y in range(y0, y0 + 16 * scale) for x in range(cols * 8 * scale))


def test_uefi_usb_q35_brings_up_four_cpus(usb_image, tmp_path):
    # A PC of today: q35 chipset, UEFI, four cores.  OVMF's MADT lists them;
    # every one is started by INIT-SIPI-SIPI and calls in, and the
    # experiment still runs on the boot CPU.
    r = boot_halted(usb_image, "usb-xhci", tmp_path, firmware="uefi", machine="q35", smp=4)
    assert_experiment_ran(r)
    lapics = [l for l in r.lines if re.match(r"^ACPI: LAPIC \(acpi_id\[0x[0-9a-f]{2}\] "
                                                 r"lapic_id\[0x0[0-3]\] enabled\)$", l)]
    assert len(lapics) == 4, r.output[:6000]
    assert r.has_line("Using ACPI (MADT) for SMP configuration information")
    assert r.has_line("SMP: Allowing 4 CPUs, 0 hotplug CPUs")
    for cpu in (1, 2, 3):
        assert r.has_line(f"smpboot: Booting Node 0 Processor {cpu} APIC 0x{cpu}"), r.output[:6000]
    assert r.has_line("Brought up 4 CPUs"), r.output[:6000]
    assert not r.find(r"^CPU\d: (Not responding\.|Stuck \?\?)$")


# ---- TSC calibration (-kernel, -icount: the TSC runs at exactly 1 GHz) ---------

def test_tsc_calibration_auto_uses_the_pm_timer_when_cpuid_lacks_leaf_15():
    r = boot("")
    check_clean(r)
    assert r.has_line("tsc: cpuid: CPUID leaf 0x15 absent (max leaf 0x4); trying pmtimer")
    assert r.find(r"^ACPI: RSDP at 0x000f[0-9a-f]{4} \(BIOS area, revision \d\), FADT revision \d, "
                  r"PM timer at port 0x608 \(24-bit\)$"), r.output
    assert r.has_line("tsc: calibrated by the ACPI PM timer (tsc_calibration=auto): 1000.000 MHz")
    assert r.has_line("  tsc_calibration = auto")


@pytest.mark.parametrize("knob,line,absent", [
    ("pmtimer", "tsc: calibrated by the ACPI PM timer (tsc_calibration=pmtimer): 1000.000 MHz", "tsc: cpuid:"),
    # ACPI's tables are read for the MADT either way; the PM timer is not used.
    ("pit", "tsc: calibrated by the PIT (tsc_calibration=pit): 1000.000 MHz", "calibrated by the ACPI PM"),
])
def test_tsc_calibration_knob_picks_the_source(knob, line, absent):
    r = boot(f"tsc_calibration={knob}")
    check_clean(r)
    assert r.has_line(line), r.output[:3000]
    assert absent not in r.output
    m = r.find(r"^timer: (\d+) ticks in (\d+) us \(HZ=1000\)$")
    assert m and 99900 <= int(m.group(2)) <= 100100, r.output


def test_tsc_calibration_cpuid_falls_back_when_leaf_15_is_empty():
    # An Intel CPU model with max leaf 0x16 whose leaf 0x15 is all zero (QEMU TCG).
    r = boot("tsc_calibration=cpuid", cpu="max,vendor=GenuineIntel,level=0x16")
    check_clean(r)
    assert r.has_line("tsc: cpuid: CPUID leaf 0x15 gives no frequency (eax=0 ebx=0 ecx=0); "
                      "trying pmtimer"), r.output[:3000]
    assert r.has_line("tsc: calibrated by the ACPI PM timer (tsc_calibration=cpuid): 1000.000 MHz")


def test_without_a_pit_the_tsc_still_calibrates_and_the_pit_probe_is_bounded():
    # -machine pit=off: no 8254 at all.  (What happens after the clock event
    # choice is apic.c/time.c's business; we stop at that line.)
    r = gq.run("", extra=["-machine", "pit=off"], timeout=60, until=r"clockevent: ")
    assert not r.timed_out, r.output
    assert r.has_line("tsc: calibrated by the ACPI PM timer (tsc_calibration=auto): 1000.000 MHz")
    r = gq.run("tsc_calibration=pit", extra=["-machine", "pit=off"], timeout=60,
               until=r"clocksource: ")
    assert not r.timed_out, r.output
    # Without the 8254, port 0x61's OUT2 reads high at once: the gate "ends"
    # after a few cycles, and the result is refused rather than believed.
    m = r.find(r"^tsc: pit: implausible result (\d+) kHz \(device missing\?\); no calibration source left$")
    assert m and int(m.group(1)) < 10000, r.output
    assert r.find(r"^clocksource: pit tick count"), r.output


# ---- ACPI S5 power off (no isa-debug-exit: only ACPI can end QEMU) ------------

S5_LINE = r"^ACPI: S5 via PM1a_CNT 0x([0-9a-f]+) SLP_TYP (\d)$"
SCI_LINE = r"^ACPI: SCI_EN set after writing 0x[0-9a-f]+ to SMI_CMD 0xb2$"


@pytest.mark.parametrize("boot_kind,firmware,machine,port,sci_enable", [
    # SeaBIOS leaves the chipset in legacy mode: the kernel sets SCI_EN first.
    ("kernel", "bios", "pc", 0x604, True),
    ("kernel", "bios", "q35", 0x604, True),
    # OVMF hands over in ACPI mode, and on pc puts the PM1 block at 0xb000.
    ("iso", "uefi", "pc", 0xb004, False),
    ("iso", "uefi", "q35", 0x604, False),
], ids=["seabios-pc", "seabios-q35", "ovmf-pc", "ovmf-q35"])
def test_acpi_s5_powers_off_without_isa_debug_exit(boot_kind, firmware, machine, port, sci_enable):
    uefi = firmware == "uefi"
    r = gq.run("", boot=boot_kind, firmware=firmware, machine=machine, debug_exit=False,
               icount=not uefi, timeout=180 if uefi else 60)
    assert not r.timed_out, "QEMU did not power off:\n" + r.output[-3000:]
    assert r.returncode == 0, r.output[-3000:]     # a guest shutdown, not a crash
    banners = [l for l in r.lines if re.match(BANNER_RE, l)]
    assert len(banners) == 1, r.output[-3000:]
    assert "Kernel panic" not in r.output
    assert r.has_line("Powering off (status 0)"), r.output[-3000:]
    m = r.find(S5_LINE)
    assert m, r.output[-3000:]
    # QEMU's DSDT: Name (_S5, Package (4) { Zero, Zero, Zero, Zero })
    assert (int(m.group(1), 16), int(m.group(2))) == (port, 0)
    assert bool(r.find(SCI_LINE)) == sci_enable, r.output[-3000:]
    assert "System halted." not in r.output


def test_without_acpi_tables_power_off_falls_back_and_halts():
    # -machine acpi=off: no RSDP and no PIIX4 PM device, so neither ACPI nor
    # the fixed QEMU ports power off; the kernel says so and halts.
    r = gq.run("", machine="pc,acpi=off", debug_exit=False, timeout=60,
               until=r"System halted\.")
    assert not r.timed_out, r.output[-3000:]
    assert r.has_line("ACPI: no RSDP found (multiboot2 tag, EBDA, 0xE0000-0xFFFFF)"), r.output
    assert r.has_line("Powering off (status 0)")
    assert not r.find(S5_LINE)
    assert [l for l in r.lines if l][-1] == "System halted.", r.output[-2000:]


# ---- tools/write-usb refuses everything that is not a removable whole disk ----

@pytest.mark.parametrize("target,reason", [
    ("FILE", "is a regular file, not a block device"),
    ("/dev/null", "is a character device, not a block device"),
    ("/nonexistent-granule-disk", "No such file or directory"),
    ("/dev/loop0", "is a virtual disk, not a USB stick"),
    ("ROOTDISK", "holds the running system"),
])
def test_write_usb_refuses(target, reason, usb_image, tmp_path):
    if target == "FILE":
        target = usb_image
    elif target == "ROOTDISK":
        st = os.stat("/")
        link = f"/sys/dev/block/{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
        if not os.path.exists(link):
            pytest.skip("/ is not on a block device here")
        real = os.path.realpath(link)
        if os.path.exists(os.path.join(real, "partition")):
            real = os.path.dirname(real)
        target = "/dev/" + os.path.basename(real)
    if not target.startswith("/nonexistent") and not os.path.exists(target):
        pytest.skip(f"{target} does not exist here")
    before = open(usb_image, "rb").read(4096)
    # --dry-run as well: even a wrong "yes" from the checks must not write.
    out = subprocess.run([os.path.join(TOOLS, "write-usb"), "--dry-run", "--image", usb_image, target],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "write-usb: refusing: " in out.stderr and reason in out.stderr, out.stderr
    assert open(usb_image, "rb").read(4096) == before
