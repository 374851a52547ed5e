"""granule.run - tools/run-qemu: one boot for a person (make run, make shell, make gdb) and make run's closing line."""
