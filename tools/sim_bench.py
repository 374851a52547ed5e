#!/usr/bin/python3
"""tools/sim_bench.py - how fast the simulator is (make bench; not a test).

The code is tools/granule/sim/speed.py (docs/ARCHITECTURE.md, "tools/").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from granule.sim import speed  # noqa: E402

speed.main()
