"""granule.peer - tools/linux-peer: Granule's benchmark binaries on Debian's real Linux kernels."""
