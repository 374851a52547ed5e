"""tools/granule/lab/make.py - `make` in a tree, one at a time.

Two grades of one tree (or a test suite's workers, several labs at once) run
make in the same build/ together: both see a stale object, both recompile it,
and one links what the other is still writing ("undefined reference" from a
half-written .o).  An exclusive lock on ROOT/build/.lab-make.lock (flock, so a
killed make lets it go) puts them one after the other; the second finds the
first's objects current and has little left to do.
Imports nothing of granule's.
"""
import fcntl
import os
import subprocess


def make_in(root, targets, jobs=2):
    """`make -s [-jJOBS] -C ROOT TARGETS` under the tree's lock; the CompletedProcess."""
    build = os.path.join(root, "build")
    os.makedirs(build, exist_ok=True)
    with open(os.path.join(build, ".lab-make.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return subprocess.run(["make", "-s"] + (["-j%d" % jobs] if jobs > 1 else []) + ["-C", root]
                              + list(targets), capture_output=True, text=True)
