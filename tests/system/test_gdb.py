"""The debugger (make gdb): symbols that do not change the image, and
tools/granule.gdb's helpers driven through QEMU's gdb stub.

1. Debug info must not change what is loaded: the PT_LOAD segments of
   build/granule-debug.elf (-g), of the booted build/granule.elf (the same
   link with --strip-debug) and of a fresh build with KDEBUG= (no -g at all)
   are byte for byte the same, so every -icount trajectory and RESULT line is
   what it was without debug info.
2. Debian's gdb in batch mode against the stub: break at scheduler_tick
   three times under load and check that gr-rq prints the running tasks, in
   rbtree order, as many as the runqueue counts.
"""
import os
import re
import shutil
import subprocess

import pytest

from conftest import elf_program_headers
from granule import qemu as gq

PT_LOAD = 1


def load_segments(path):
    """[(vaddr, paddr, memsz, flags, bytes)] of an ELF32 file's PT_LOAD headers."""
    with open(path, "rb") as f:
        data = f.read()
    segs = []
    for (p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags,
         _align) in elf_program_headers(data):
        if p_type == PT_LOAD:
            segs.append((p_vaddr, p_paddr, p_memsz, p_flags,
                         data[p_offset:p_offset + p_filesz]))
    assert segs, f"{path}: no PT_LOAD segment"
    return segs


def has_debug_info(path):
    out = subprocess.run(["readelf", "-S", "-W", path], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    return ".debug_info" in out


def test_debug_info_does_not_change_the_loaded_image(tmp_path):
    assert has_debug_info(gq.KERNEL_DEBUG), "build/granule-debug.elf has no DWARF"
    assert not has_debug_info(gq.KERNEL)
    assert load_segments(gq.KERNEL_DEBUG) == load_segments(gq.KERNEL)
    # A separate build without -g (kernel, user programs, initrd: everything
    # that ends up in the image), in its own directory.
    build = tmp_path / "nodebug"
    subprocess.run(["make", "-s", "-j2", f"BUILD={build}", "KDEBUG=", f"{build}/granule.elf"],
                   cwd=gq.ROOT, check=True, stdout=subprocess.DEVNULL)
    assert not has_debug_info(str(build / "granule-debug.elf"))
    assert load_segments(str(build / "granule.elf")) == load_segments(gq.KERNEL_DEBUG)


ROW = re.compile(r"^  (?:curr  |\[\s*\d+\]) +pid +(\d+) tgid +\d+ (\S+) +weight +\d+ "
                 r"vruntime +(\d+) key +([+-]\d+)")


@pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb missing: run tools/deps")
def test_gdb_breaks_at_scheduler_tick_and_prints_the_runqueue():
    # A gdb stop lets QEMU's icount clock skip to the next timer deadline
    # (deterministically), so stop rarely until the load runs: at the 20th
    # fork, then at three ticks.
    cmds = ["break do_fork", "ignore 1 19", "continue", "delete 1", "break scheduler_tick"]
    for _ in range(3):
        cmds += ["continue", "gr-current", "gr-rq", "gr-min-vruntime"]
    args = [a for c in cmds for a in ("-ex", c)]
    s = gq.gdb_session("run=experiment mode=thread load=kbuild:10 duration=1", args, timeout=300)
    out = s.gdb_output
    assert not s.timed_out and s.returncode == 0, out[-3000:]
    assert out.count("Breakpoint 2, scheduler_tick ()") == 3, out[-3000:]
    # Each stop: one gr-rq block whose rows are the running tasks.
    blocks = re.findall(r"^rq: nr_running (\d+) cfs\.nr_running (\d+) .*min_vruntime (\d+)\n"
                        r"((?:  .*\n)+)", out, re.M)
    assert len(blocks) == 3, out[-3000:]
    for nr, cfs_nr, min_vr, body in blocks:
        rows = [ROW.match(l) for l in body.splitlines()]
        assert all(rows), body
        assert int(cfs_nr) >= 2, body
        # curr plus every queued entity: as many rows as cfs_rq counts.
        assert len(rows) == int(cfs_nr), body
        names = {r.group(2) for r in rows}
        assert names & {"kbuild-load", "sh", "gcc", "cc1", "as", "experiment"}, body
        # Tree order: keys (vruntime - min_vruntime) never decrease.
        keys = [int(r.group(4)) for r in rows[1:]]
        assert keys == sorted(keys), body
        assert all(int(r.group(3)) - int(r.group(4)) == int(min_vr) for r in rows), body
    assert len(re.findall(r"^current: pid", out, re.M)) == 3
    assert len(re.findall(r"^min_vruntime \d+$", out, re.M)) == 3


def _values(out, name):
    """Every `$N = V` gdb printed for `print NAME` (gdb numbers them in order)."""
    return [int(v) for v in re.findall(r"^\$\d+ = (\d+)$", out, re.M)]


TICK_NS = 1000000           # HZ=1000, the default


@pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb missing: run tools/deps")
def test_gdb_stops_move_rq_clock_by_one_tick():
    # make gdb's clock (hold_clock: gdb_clock=1): three breaks at
    # scheduler_tick, and rq->clock advances by one tick each time (a stop
    # warps it by under 0.1 ms), not the firmware PIT's 27.5 ms.
    cmds = ["break do_fork", "ignore 1 19", "continue", "delete 1", "break scheduler_tick"]
    for _ in range(4):
        cmds += ["continue", "print $rq(0).clock"]
    args = [a for c in cmds for a in ("-ex", c)]
    s = gq.gdb_session("run=experiment mode=thread load=kbuild:10 duration=1", args, timeout=300,
                       hold_clock=True)
    assert not s.timed_out and s.returncode == 0, s.gdb_output[-3000:]
    assert "gdb_clock: PIT channel 0 guard every" in s.serial, s.serial[-2000:]
    clocks = _values(s.gdb_output, "$rq(0).clock")
    assert len(clocks) == 4, s.gdb_output[-3000:]
    steps = [b - a for a, b in zip(clocks, clocks[1:])]
    assert all(abs(d - TICK_NS) < TICK_NS // 10 for d in steps), steps


@pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb missing: run tools/deps")
def test_gdb_conditional_breakpoint_on_the_tick():
    # A condition on a per-tick function stops (gdb evaluates it) on every
    # tick; with the clock held the boot goes on and the condition is met.
    cmds = ["break scheduler_tick if $rq(0).nr_running >= 6", "continue",
            "print $rq(0).nr_running", "print $rq(0).clock", "continue", "print $rq(0).clock"]
    args = [a for c in cmds for a in ("-ex", c)]
    s = gq.gdb_session("run=experiment mode=thread load=kbuild:10 duration=1", args, timeout=300,
                       hold_clock=True)
    assert not s.timed_out and s.returncode == 0, s.gdb_output[-3000:]
    nr, c1, c2 = _values(s.gdb_output, "")
    assert nr >= 6
    assert abs(c2 - c1 - TICK_NS) < TICK_NS // 10, (c1, c2)
    assert "interrupt took" not in s.serial


def test_make_gdb_rejects_a_missing_command_file(tmp_path):
    p = subprocess.run([os.path.join(gq.ROOT, "tools", "run-qemu"), "--gdb", "--gdb-cmds",
                        str(tmp_path / "nosuch.gdb"), "--", "run=hello"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert p.returncode != 0
    err = p.stderr.decode()
    assert "GDB_CMDS=" in err and "nosuch.gdb" in err and "no such file" in err, err
    assert len(err.strip().splitlines()) == 1, err
