"""granule.check - tools/run-tests, tools/fuzz-host, tools/fuzz-image, tools/soak: the test suite and the robustness runs."""
