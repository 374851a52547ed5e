"""granule - the host-side tools of Granule, one subpackage by job.

The commands in tools/ (tools/bench, tools/sim, tools/trace, ...) are a few
lines each that put tools/ on the path and call into this package.  Imports go
downward only (tests/system/test_tools_package.py checks it): a command imports
a job, a job imports the jobs below it and the shared runners, nothing imports
a command or a job above it.

  sim/      tools/sim: the simulator's Python (sweep, replay, calibrate) and its C engine (engine/)
  bench/    tools/bench, bench_cost.py, bench_rt.py: the experiment's matrix under QEMU, and its report
  trace/    tools/trace: the kernel's trace dump as ftrace text, trace.dat and pictures
  lab/      tools/lab: the graded labs
  image/    tools/mkinitrd, mkusb, write-usb, fontgen.py, genpresets, gensyscalls: what the build packs
  run/      tools/run-qemu: one boot for a person (make run, shell, gdb) and its closing line
  check/    tools/run-tests, fuzz-host, fuzz-image, soak: the test suite and the robustness runs
  measure/  tools/measure-paths, profile-path: instruction counts along kernel paths
  docs/     tools/exercises, debate-figures, start-figure: what they write into docs/
  peer/     tools/linux-peer: the same benchmark binaries on Debian's Linux kernels
  qemu.py   the shared runner: boot the image under QEMU -icount, collect its output
  debian/   tools/fetch-deb, fetch-qemu: pinned Debian packages (tools/debs.lock) and the QEMU
  stats.py, gnuplot.py, paths.py   seed spreads and verdicts; pictures; where things are
  rtapp.py  rt-app's JSON workloads (workloads/) and its per-thread logs, read (docs/RTAPP.md)
"""
