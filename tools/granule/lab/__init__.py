"""granule.lab - tools/lab: the graded labs (docs/LABS.md)."""
