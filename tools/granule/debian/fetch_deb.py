"""tools/fetch-deb - the Debian packages Granule needs, pinned and cached.

  tools/fetch-deb ROLE...            have each ROLE of tools/debs.lock in the cache (fetched
                                     only when missing or corrupt); print the .deb paths
  tools/fetch-deb --list             the pins, and which are cached
  tools/fetch-deb --lock ROLE [VERSION]
                                     record the archive's VERSION (default: its candidate) of
                                     ROLE's package and that version's SHA-256 in tools/debs.lock

The cache is $GRANULE_CACHE (default ~/.cache/granule)/debs; see tools/granule/debian/fetch.py for
the rules (a mirror mid-sync is a warning; a download is checked against the index).
"""
import sys

from . import fetch as df

PROG = "tools/fetch-deb"
SUITES = ("bookworm", "bookworm-backports")


def lock(role, version=None):
    for pin in df.pin(PROG, [df.want(role)], SUITES, {role: version}):
        print(f"{pin[0]}: {pin[1]} {pin[2]} {pin[3]}")


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    try:
        if argv[0] == "--list":
            for role in df.read_lock_roles():
                w = df.want(role)
                have = df.cached(w.spec, w.version, w.sha) or df.adopt_legacy(w)
                state = "cached" if have else "not cached"
                print(f"{role:14} {w.spec:40} {w.version:24} {state}")
            return 0
        if argv[0] == "--lock" and len(argv) in (2, 3):
            lock(argv[1], argv[2] if len(argv) == 3 else None)
            return 0
        paths = df.get([df.want(r) for r in argv], PROG, SUITES)
        for r in argv:
            print(paths[r])
        return 0
    except df.FetchError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
