"""docs/ARCHITECTURE.md's instruction counts stay true to the code.

The life of a context switch and the life of a SIGEV_THREAD expiry quote
tables measured by tools/measure-paths (an -icount instruction log from the
local APIC interrupt on); the tool measures again and fails if the tables
differ, e.g. after a change on the path (then: tools/measure-paths --update KIND).
"""
import os
import subprocess

import pytest

TOOL = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "measure-paths")


@pytest.mark.parametrize("kind", ["switch", "sigev"])
def test_architecture_tables_match_the_measured_path(kind):
    p = subprocess.run([TOOL, "--check", kind], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=1200)
    out = p.stdout.decode("utf-8", "replace")
    assert p.returncode == 0, out
    assert f"{kind} table matches" in out
