"""granule.trace - tools/trace: the kernel's trace dump as files the Linux tools open (docs/TRACING.md)."""
