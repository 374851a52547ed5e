# tests/labs - the graded labs' host checks (docs/LABS.md, tools/lab).
# One binary, build/host/labs, calls every lab's function through the
# unchanged kernel/sched code, compiled exactly as tests/host/sched does;
# `build/host/labs NAME` runs one lab's checks.
LAB_CHECK_SRC := $(sort $(wildcard tests/labs/test_lab_*.c)) tests/labs/main.c
$(eval $(call host_test,labs,$(SCHED_HOST_SRC) $(LAB_CHECK_SRC)))
$(BUILD)/host/labs: $(SCHED_HOST_HDRS) $(SCHED_PRESETS_H) tests/labs/lab.h
$(BUILD)/host/labs: HOST_CFLAGS += -I$(BUILD)
