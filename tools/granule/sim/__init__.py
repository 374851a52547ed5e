"""granule.sim - tools/sim: the scheduler on the host (docs/EXPLORE.md); engine/ is build/sim's C source."""
