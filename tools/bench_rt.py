#!/usr/bin/python3
"""tools/bench_rt.py - Debian's cyclictest and hackbench beside the experiment, on Granule and Linux.

The code is tools/granule/bench/rt.py (docs/ARCHITECTURE.md, "tools/").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from granule.bench import rt  # noqa: E402

sys.exit(rt.main())
