#!/usr/bin/python3
"""tools/bench_rtapp.py - rt-app's workloads/ on Granule's presets and Debian's Linux: wu_lat and slack.

The code is tools/granule/bench/rtapp.py (docs/ARCHITECTURE.md, "tools/").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from granule.bench import rtapp  # noqa: E402

sys.exit(rtapp.main())
