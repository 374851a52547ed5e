"""/proc/PID/maps (kernel/fs/procfs_maps.c) against what busybox's own program
headers say 2.6.35 would map, and docs/SHELL.md's listing against the boot.

`cat /proc/self/maps` is busybox (the initrd's /bin/busybox is the static i386
build/busybox/busybox): its lines for /bin/busybox must be its PT_LOADs as
load_elf_binary maps them (the page under vaddr to the page over vaddr + filesz,
the file's page offset, r/w/x from p_flags), with the PT_GNU_RELRO pages made
read-only by the C library's start-up mprotect; then its bss and heap, one
[heap] line from the bss's page to brk; last the [stack], ending at 0xc0000000.
usertests maps_format, maps_lines and maps_many check the format, the other
kinds of line and a large file (user/tests/ut_maps.c).
"""
import os
import re

import pytest

from conftest import boot, check_clean, elf_program_headers

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUSYBOX = os.path.join(ROOT, "build", "busybox", "busybox")
PAGE = 4096
PT_LOAD, PT_GNU_RELRO = 1, 0x6474e552
LINE = re.compile(r"([0-9a-f]{8})-([0-9a-f]{8}) ([r-][w-][x-]p) ([0-9a-f]{8}) 00:([0-9a-f]{2}) (\d+) ?\s*(.*)$")

pytestmark = pytest.mark.skipif(not os.path.exists(BUSYBOX),
                                reason="no build/busybox (make deps fetches it)")


def up(x):
    return -(-x // PAGE) * PAGE


def expected_segments():
    """[(start, end, perms, offset)] of busybox's file-backed lines."""
    with open(BUSYBOX, "rb") as f:
        elf = f.read()
    loads, relro = [], None
    for p_type, offset, vaddr, _, filesz, memsz, flags, _ in elf_program_headers(elf):
        perms = ("r" if flags & 4 else "-") + ("w" if flags & 2 else "-") + ("x" if flags & 1 else "-") + "p"
        if p_type == PT_LOAD and filesz:
            loads.append([vaddr & ~(PAGE - 1), up(vaddr + filesz), perms, offset & ~(PAGE - 1)])
        elif p_type == PT_GNU_RELRO:
            relro = (vaddr & ~(PAGE - 1), (vaddr + memsz) & ~(PAGE - 1))
    out = []
    for start, end, perms, off in loads:
        if relro and start <= relro[0] < end and perms[1] == "w":
            cut = relro[1]
            if relro[0] > start:
                out.append((start, relro[0], perms, off))
            out.append((relro[0], cut, "r--p", off + relro[0] - start))
            if cut < end:
                out.append((cut, end, perms, off + cut - start))
        else:
            out.append((start, end, perms, off))
    return out


@pytest.fixture(scope="module")
def maps():
    r = boot('run="cat /proc/self/maps"')
    check_clean(r)
    lines = [l for l in r.lines if LINE.match(l)]
    assert lines, r.output[-2000:]
    return lines


def test_busybox_lines_are_its_program_headers(maps):
    got = [(int(m[1], 16), int(m[2], 16), m[3], int(m[4], 16))
           for m in map(LINE.match, maps) if m[7] == "/bin/busybox"]
    assert got == expected_segments(), (got, expected_segments())


def test_bss_and_heap_are_one_line_then_the_stack(maps):
    parsed = [LINE.match(l) for l in maps]
    last_file = max(int(m[2], 16) for m in parsed if m[7] == "/bin/busybox")
    heap = [m for m in parsed if m[7] == "[heap]"]
    assert len(heap) == 1 and int(heap[0][1], 16) == last_file and heap[0][3] == "rw-p", maps
    assert parsed[-1][7] == "[stack]" and parsed[-1][2] == "c0000000", maps
    assert [m[7] for m in parsed].count("[vdso]") == 1, maps


def test_shell_md_shows_this_boots_file(maps):
    doc = open(os.path.join(ROOT, "docs", "SHELL.md")).read()
    block = re.search(r"order, in 2\.6\.35's `show_map_vma\(\)` format.*?```\n(.*?)```", doc, re.S)
    assert block, "SHELL.md's maps listing is gone"
    assert block.group(1).splitlines() == maps
