"""granule.debian - tools/fetch-deb, tools/fetch-qemu: the Debian packages Granule pins (tools/debs.lock), and the QEMU."""
