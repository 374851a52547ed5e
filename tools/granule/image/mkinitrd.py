"""tools/mkinitrd - pack user programs into Granule's initrd (POSIX ustar).

Usage: tools/mkinitrd -o OUT.tar [NAME=]FILE... [NAME->TARGET...] [@ARGFILE...]

Each FILE becomes the regular-file member NAME (default: FILE's base name
without a trailing ".elf", so build/user/hello.elf -> "hello").  NAME may
have directories ("bin/hello"); every parent directory gets a directory
member ("bin/") of its own.  NAME->TARGET makes NAME a symbolic link to
TARGET (relative to NAME's directory, as on Linux: "bin/sh->busybox"); a
link is weak: a regular file given under the same name wins over it (so
Granule's own programs keep their names beside busybox's applets).
@ARGFILE reads more arguments from ARGFILE, one a line.

The archive is deterministic: the same input bytes give the same archive
bytes, whatever the files' timestamps, owners, permissions or the order of
the arguments.  Every byte of the kernel image matters (QEMU -icount runs
follow a different trajectory when any byte changes), so:
  - members are sorted by name;
  - mtime 0, uid/gid 0, uname/gname "root", mode 0755, type '0' (regular),
    '2' (symbolic link) or '5' (directory);
  - plain ustar headers only (no pax or GNU extension headers; a name
    longer than 100 bytes is an error rather than a prefix split);
  - data padded with NULs to 512 bytes, then two zero blocks, and no
    padding to a 10 KiB tar record.
The header is written here rather than by the tarfile module so that the
bytes cannot change with the Python version.  (tarfile reads it back in
the tests.)
"""
import os
import sys

BLOCK = 512
MODE = 0o755


def octal(value, width):
    """A NUL-terminated octal field of WIDTH bytes (width-1 digits)."""
    digits = "%0*o" % (width - 1, value)
    if len(digits) > width - 1:
        raise ValueError("value %d does not fit a %d-byte octal field" % (value, width))
    return digits.encode("ascii") + b"\0"


def field(text, width):
    raw = text.encode("ascii")
    if len(raw) > width:
        raise ValueError("%r longer than %d bytes" % (text, width))
    return raw + b"\0" * (width - len(raw))


def header(name, size, typeflag=b"0", linkname=""):
    h = b"".join([
        field(name, 100),          # name
        octal(MODE, 8),            # mode
        octal(0, 8),               # uid
        octal(0, 8),               # gid
        octal(size, 12),           # size
        octal(0, 12),              # mtime
        b" " * 8,                  # chksum, counted as spaces
        typeflag,                  # '0' regular, '2' symlink, '5' directory
        field(linkname, 100),      # linkname
        b"ustar\0", b"00",         # magic, version (POSIX)
        field("root", 32),         # uname
        field("root", 32),         # gname
        octal(0, 8),               # devmajor
        octal(0, 8),               # devminor
        field("", 155),            # prefix
    ])
    h += b"\0" * (BLOCK - len(h))
    assert len(h) == BLOCK
    chksum = sum(h)
    # Six octal digits, NUL, space: the traditional layout.
    return h[:148] + ("%06o" % chksum).encode("ascii") + b"\0 " + h[156:]


def pack(members, links=None):
    """members: dict name -> bytes; links: dict name -> target (weak: a
    member of the same name wins).  Directories of both get their own
    members.  Returns the archive bytes."""
    links = {n: t for n, t in (links or {}).items() if n not in members}
    dirs = set()
    for name in list(members) + list(links):
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]) + "/")
    entries = [(d, "dir") for d in dirs] + [(n, "file") for n in members] + [(n, "link") for n in links]
    out = []
    for name, kind in sorted(entries):
        if kind == "dir":
            out.append(header(name, 0, b"5"))
        elif kind == "link":
            out.append(header(name, 0, b"2", links[name]))
        else:
            data = members[name]
            out.append(header(name, len(data)))
            out.append(data)
            out.append(b"\0" * (-len(data) % BLOCK))
    out.append(b"\0" * (2 * BLOCK))
    return b"".join(out)


def member_name(arg):
    if "=" in arg:
        name, path = arg.split("=", 1)
    else:
        path = arg
        name = os.path.basename(arg)
        if name.endswith(".elf"):
            name = name[:-4]
    if not name or name.startswith("/") or ".." in name.split("/"):
        sys.exit("mkinitrd: bad member name %r" % name)
    try:
        name.encode("ascii")
    except UnicodeEncodeError:
        sys.exit("mkinitrd: member name %r is not ASCII" % name)
    if len(name) > 100:
        sys.exit("mkinitrd: member name %r longer than 100 bytes" % name)
    return name, path


def expand(args):
    """@FILE arguments replaced by FILE's lines."""
    out = []
    for arg in args:
        if arg.startswith("@"):
            with open(arg[1:], encoding="ascii") as f:
                out += expand([line.strip() for line in f if line.strip()])
        else:
            out.append(arg)
    return out


def main(argv):
    if len(argv) < 3 or argv[0] != "-o":
        sys.exit(__doc__.split("\n\n")[1])
    out_path = argv[1]
    members, links = {}, {}
    for arg in expand(argv[2:]):
        if "->" in arg:
            name, target = arg.split("->", 1)
            member_name(name + "=x")
            if not target or len(target) > 100 or name in links:
                sys.exit("mkinitrd: bad link %r" % arg)
            links[name] = target
            continue
        name, path = member_name(arg)
        if name in members:
            sys.exit("mkinitrd: member %r given twice" % name)
        with open(path, "rb") as f:
            members[name] = f.read()
    data = pack(members, links)
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out_path)
