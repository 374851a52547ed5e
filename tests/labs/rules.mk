# tests/labs - the graded labs' host checks (docs/LABS.md, tools/lab).
# Each binary calls one lab's function through the unchanged kernel/sched
# code, compiled exactly as tests/host/sched does.
LAB_HOST_BINS := $(addprefix $(BUILD)/host/,lab_update_curr lab_place_entity lab_check_preempt_tick)
$(eval $(call host_test,lab_update_curr,$(SCHED_HOST_SRC) tests/labs/test_lab_update_curr.c))
$(eval $(call host_test,lab_place_entity,$(SCHED_HOST_SRC) tests/labs/test_lab_place_entity.c))
$(LAB_HOST_BINS): $(SCHED_HOST_HDRS) $(SCHED_PRESETS_H)
$(LAB_HOST_BINS): HOST_CFLAGS += -I$(BUILD)
$(eval $(call host_test,lab_check_preempt_tick,$(SCHED_HOST_SRC) tests/labs/test_lab_check_preempt_tick.c))
