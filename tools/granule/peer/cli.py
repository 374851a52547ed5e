"""tools/linux-peer - Granule's benchmark binaries on Debian's real Linux kernels.

  tools/linux-peer fetch                   download the kernels + busybox-static (cached)
  tools/linux-peer presets                 the preset mapping, and what Linux cannot emulate
  tools/linux-peer run PRESET [--module TAR] [--smp N] [-- RUN]
                                           boot PRESET's kernel with its knobs and run RUN
                                           (default: the headline experiment, 10 s); --module
                                           adds a Granule boot module's files (e.g.
                                           build/rt-tests/rt-tests.tar: cyclictest, hackbench);
                                           --smp N boots N CPUs (default 1)

RUN is Granule's run= syntax: 'prog args; prog args'.  Environment words
(mode=thread ...) are arguments of the programs, as on Granule.  The serial
output goes to stdout; the exit status is 0 when every command exited 0.
See docs/EXPERIMENT.md ("Granule beside Linux") and tools/granule/peer/linux.py.
"""
import sys

from . import linux as lp

DEFAULT_RUN = "experiment mode=thread load=kbuild:10 duration=10"


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "fetch":
        lp.fetch(force="--force" in rest)
        for k, (suite, label) in lp.KERNELS.items():
            print(f"{label}: {lp.release(k)} ({suite}), HZ={lp.kernel_config(k, 'HZ')}")
        return 0
    if cmd == "presets":
        for name, (kernel, knobs, feats, env) in lp.LINUX_PRESETS.items():
            setting = " ".join([f"{k}={v}" for k, v in knobs.items()] + feats
                               + [f"{k}={v} (environment)" for k, v in env.items()]) or "defaults"
            print(f"{name:30} Linux {kernel:5} {setting}")
        for name, why in lp.NOT_ON_LINUX.items():
            print(f"{name:30} -          {why}")
        return 0
    if cmd == "run" and rest:
        preset, run = rest[0], DEFAULT_RUN
        if "--" in rest:
            run = " ".join(rest[rest.index("--") + 1:])
            rest = rest[:rest.index("--")]
        module = rest[rest.index("--module") + 1] if "--module" in rest[:-1] else None
        smp = rest[rest.index("--smp") + 1] if "--smp" in rest[:-1] else "1"
        if not smp.isdigit() or not 1 <= int(smp) <= 255:
            print(f"linux-peer: --smp {smp}: invalid (expected 1..255 CPUs)", file=sys.stderr)
            return 2
        try:
            r = lp.run(preset, run, module=module, smp=int(smp))
        except lp.df.FetchError as e:
            print(f"linux-peer: error: {e}", file=sys.stderr)
            return 1
        sys.stdout.write(r.text)
        if r.timed_out:
            print("linux-peer: timed out", file=sys.stderr)
            return 1
        return 0 if r.status() == 0 else 1
    print(__doc__.strip(), file=sys.stderr)
    return 2
