"""The first run's downloads survive a mirror in mid-sync (tools/granule/debian/fetch.py).

A fake Debian mirror on the loopback serves a Release file whose index sizes
are wrong, so apt reports exactly what a mirror in mid-sync gives:
"File has unexpected size (... != ...). Mirror sync in progress?".  An
APT_CONFIG adds it to the machine's own sources (or replaces them), and
GRANULE_CACHE points the cache at an empty directory, so each test starts as a
fresh machine would.  The good-sources tests download busybox-static:i386
(about 1 MB) from the machine's Debian archive.
"""
import hashlib
import http.server
import os
import shutil
import subprocess
import threading

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
from granule.debian import fetch as df
from granule.debian import qemu as qemufetch

PIN = df.want("busybox-i386")
INDEX = b"\xfd7zXZ\0" + bytes(range(256)) * 4      # not what Release promises


def release_file():
    """A Release whose SHA256 section gives every index a size it does not have."""
    sha = hashlib.sha256(INDEX).hexdigest()
    lines = ["Origin: Granule test mirror", "Suite: bookworm", "Codename: bookworm",
             "Date: Mon, 01 Jan 2024 00:00:00 UTC", "Architectures: amd64 i386",
             "Components: main", "SHA256:"]
    for arch in ("amd64", "i386"):     # apt reads an index only when its plain name is listed
        lines.append(f" {sha} {len(INDEX) * 3} main/binary-{arch}/Packages")
        lines.append(f" {sha} {len(INDEX) + 364} main/binary-{arch}/Packages.xz")
    return ("\n".join(lines) + "\n").encode()


class Mirror(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.endswith("/Release"):
            body = release_file()
        elif self.path.endswith("/Packages.xz"):
            body = INDEX
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def mirror():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Mirror)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()


def apt_config(tmp_path, mirror, keep_system):
    """An APT_CONFIG whose sources are the machine's (KEEP_SYSTEM) plus the broken
    mirror, or the broken mirror and a closed port only."""
    parts = tmp_path / "sources.list.d"
    parts.mkdir()
    if keep_system:
        for i, f in enumerate(df.system_source_files()):
            name = os.path.basename(f) if f.endswith((".list", ".sources")) else "sources.list"
            shutil.copy(f, parts / f"{i:02d}-{name}")
    else:
        (parts / "closed.list").write_text("deb [trusted=yes] http://127.0.0.1:9/ bookworm main\n")
    (parts / "zz-midsync.list").write_text(f"deb [trusted=yes] {mirror} bookworm main\n")
    (tmp_path / "sources.list").write_text("")
    conf = tmp_path / "apt.conf"
    conf.write_text(f'Dir::Etc::SourceList "{tmp_path}/sources.list";\n'
                    f'Dir::Etc::SourceParts "{parts}";\n')
    return conf


def fetch(tmp_path, conf, *argv, tool="fetch-deb"):
    env = dict(os.environ, APT_CONFIG=str(conf), GRANULE_CACHE=str(tmp_path / "cache"))
    return subprocess.run([os.path.join(ROOT, "tools", tool)] + list(argv), env=env,
                          capture_output=True, text=True, timeout=600)


def cache_files(tmp_path):
    top = tmp_path / "cache"
    return sorted(str(p.relative_to(top)) for p in top.rglob("*")) if top.exists() else []


def test_a_source_in_mid_sync_is_a_warning(tmp_path, mirror):
    conf = apt_config(tmp_path, mirror, keep_system=True)
    p = fetch(tmp_path, conf, "busybox-i386")
    assert p.returncode == 0, p.stderr
    warnings = [l for l in p.stderr.splitlines() if "warning: partial index update" in l]
    assert any(mirror in l and "unexpected size" in l for l in warnings), p.stderr
    deb = p.stdout.strip()
    assert os.path.basename(deb) == df.deb_name(PIN.name, PIN.version, PIN.arch)
    assert df.sha256_of(deb) == PIN.sha
    assert not any(f.startswith("apt-") for f in cache_files(tmp_path)), "private apt state left behind"


def test_every_source_broken_fails_with_one_line_and_no_state(tmp_path, mirror):
    conf = apt_config(tmp_path, mirror, keep_system=False)
    out = tmp_path / "busybox"
    p = fetch(tmp_path, conf, str(out), tool="fetch-busybox")
    assert p.returncode != 0
    errors = [l for l in p.stderr.splitlines() if "error:" in l]
    assert len(errors) == 1, p.stderr
    assert PIN.spec in errors[0] and PIN.version in errors[0] and "make deps" in errors[0], errors[0]
    assert cache_files(tmp_path) in ([], ["debs"]), cache_files(tmp_path)
    assert not out.exists()


def test_cached_deb_is_used_offline_and_a_corrupt_one_detected(tmp_path, mirror):
    """With a good cache and no reachable source: no download; a truncated cache file
    is deleted and, with no source, the fetch fails rather than using it."""
    good = fetch(tmp_path, apt_config(tmp_path, mirror, keep_system=True), "busybox-i386")
    assert good.returncode == 0, good.stderr
    deb = good.stdout.strip()
    offline = tmp_path / "offline"
    offline.mkdir()
    conf = apt_config(offline, mirror, keep_system=False)
    p = fetch(tmp_path, conf, "busybox-i386")
    assert p.returncode == 0 and p.stdout.strip() == deb and "fetching" not in p.stderr, p.stderr
    with open(deb, "r+b") as f:
        f.truncate(4096)
    p = fetch(tmp_path, conf, "busybox-i386")
    assert p.returncode != 0 and not os.path.exists(deb), p.stderr


def deps_run_offline(tmp_path, mirror, with_qemu):
    """tools/deps run from a copy of tools/ with no source at all and an empty cache,
    but for the pinned QEMU's .debs (WITH_QEMU: as make test's own deps left them)."""
    conf = apt_config(tmp_path, mirror, keep_system=False)
    env = dict(os.environ, APT_CONFIG=str(conf), GRANULE_CACHE=str(tmp_path / "cache"), LINUX="1")
    if with_qemu:
        (tmp_path / "cache" / "debs").mkdir(parents=True)
        for w in qemufetch.wants():
            deb = df.cached(w.spec, w.version, w.sha)
            assert deb, f"{w.spec} is not cached: run tools/fetch-qemu"
            for f in (deb, deb + ".json"):
                shutil.copy(f, tmp_path / "cache" / "debs")
    scratch = tmp_path / "tree" / "tools"
    shutil.copytree(os.path.join(ROOT, "tools"), scratch)
    return subprocess.run([str(scratch / "deps"), "run"], env=env, capture_output=True, text=True,
                          timeout=600)


def test_make_run_goes_on_without_busybox(tmp_path, mirror):
    """tools/deps run with no source at all: one line, status 0, and make run then
    builds with BUSYBOX=auto (without busybox when it is not there)."""
    # The packages are installed and QEMU cached (make test's own deps ran); only busybox is missing.
    p = deps_run_offline(tmp_path, mirror, with_qemu=True)
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stderr.splitlines() if l.startswith("tools/deps:")]
    assert len(lines) == 1 and "no busybox" in lines[0] and "make deps" in lines[0], p.stderr
    assert not (tmp_path / "tree" / "build" / "busybox").exists()
    dry = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "BUSYBOX=auto" in dry
    shutil.rmtree(tmp_path / "cache" / "qemu")     # the unpacked QEMU: 100 MB


def test_make_run_stops_without_its_qemu(tmp_path, mirror):
    """No QEMU to be had (no source, nothing cached): make run cannot go on, and says so
    in a line naming the package and version, and one saying how to retry."""
    p = deps_run_offline(tmp_path, mirror, with_qemu=False)
    assert p.returncode != 0
    qemu = qemufetch.wants()[0]
    errors = [l for l in p.stderr.splitlines() if "error:" in l]
    assert len(errors) == 2, p.stderr
    assert errors[0].startswith("tools/fetch-qemu: error: cannot fetch") and qemu.spec in errors[0] \
        and qemu.version in errors[0], errors[0]
    assert errors[1].startswith("tools/deps: error: make run needs the pinned QEMU") \
        and "make deps" in errors[1], errors[1]
