"""Shared fixtures and the grader for the QEMU system tests.

Every boot goes through `boot()` (tools/granule/qemu.py) under
-icount shift=0,sleep=off, so the serial output is a pure function of the
image and the command line.  `check_clean()` is the grader every test uses
(after Pintos' common_checks): exactly one boot banner (a second one means a
triple-fault reboot), no timeout, no "Kernel panic" or "BUG:" unless the test
expects one, and the expected power-off status.
"""
import os
import struct
import sys

import pytest

# tools/ on the path, here once for every test module: they import the tools'
# package as granule.JOB (tools/granule/__init__.py has the map).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from granule import qemu as gq  # noqa: E402

BANNER_RE = r"^Granule \S+ \(i686\) booting$"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Keep a module's fixture to one worker: every test that uses a
    module-scoped fixture of its own module is marked xdist_group(its module),
    so that under `-n 2 --dist loadgroup` (tools/run-tests) they run one after
    the other on one worker and the fixture's boots run once.  pytest-xdist's
    plain load mode hands tests out one or two at a time to whichever worker
    is free, so both workers met most modules and each booted the module's
    fixtures (test_rtapp's five workload boots twice: 40 worker-seconds).
    Under loadgroup the groups go first: the long units start early and the
    single tests, handed out one at a time, even out the two workers' ends.
    tryfirst: xdist's own hook reads the mark."""
    grouped = set()
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info else ()
        if any(d[-1].scope == "module" and d[-1].func.__module__ == item.module.__name__
               for d in defs if d):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
            grouped.add(item.nodeid)
    if getattr(config.option, "loadgroup", False):
        items.sort(key=lambda item: item.nodeid not in grouped)


def boot(cmdline="", **kw):
    kw.setdefault("timeout", 120)
    return gq.run(cmdline, **kw)


def boot_cached(cmdline="", **kw):
    """boot(), its serial output kept in build/boot-cache/ under the kernel's hash, the
    command line and the other arguments: two tests that read one boot (test_smp's
    two-CPU experiment and test_sim_validate_smp's comparison of it with the simulator)
    boot it once per image, under -icount the same bytes.  A timed-out boot is not kept."""
    import hashlib
    import json
    kw.setdefault("timeout", 120)
    key = dict(kw, cmdline=cmdline, kernel=hashlib.sha256(open(gq.KERNEL, "rb").read()).hexdigest())
    key.pop("timeout")
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:24]
    path = os.path.join(gq.BUILD, "boot-cache", name + ".json")
    if os.path.exists(path):
        with open(path) as f:
            return gq.Run(**json.load(f))
    r = boot(cmdline, **kw)
    if not r.timed_out:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "w") as f:
            json.dump(dict(cmdline=r.cmdline, returncode=r.returncode, output=r.output), f)
        os.replace(path + ".tmp", path)
    return r


def check_clean(run, status=0, panic=False, bug=False, warning=False):
    assert not run.timed_out, "timeout:\n" + run.output[-2000:]
    banners = [l for l in run.lines if l.startswith("Granule ") and l.endswith("booting")]
    assert len(banners) == 1, f"{len(banners)} boot banners (reboot?):\n" + run.output[-2000:]
    if not panic:
        assert "Kernel panic" not in run.output, run.output[-3000:]
    if not bug:
        assert not any(l.startswith("BUG:") for l in run.lines), run.output[-3000:]
    if not warning:  # WARN_ON, or smp.c's cross call with interrupts off
        assert not any(l.startswith("WARNING:") for l in run.lines), run.output[-3000:]
    assert run.status == status, f"power-off status {run.status}, expected {status}:\n" + run.output[-2000:]


def usertests_ok(run, names):
    """A boot of `usertests NAMES`: clean, each test OK in order, and the
    free-frame count equal before and after (usertests.c's closing check)."""
    check_clean(run, status=0)
    ran = [l for l in run.lines if l.startswith("test ")]
    assert ran == [f"test {n}: OK" for n in names], run.output[-3000:]
    assert run.find(r"^usertests: free frames \d+ before and after$"), run.output[-2000:]


def boot_usertests(names, cmdline="", timeout=90):
    """Boot CMDLINE running `usertests NAMES`, grade it with usertests_ok()
    and return the run (for the caller's further checks)."""
    run = boot(f'{cmdline} run="usertests {" ".join(names)}"'.lstrip(), timeout=timeout)
    usertests_ok(run, names)
    return run


def elf_program_headers(data):
    """[(p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align)] of the
    ELF32 image DATA (bytes), in header order."""
    assert data[:4] == b"\x7fELF" and data[4] == 1, "not an ELF32 file"     # ELFCLASS32
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    return [struct.unpack_from("<8I", data, phoff + i * phentsize) for i in range(phnum)]
