"""tools/granule/paths.py - where things are: the repository, tools/, build/ and the
simulator's engine.  The bottom of the package: it imports none of it."""
import os

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TOOLS)
BUILD = os.path.join(ROOT, "build")
ENGINE = os.path.join(TOOLS, "granule", "sim", "engine")    # build/sim's C sources and data files
