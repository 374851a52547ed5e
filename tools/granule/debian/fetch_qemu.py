"""tools/fetch-qemu - the pinned QEMU (Debian's 10.0 from bookworm-backports), unpacked in the cache.

  tools/fetch-qemu               fetch and unpack it when missing; print the directory of its
                                 qemu-system-i386 and qemu-system-x86_64 (to run QEMU by hand:
                                 PATH=$(tools/fetch-qemu):$PATH qemu-system-i386 ...)
  tools/fetch-qemu --version     what that qemu-system-i386 says it is (and so that it starts)
  tools/fetch-qemu --libraries   the bookworm packages it needs besides the pinned ones (its
                                 shared libraries), one a line: tools/deps installs them
  tools/fetch-qemu --ovmf        the pinned OVMF image (UEFI firmware for -bios)
  tools/fetch-qemu --lock        pin bookworm-backports' current QEMU, SeaBIOS (and bookworm's
                                 iPXE ROMs and OVMF) in tools/debs.lock

Nothing is installed: the .debs are cached in $GRANULE_CACHE/debs (default
~/.cache/granule) and unpacked into $GRANULE_CACHE/qemu (tools/granule/debian/qemu.py says how
QEMU then finds its firmware and modules).
"""
import os
import sys

from . import fetch as df
from . import qemu as qf


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    try:
        if not argv:
            print(os.path.dirname(qf.binary("qemu-system-i386")))
        elif argv == ["--version"]:
            print(qf.version())
        elif argv == ["--libraries"]:
            print("\n".join(qf.libraries()))
        elif argv == ["--ovmf"]:
            print(qf.ovmf())
        elif argv == ["--lock"]:
            for role, spec, version, sha in df.pin(qf.PROG, qf.wants(), qf.SUITES):
                print(f"{role}: {spec} {version} {sha}")
        else:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        return 0
    except df.FetchError as e:
        print(f"{qf.PROG}: error: {e}", file=sys.stderr)
        return 1
