# tests/host/trace - host unit tests of the tracer's pure parts: the
# overwrite-mode ring buffer and the ftrace text of each event.
TRACE_T := tests/host/trace
$(eval $(call host_test,trace_ring,$(TRACE_T)/test_ring.c kernel/trace/ring_buffer.c \
	kernel/trace/events.c kernel/lib/vsprintf.c kernel/lib/string.c))
$(BUILD)/host/trace_ring: kernel/trace/ring_buffer.h kernel/trace/events.h
# the prologue instructions a kprobe may copy out of line
$(eval $(call host_test,trace_kprobes_insn,$(TRACE_T)/test_kprobes_insn.c))
$(BUILD)/host/trace_kprobes_insn: arch/x86/kprobes_insn.h
