#!/usr/bin/python3
"""tools/bench_cost.py - the notification path's cost: cost-matched rows and the amplification sweep.

The code is tools/granule/bench/cost.py (docs/ARCHITECTURE.md, "tools/").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from granule.bench import cost  # noqa: E402

sys.exit(cost.main())
