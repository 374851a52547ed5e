"""docs/start-rbtree.svg (docs/START.md's picture) is what tools/start-figure
draws from a fresh run: gdb stops a real boot in place_entity() for a waking
task, and the figure's numbers are that runqueue's."""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


@pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb missing: run tools/deps")
def test_start_figure_is_regenerated_byte_for_byte(tmp_path):
    out = tmp_path / "fig.svg"
    subprocess.run([os.path.join(ROOT, "tools", "start-figure"), "-o", str(out)], check=True, timeout=400)
    fresh = out.read_text()
    with open(os.path.join(ROOT, "docs", "start-rbtree.svg")) as f:
        assert f.read() == fresh
    # The placement rule holds on the captured numbers: max(old, floor).
    m = re.search(r"vruntime = max\(([+-][\d.]+) ms, ([+-][\d.]+) ms\) = ([+-][\d.]+) ms", fresh)
    assert m and float(m.group(3)) == max(float(m.group(1)), float(m.group(2))), m and m.group(0)
    assert "min_vruntime = " in fresh and "leftmost: next" in fresh
