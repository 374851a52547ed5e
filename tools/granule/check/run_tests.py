"""tools/run-tests - run the whole suite and print one closing line.

  tools/run-tests [HOST_TEST_BINARY...] [-- PYTEST_ARGS...]

1. Each host unit-test binary (cmocka) runs, two at a time (TEST_JOBS); its
   own output is shown, in the order given, and its
   "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)" lines are counted.
   A binary that dies (sanitizer report, signal) or hangs (300 s) counts as
   one failure.
   A libFuzzer target (build/fuzz/NAME, tests/fuzz) instead replays every
   input of tests/fuzz/corpus/NAME and tests/fuzz/regress/NAME once: each
   input that runs clean is one pass; a crash is one failure.
2. The QEMU system tests run under pytest (tests/system), two at a time; the
   twenty slowest are listed (the suite is held under 15 minutes on 2 cores).
Closing line:  "test: N passed, N failed"; exit status 0 only if nothing failed.
"""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from ..paths import ROOT
HOST_TIMEOUT = 300      # seconds per host test binary


def run_host(binary):
    """(passed, failed, the text to show) of one cmocka binary."""
    try:
        p = subprocess.run([binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT,
                           timeout=HOST_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        return 0, 1, ((e.stdout or b"").decode("utf-8", "replace")
                      + f"run-tests: {binary} timed out after {HOST_TIMEOUT} s\n")
    out = p.stdout.decode("utf-8", "replace")
    passed = sum(int(m) for m in re.findall(r"^\[  PASSED  \] (\d+) test", out, re.M))
    failed = sum(int(m) for m in re.findall(r"^\[  FAILED  \] (\d+) test", out, re.M))
    if p.returncode != 0 and failed == 0:
        out += f"run-tests: {binary} exited with status {p.returncode}\n"
        failed = 1
    return passed, failed, out


def run_fuzz_replay(binary):
    """(passed, failed, the text to show) of one libFuzzer target's replay."""
    name = os.path.basename(binary)
    inputs = sorted(f for d in ("corpus", "regress")
                    for f in glob.glob(os.path.join(ROOT, "tests", "fuzz", d, name, "*"))
                    if os.path.isfile(f))
    if not inputs:
        return 0, 1, f"run-tests: {name}: no corpus or regression input\n"
    try:
        p = subprocess.run([binary, "-runs=0"] + inputs, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, cwd=ROOT, timeout=HOST_TIMEOUT)
    except subprocess.TimeoutExpired:
        return 0, 1, f"run-tests: {name} timed out after {HOST_TIMEOUT} s\n"
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        return 0, 1, (out[-4000:] + f"run-tests: {name} failed on a replayed input "
                      f"(status {p.returncode})\n")
    return len(inputs), 0, f"[  PASSED  ] {len(inputs)} inputs replayed by {name}\n"


def is_fuzz(binary):
    return os.path.basename(os.path.dirname(os.path.abspath(binary))) == "fuzz"


def run_binary(binary):
    return run_fuzz_replay(binary) if is_fuzz(binary) else run_host(binary)


def print_time_by_file(suite, top=12):
    """The files that took longest, summed over their tests (setup, call and
    teardown, as junit reports each): where the suite's budget goes."""
    by_file = {}
    for case in suite.iter("testcase"):
        f = case.get("classname", "?").split(".")[-1]
        by_file[f] = by_file.get(f, 0.0) + float(case.get("time", 0))
    total = sum(by_file.values())
    print(f"==> test time by file ({total:.0f} s in all, over the workers)")
    for f, t in sorted(by_file.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{t:8.1f} s  {f}")


def run_pytest(args):
    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "junit.xml")
        jobs = os.environ.get("TEST_JOBS", "2")
        cmd = ["/usr/bin/python3", "-m", "pytest", "-q", "-n", jobs, "--dist", "loadgroup", "-p", "no:cacheprovider", "--durations=20",
               f"--junitxml={xml}", os.path.join(ROOT, "tests", "system")] + args
        p = subprocess.run(cmd, cwd=ROOT)
        if not os.path.exists(xml):
            return 0, 1
        suite = ET.parse(xml).getroot()
        if suite.tag == "testsuites":
            suite = suite[0]
        print_time_by_file(suite)
        total = int(suite.get("tests", 0))
        bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped = int(suite.get("skipped", 0))
        if p.returncode not in (0, 1) and bad == 0:
            bad = 1
        return total - bad - skipped, bad


def main():
    argv = sys.argv[1:]
    pyargs = []
    if "--" in argv:
        i = argv.index("--")
        argv, pyargs = argv[:i], argv[i + 1:]
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("TEST_JOBS", "2"))) as pool:
        for b, (p, f, out) in zip(argv, pool.map(run_binary, argv)):
            print(f"==> {'fuzz replay' if is_fuzz(b) else 'host unit tests'}: "
                  f"{os.path.relpath(b, ROOT)}")
            sys.stdout.write(out)
            sys.stdout.flush()
            passed += p
            failed += f
    print("==> QEMU system tests (tests/system)", flush=True)
    p, f = run_pytest(pyargs)
    passed += p
    failed += f
    print(f"test: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
