"""granule.bench - tools/bench, tools/bench_cost.py, tools/bench_rt.py: the 2010 experiment's matrix under QEMU, and its report."""
