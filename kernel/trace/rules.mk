# kernel/trace - the event tracer (trace_event=, trace_buf_size=, tp_printk;
# docs/TRACING.md).  Everything but knobs.c is linked into .trace, the part
# of the image the frame allocator takes back when tracing is off: objcopy
# renames each object's sections .text -> .trace.text etc. (linker.ld).
KERNEL_C += kernel/trace/knobs.c          # the boot knobs, trace_on, the marker syscall's gate
KERNEL_C += kernel/trace/trace.c          # parse the knobs, record, trace_marker, the ftrace text dump
KERNEL_C += kernel/trace/ring_buffer.c    # overwrite-mode record ring (host-tested)
KERNEL_C += kernel/trace/events.c         # event names and their ftrace text form (host-tested)
KERNEL_C += kernel/trace/probes.c         # kprobes on the scheduler and timers -> events
KERNEL_C += kernel/trace/tracefs.c        # /sys/kernel/debug/tracing: trace, set_event, tracing_on ...

TRACE_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter-out kernel/trace/knobs.c,$(filter kernel/trace/%,$(KERNEL_C))))

# The same compile as every kernel object, then the section rename.
$(TRACE_OBJS): $(BUILD)/kernel/trace/%.o: kernel/trace/%.c $(KFLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (.trace)"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@
	$(Q)objcopy --prefix-alloc-sections=.trace $@
