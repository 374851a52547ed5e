"""tools/granule/debian/fetch.py - Debian packages that Granule needs at build or test time, fetched so a
mirror in mid-sync cannot stop the build.

Used by tools/fetch-deb (the command), tools/fetch-busybox (the initrd's shell) and
tools/granule/peer/linux.py (Debian's kernels for the Linux-beside runs).  The machine's apt
and dpkg state are never touched: every fetch uses a private, temporary apt state
(lists, cache) that is deleted when the fetch ends, read from the machine's own
sources (as apt sees them, so APT_CONFIG is honoured) plus any suite asked for.

The rules, in order:
  1. Pinned.  tools/debs.lock names, for each package:arch, the version we measured
     with and its SHA-256 from the archive's own (signed) index.  A cached .deb whose
     SHA-256 matches is used as it is: no network at all, so the build works offline
     once the cache is filled.  A cached file that does not match (corrupt,
     truncated) is deleted and fetched again.
  2. A partial `apt-get update` is a warning.  One source's index may be mid-sync
     ("File has unexpected size ... Mirror sync in progress?"); the others still
     name the package, so we go on to the download.
  3. The download is checked against the index's SHA-256 before it enters the
     cache (an atomic rename: the cache never holds a partial file).
  4. A transient error (the package in no index, a failed download) is retried
     after a short back-off (BACKOFF_S); then the fetch fails with one line that
     names the package, the version wanted and the commands to retry.
  5. A pinned version the archive no longer has: the archive's candidate is taken,
     with a warning (figures measured with it may differ from docs/RESULTS.md), and
     recorded in the cache beside the .deb.

Cache: $GRANULE_CACHE (default ~/.cache/granule)/debs/NAME_VERSION_ARCH.deb, each
with NAME_VERSION_ARCH.deb.json (package, arch, version, sha256, size).
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from ..paths import TOOLS
LOCK = os.path.join(TOOLS, "debs.lock")
BACKOFF_S = (2, 5)      # seconds before the 2nd and 3rd try of a transient error
RETRY_HINT = "retry with 'make deps' (or tools/fetch-deb {spec}); see README, 'What the first run downloads'"


class FetchError(Exception):
    """A package that cannot be had: str(e) is the one line to print."""


def cache_dir():
    base = os.environ.get("GRANULE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "granule")
    return base


def warn(prog, msg):
    print(f"{prog}: warning: {msg}", file=sys.stderr)


# --- the lock file and the cache ------------------------------------------------------

def lock_entries(path=LOCK):
    """[(role, spec, version, sha256)] of tools/debs.lock, in its order ('#' starts a comment)."""
    with open(path, encoding="utf-8") as f:
        return [tuple(w) for w in (line.split("#", 1)[0].split() for line in f) if len(w) == 4]


def read_lock_roles(path=LOCK):
    """The roles tools/debs.lock pins, in its order."""
    return [e[0] for e in lock_entries(path)]


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def deb_name(name, version, arch):
    """Debian's file name: an epoch's ':' is written %3a, as apt-get download does."""
    return f"{name}_{version.replace(':', '%3a')}_{arch}.deb"


def _records():
    """Every cached .deb's record (the .json beside it), newest first."""
    d = os.path.join(cache_dir(), "debs")
    recs = []
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.endswith(".deb.json"):
            try:
                with open(os.path.join(d, f), encoding="utf-8") as j:
                    rec = json.load(j)
                rec["path"] = os.path.join(d, f[:-len(".json")])
                recs.append(rec)
            except (OSError, ValueError):
                continue
    return recs


def cached(spec, version=None, sha=None):
    """The path of a cached, intact .deb for SPEC (name:arch), or None.

    With VERSION/SHA (a pin): that exact file.  Without: the record of the last
    fetch.  A file whose SHA-256 differs from its record is deleted."""
    for rec in _records():
        if f"{rec['package']}:{rec['arch']}" != spec:
            continue
        if version is not None and (rec["version"] != version or rec["sha256"] != sha):
            continue
        if os.path.exists(rec["path"]) and sha256_of(rec["path"]) == rec["sha256"]:
            return rec["path"]
        for p in (rec["path"], rec["path"] + ".json"):
            if os.path.exists(p):
                os.unlink(p)
    return None


def _store(tmp_deb, rec):
    """Move a checked download into the cache with its record (rename: atomic)."""
    d = os.path.join(cache_dir(), "debs")
    os.makedirs(d, exist_ok=True)
    dest = os.path.join(d, deb_name(rec["package"], rec["version"], rec["arch"]))
    os.replace(tmp_deb, dest)
    with open(dest + ".json.tmp", "w", encoding="utf-8") as f:
        json.dump({k: rec[k] for k in ("package", "arch", "version", "sha256", "size")}, f)
        f.write("\n")
    os.replace(dest + ".json.tmp", dest + ".json")
    return dest


# --- a private apt state --------------------------------------------------------------

class Want:
    """One package to have: ROLE (a tools/debs.lock key), SPEC 'name:arch', the pinned
    VERSION and SHA (None: the archive's candidate), and for a pin the archive may
    have dropped, META = (metapackage, suite) whose dependency replaces it (Debian's
    kernels: linux-image-amd64 in bookworm names the current linux-image-6.1.0-N), and
    RELEASE, the suite whose version replaces a dropped pin (default: apt's candidate,
    which prefers bookworm to bookworm-backports; QEMU's packages come from the latter)."""

    def __init__(self, role, spec, version=None, sha=None, meta=None, release=None):
        self.role, self.spec, self.version, self.sha, self.meta = role, spec, version, sha, meta
        self.release = release
        self.name, self.arch = spec.split(":")

    def wanted(self):
        return f"{self.spec} {self.version}" if self.version else f"{self.spec} (the archive's version)"


def want(role, meta=None, lock=LOCK, release=None):
    """The Want for ROLE as tools/debs.lock pins it."""
    for r, spec, version, sha in lock_entries(lock):
        if r == role:
            return Want(role, spec, version, sha, meta, release)
    raise FetchError(f"{role}: not in {os.path.relpath(lock)}")


def _apt_config_path(key):
    """A file or directory option as apt resolves it (APT_CONFIG honoured)."""
    out = subprocess.run(["apt-config", "shell", "X", key], capture_output=True, text=True).stdout
    m = re.search(r"X='([^']*)'", out)
    return m.group(1) if m else ""


def system_source_files():
    """The machine's apt source files, as apt resolves them (APT_CONFIG honoured)."""
    main = _apt_config_path("Dir::Etc::SourceList/f")
    files = [main] if os.path.isfile(main) else []
    d = _apt_config_path("Dir::Etc::SourceParts/d")
    if os.path.isdir(d):
        files += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith((".list", ".sources"))]
    return files


def _debian_uri(texts):
    """The first Debian archive URI (not security) among the machine's sources."""
    for text in texts:
        for m in re.finditer(r"^\s*URIs:\s*(\S+)|^\s*deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+\S+", text, re.M):
            uri = m.group(1) or m.group(2)
            if "security" not in uri:
                return uri
    return None


class AptState:
    """apt-get with its own lists and cache in a temporary directory under the cache
    (deleted on exit), the machine's sources and keys, and the given architectures."""

    def __init__(self, prog, archs, suites=()):
        self.prog, self.archs, self.suites = prog, list(dict.fromkeys(archs)), suites

    def __enter__(self):
        os.makedirs(cache_dir(), exist_ok=True)
        self.dir = tempfile.mkdtemp(prefix="apt-", dir=cache_dir())
        parts = os.path.join(self.dir, "sources.list.d")
        for sub in ("lists/partial", "archives/partial", "sources.list.d", "prefs.d", "dl"):
            os.makedirs(os.path.join(self.dir, sub))
        texts = self._copy_sources(parts)
        uri = _debian_uri(texts)
        extra = [s for s in self.suites if not any(re.search(rf"\b{re.escape(s)}\b", t) for t in texts)]
        if extra and uri:
            with open(os.path.join(parts, "zz-granule.list"), "w", encoding="utf-8") as f:
                f.writelines(f"deb {uri} {s} main\n" for s in extra)
        open(os.path.join(self.dir, "sources.list"), "w").close()
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)

    def _copy_sources(self, parts):
        texts = []
        for i, src in enumerate(system_source_files()):
            text = open(src, encoding="utf-8", errors="replace").read()
            texts.append(text)
            name = os.path.basename(src) if src.endswith((".list", ".sources")) else "sources.list"
            with open(os.path.join(parts, f"{i:02d}-{name}"), "w", encoding="utf-8") as f:
                f.write(text)
        return texts

    def options(self):
        d = self.dir
        opts = ["-o", f"Dir::Etc::SourceList={d}/sources.list",
                "-o", f"Dir::Etc::SourceParts={d}/sources.list.d",
                "-o", "Dir::Etc::Preferences=/dev/null", "-o", f"Dir::Etc::PreferencesParts={d}/prefs.d",
                "-o", f"Dir::State::Lists={d}/lists", "-o", f"Dir::Cache={d}",
                "-o", f"Dir::Cache::archives={d}/archives", "-o", "Dir::State::status=/dev/null",
                "-o", f"APT::Architecture={self.archs[0]}", "-o", "APT::Architectures::=",
                "-o", "Acquire::Languages=none", "-o", "Debug::NoLocking=1",
                "-o", "Acquire::Retries=0"]    # our own retries, with their back-off, are in get()
        for a in self.archs:
            opts += ["-o", f"APT::Architectures::={a}"]
        if os.geteuid() == 0:    # _apt cannot write into root's home
            opts += ["-o", "APT::Sandbox::User=root"]
        return opts

    def update(self):
        """apt-get update; a source whose index fails is a warning, not an error."""
        p = subprocess.run(["apt-get", "-q"] + self.options() + ["update"],
                           capture_output=True, text=True)
        errors = [l for l in p.stderr.splitlines() if l.startswith("E: Failed to fetch")]
        for line in errors:
            warn(self.prog, "partial index update, going on with the other sources: " + line[3:])
        if p.returncode != 0 and not errors:
            warn(self.prog, "apt-get update: " + (p.stderr.strip().splitlines() or ["failed"])[-1])

    def show(self, spec):
        """[(version, sha256, size)] of SPEC in the indexes fetched."""
        p = subprocess.run(["apt-cache"] + self.options() + ["show", spec], capture_output=True, text=True)
        found = []
        for stanza in p.stdout.split("\n\n"):
            f = dict(re.findall(r"^([A-Za-z0-9-]+): (.*)$", stanza, re.M))
            if "Version" in f and "SHA256" in f:
                found.append((f["Version"], f["SHA256"], int(f.get("Size", 0))))
        return found

    def candidate(self, spec, release=None):
        """The version apt would take (from RELEASE first, when given)."""
        target = ["-o", f"APT::Default-Release={release}"] if release else []
        out = subprocess.run(["apt-cache"] + self.options() + target + ["policy", spec],
                             capture_output=True, text=True).stdout
        m = re.search(r"Candidate:\s*(\S+)", out)
        return m.group(1) if m and m.group(1) != "(none)" else None

    def depends(self, name, suite, arch):
        """The linux-image-* package that metapackage NAME depends on in SUITE."""
        out = subprocess.run(["apt-cache"] + self.options() + ["depends", f"{name}:{arch}/{suite}"],
                             capture_output=True, text=True).stdout
        m = re.search(r"Depends:\s*(linux-image-[^\s:]+)", out)
        return m.group(1) if m else None

    def download(self, name, arch, version):
        """apt-get download name:arch=version into the private directory; its path."""
        dl = os.path.join(self.dir, "dl")
        p = subprocess.run(["apt-get", "-q"] + self.options() + ["download", f"{name}:{arch}={version}"],
                           cwd=dl, capture_output=True, text=True)
        path = os.path.join(dl, deb_name(name, version, arch))
        if p.returncode != 0 or not os.path.exists(path):
            err = [l for l in p.stderr.splitlines() if l.startswith("E:")]
            raise FetchError((err or ["apt-get download failed"])[-1])
        return path


# --- fetching ---------------------------------------------------------------------------

def adopt_legacy(w):
    """A pinned .deb left by an earlier Granule in the cache's old places: checked, moved in."""
    base = cache_dir()
    for d in (base, os.path.join(base, "linux-peer", "debs")):
        p = os.path.join(d, deb_name(w.name, w.version, w.arch))
        if os.path.isfile(p) and sha256_of(p) == w.sha:
            return _store(p, {"package": w.name, "arch": w.arch, "version": w.version,
                              "sha256": w.sha, "size": os.path.getsize(p)})
    return None


def _resolve(apt, w):
    """(name, version, sha256, size) to download for W, from the fetched indexes."""
    if w.version:
        for version, sha, size in apt.show(w.spec):
            if version == w.version:
                if sha != w.sha:
                    raise FetchError(f"the archive's index gives {w.spec} {version} the SHA-256 {sha}, "
                                     f"tools/debs.lock {w.sha}: refusing it")
                return w.name, version, sha, size
    name = w.name
    if w.meta:
        name = apt.depends(w.meta[0], w.meta[1], w.arch)
        if not name:
            return None
    version = apt.candidate(f"{name}:{w.arch}", w.release)
    found = [s for s in apt.show(f"{name}:{w.arch}") if s[0] == version]
    if not found:
        return None
    if w.version:
        warn(apt.prog, f"{w.spec} {w.version} (tools/debs.lock) is no longer in the archive; using "
                       f"{name}:{w.arch} {version} (figures may differ from docs/RESULTS.md)")
    return (name,) + found[0]


def _fetch_one(apt, w):
    got = _resolve(apt, w)
    if got is None:
        raise FetchError("not in any package index that could be read")
    name, version, sha, size = got
    path = apt.download(name, w.arch, version)
    if sha256_of(path) != sha:
        os.unlink(path)
        raise FetchError(f"the download of {name}:{w.arch} {version} does not match the index's SHA-256")
    return _store(path, {"package": name, "arch": w.arch, "version": version, "sha256": sha,
                         "size": size})


def get(wants, prog, suites=()):
    """{role: path of the checked .deb} for every Want; FetchError when one cannot be had.

    Cached and intact pins need no network.  The rest are fetched in one private apt
    state, with up to len(BACKOFF_S) retries of whatever failed."""
    paths, todo = {}, []
    for w in wants:
        p = w.version and (cached(w.spec, w.version, w.sha) or adopt_legacy(w))
        if p:
            paths[w.role] = p
        else:
            todo.append(w)
    if not todo:
        return paths
    print(f"{prog}: fetching {', '.join(w.wanted() for w in todo)} into {cache_dir()}/debs",
          file=sys.stderr)
    errors = {}
    with AptState(prog, [w.arch for w in todo], suites) as apt:
        for attempt, pause in enumerate((0,) + BACKOFF_S):
            if attempt:
                warn(prog, f"{len(todo)} package(s) not fetched; trying again in {pause} s")
                time.sleep(pause)
            apt.update()
            for w in list(todo):
                try:
                    paths[w.role] = _fetch_one(apt, w)
                    todo.remove(w)
                except FetchError as e:
                    errors[w.role] = str(e)
            if not todo:
                return paths
    for w in todo:        # offline: an earlier fetch of another version still serves
        p = cached(w.spec) if not w.meta else None
        if p:
            warn(prog, f"{w.wanted()} could not be fetched; using the cached {os.path.basename(p)}")
            paths[w.role] = p
            todo.remove(w)
    if todo:
        w = todo[0]
        raise FetchError(f"cannot fetch {w.wanted()}: {errors[w.role]} "
                         f"({1 + len(BACKOFF_S)} tries); " + RETRY_HINT.format(spec=w.role))
    return paths


def pin(prog, wants, suites=(), versions=None):
    """Record in tools/debs.lock, for each Want, VERSIONS[role] (default: the archive's
    candidate, Want.release's first) and that version's SHA-256 from the archive's index.
    Returns [(role, spec, version, sha256)]."""
    pinned = []
    with AptState(prog, [w.arch for w in wants], suites) as apt:
        apt.update()
        for w in wants:
            version = (versions or {}).get(w.role) or apt.candidate(w.spec, w.release)
            found = [s for s in apt.show(w.spec) if s[0] == version]
            if not found:
                raise FetchError(f"{w.spec} {version}: not in the archive's index")
            pinned.append((w.role, w.spec, version, found[0][1]))
    with open(LOCK, encoding="utf-8") as f:
        text = f.read()
    for role, spec, version, sha in pinned:
        line = re.compile(rf"^({re.escape(role)}\s+{re.escape(spec)}\s+)\S+(\s+)\S+$", re.M)
        text = line.sub(lambda m: f"{m.group(1)}{version}{m.group(2)}{sha}", text)
    with open(LOCK, "w", encoding="utf-8") as f:
        f.write(text)
    return pinned


def record(path):
    """The cache's record (package, arch, version, sha256, size) of a fetched .deb."""
    with open(path + ".json", encoding="utf-8") as f:
        return json.load(f)
