#!/usr/bin/python3
"""tools/bench_smp.py - the experiment on 2 and 4 CPUs, Granule beside Linux 6.1 and 6.12.

The code is tools/granule/bench/smp.py (docs/ARCHITECTURE.md, "tools/").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from granule.bench import smp  # noqa: E402

sys.exit(smp.main())
