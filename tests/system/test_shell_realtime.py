"""make shell runs in real time: a busy guest's `sleep 1` takes about one wall second.

Under -icount shift=0,sleep=off every guest instruction is one virtual ns, so
a second of a CPU hog costs as many wall seconds as QEMU needs to emulate a
thousand million instructions; an interactive shell (`make shell`, no run=)
boots with plain TCG instead (tools/run-qemu --no-icount), as its Makefile
line says.  The check drives the shell over the serial line, as a person
would: start a hog, sleep a second, kill it.
"""
import os
import select
import subprocess
import time

import pytest

from test_busybox import have_busybox

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def read_until(p, want, timeout, buf):
    end = time.time() + timeout
    while time.time() < end and want not in buf[0]:
        if select.select([p.stdout], [], [], 0.5)[0]:
            data = os.read(p.stdout.fileno(), 4096)
            if not data:
                break
            buf[0] += data
    return want in buf[0]


@pytest.mark.skipif(not have_busybox(), reason="image built without busybox")
def test_make_shell_is_real_time():
    dry = subprocess.run(["make", "-n", "shell"], cwd=ROOT, capture_output=True, text=True).stdout
    line = [l for l in dry.splitlines() if l.startswith("tools/run-qemu")][-1]
    assert "--no-icount" in line and "--interactive" in line, line
    argv = line.replace("'", "").split()
    p = subprocess.Popen([os.path.join(ROOT, argv[0])] + argv[1:], cwd=ROOT, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    buf = [b""]
    try:
        assert read_until(p, b"granule# ", 90, buf), buf[0][-1500:]
        t0 = time.time()
        p.stdin.write(b"yes > /dev/null & sleep 1; kill %1; echo marker-$((6*7))\n")
        p.stdin.flush()
        assert read_until(p, b"marker-42", 60, buf), buf[0][-1500:]
        took = time.time() - t0
        assert 0.9 < took < 10, f"sleep 1 beside a hog took {took:.1f} s of wall time"
        p.stdin.write(b"poweroff -f\n")
        p.stdin.flush()
        p.wait(60)
    finally:
        if p.poll() is None:
            p.kill()
