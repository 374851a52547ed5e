"""The one QEMU behind every figure (tools/granule/debian/qemu.py, tools/fetch-qemu).

- Every boot runs the pinned QEMU, unpacked in the cache, never a qemu-system-* the
  machine has installed: the command's program is the cache's wrapper, and the monitor's
  `info version` names the version tools/debs.lock pins.
- Its firmware is the pinned SeaBIOS (the BIOS's banner on QEMU's debug console, port
  0x402, names the pinned version) and UEFI boots take the pinned OVMF.
- Nothing was installed: dpkg knows no package at the pinned QEMU's version.
- QEMU's own messages say nothing: no module of another build is tried (a run's
  output is the guest's serial text alone), and that text ends where the kernel
  wrote its status to isa-debug-exit, the same every time.
"""
import os
import subprocess

from conftest import boot, check_clean

from granule.debian import fetch as df
from granule import qemu as gq
from granule.debian import qemu as qemufetch

QEMU = df.want("qemu-x86")
SEABIOS = df.want("seabios")


def test_every_boot_runs_the_pinned_qemu_from_the_cache():
    for firmware, name in (("bios", "qemu-system-i386"), ("uefi", "qemu-system-x86_64")):
        argv = gq.qemu_argv("iso", firmware=firmware)
        assert argv[0] == os.path.join(qemufetch.root(), "bin", name), argv
    uefi = gq.qemu_argv("iso", firmware="uefi")
    assert uefi[uefi.index("-bios") + 1] == qemufetch.ovmf()
    with open(os.path.join(qemufetch.root(), "SOURCE"), encoding="utf-8") as f:
        source = f.read().splitlines()
    assert source[0] == f"{QEMU.spec} {QEMU.version} sha256:{QEMU.sha}", source
    assert len(source) == len(qemufetch.ROLES)


def test_the_monitor_names_the_pinned_version():
    with gq.Console("run= poweroff=0") as c:
        c.expect("system halted (poweroff=0)")
        reply = c.monitor("info version")
    upstream = QEMU.version.split(":")[-1].split("+")[0]       # 1:10.0.2+ds-... -> 10.0.2
    said = [l.strip() for l in reply.splitlines()]              # "10.0.2Debian 1:10.0.2+ds-..."
    assert any(l.startswith(upstream) and l.endswith(f"Debian {QEMU.version}") for l in said), said


def test_the_bios_is_the_pinned_seabios(tmp_path):
    log = tmp_path / "seabios.log"
    r = boot("", extra=["-chardev", f"file,id=dbg,path={log}",
                        "-device", "isa-debugcon,iobase=0x402,chardev=dbg"])
    check_clean(r)
    banner = [l for l in log.read_text(errors="replace").splitlines() if l.startswith("SeaBIOS (version")]
    assert banner and SEABIOS.version in banner[0], banner
    assert not [l for l in r.lines if "qemu-system" in l], r.output[-500:]   # QEMU said nothing


def test_nothing_was_installed():
    p = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\n", "qemu-system-*"],
                       capture_output=True, text=True)
    assert QEMU.version not in p.stdout, p.stdout


def test_a_bad_cpu_count_or_option_gets_one_line_and_boots_nothing():
    tools = os.path.join(os.path.dirname(__file__), "..", "..", "tools")
    for argv, said in (([f"{tools}/run-qemu", "--smp", "0", "--", "run="],
                        "run-qemu: --smp 0: invalid (expected 1..255 CPUs)"),
                       ([f"{tools}/linux-peer", "run", "commit-0bf377bbb0be", "--smp", "abc"],
                        "linux-peer: --smp abc: invalid (expected 1..255 CPUs)"),
                       ([f"{tools}/fetch-qemu", "--bogus"], "tools/fetch-qemu - the pinned QEMU")):
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert p.returncode != 0 and said in p.stderr and not p.stdout, (argv, p.stdout, p.stderr)


def test_the_serial_text_ends_where_the_kernel_wrote_its_status():
    """QEMU 10's isa-debug-exit ends the machine only once its main loop takes the
    request; the guest runs on meanwhile (on to ACPI S5, printing) for as long as host
    timing gives it.  run() keeps the text up to "Powering off (status N)": the same
    bytes every time (tsc_calibration=pit leaves ACPI's tables to be read after it)."""
    text = b"x\n[    1.000000] Powering off (status 3)\r\n[    1.000100] ACPI: RSDP at ...\n"
    assert gq.after_exit(text, (3 << 1) | 1) == text[:text.index(b"[    1.000100]")]
    assert gq.after_exit(text, 0) == text            # left by ACPI S5: nothing to cut
    assert gq.after_exit(b"no status line\n", 7) == b"no status line\n"
    runs = [boot("tsc_calibration=pit") for _ in range(3)]
    for r in runs:
        check_clean(r)
        assert r.output == runs[0].output and r.lines[-2:] == ["Powering off (status 0)", ""], r.lines[-3:]
