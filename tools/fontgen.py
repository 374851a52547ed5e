#!/usr/bin/python3
"""tools/fontgen.py - Granule's own 8x16 console font, drawn here as 5x9 art.

The code is tools/granule/image/fontgen.py (docs/ARCHITECTURE.md, "tools/").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from granule.image import fontgen  # noqa: E402

sys.stdout.write(fontgen.c_source())
