# tests/labs - the graded labs' host checks (docs/LABS.md, tools/lab).
# One binary, build/host/labs, calls every lab's function through the
# unchanged kernel/sched code, compiled with tests/host/sched's flags;
# `build/host/labs NAME` runs one lab's checks.  It is linked from one
# object per file (build/host/labs.o/), so that a cut tree whose build/
# starts from the repository's objects recompiles only the files the cut
# changed (tests/system/test_labs.py does that).
LAB_CHECK_SRC := $(sort $(wildcard tests/labs/test_lab_*.c)) tests/labs/main.c
LAB_OBJS := $(patsubst %.c,$(BUILD)/host/labs.o/%.o,$(SCHED_HOST_SRC) $(LAB_CHECK_SRC))
HOST_TESTS += $(BUILD)/host/labs
$(LAB_OBJS): $(BUILD)/host/labs.o/%.o: %.c $(SCHED_HOST_HDRS) $(SCHED_PRESETS_H) tests/labs/lab.h \
		$(wildcard tests/host/shim/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -I$(BUILD) -c $< -o $@
$(BUILD)/host/labs: $(LAB_OBJS) | $(BUILD)/host
	@echo "  HOSTLD  $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $(LAB_OBJS) $(HOST_LIBS)
