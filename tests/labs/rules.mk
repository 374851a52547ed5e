# tests/labs - the graded labs' host checks (docs/LABS.md, tools/lab).
# One binary, build/host/labs, calls every lab's function through the
# unchanged kernel/sched code, compiled with tests/host/sched's flags;
# `build/host/labs NAME [CHECK]` runs one lab's checks (or one of them).
# It is linked from one object per file (build/host/labs.o/), so that a
# cut tree whose build/ starts from the repository's objects recompiles
# only the files the cut changed (tests/system/test_labs.py does that).
LAB_CHECK_SRC := $(sort $(wildcard tests/labs/test_lab_*.c tests/labs/prop_*.c)) tests/labs/main.c \
		 tests/labs/report.c tests/labs/property.c tests/labs/scene.c \
		 tests/labs/eevdf_visits.c tests/labs/watch.c tests/labs/smp_lab.c \
		 tests/host/sched/smp_fake.c
LAB_SCHED_OBJS := $(patsubst %.c,$(BUILD)/host/labs.o/%.o,$(SCHED_HOST_SRC))
LAB_OBJS := $(LAB_SCHED_OBJS) $(patsubst %.c,$(BUILD)/host/labs.o/%.o,$(LAB_CHECK_SRC))

# The host suites a lab's grade also runs (tools/lab's LABS names them),
# linked from the same objects: build/host/labs.suite/sched_fair is
# build/host/sched_fair's tests, and a cut tree recompiles only its cut file.
LAB_SUITE_sched_fair := tests/host/sched/test_fair.c
LAB_SUITE_sched_preempt := tests/host/sched/test_preempt.c
LAB_SUITE_sched_variants := tests/host/sched/sim.c tests/host/sched/sim_smp.c tests/host/sched/test_variants.c
LAB_SUITE_sched_worked := tests/host/sched/docblock.c tests/host/sched/test_worked.c
LAB_SUITE_sched_eevdf := tests/host/sched/sim.c tests/host/sched/sim_smp.c tests/host/sched/test_eevdf.c
LAB_SUITE_sched_eevdf_class := tests/host/sched/sim.c tests/host/sched/sim_smp.c tests/host/sched/test_eevdf_class.c
LAB_SUITE_sched_balance := tests/host/sched/smp_fake.c tests/host/sched/test_balance.c
LAB_SUITE_sched_rebalance := tests/host/sched/smp_fake.c tests/host/sched/test_rebalance.c
LAB_SUITE_sched_eevdf_smp := tests/host/sched/smp_fake.c tests/host/sched/test_eevdf_smp.c
LAB_SUITE_sched_balance_worked := tests/host/sched/smp_fake.c tests/host/sched/docblock.c \
				  tests/host/sched/test_balance_worked.c
LAB_SUITES := sched_fair sched_preempt sched_variants sched_worked sched_eevdf sched_eevdf_class \
	      sched_balance sched_rebalance sched_eevdf_smp sched_balance_worked
# make test builds them beside the host tests: the grades then find them made
LAB_SUITE_BINS := $(addprefix $(BUILD)/host/labs.suite/,$(LAB_SUITES))
LAB_SUITE_OBJS := $(patsubst %.c,$(BUILD)/host/labs.o/%.o, \
		    $(sort $(foreach s,$(LAB_SUITES),$(LAB_SUITE_$(s)))))

$(sort $(LAB_OBJS) $(LAB_SUITE_OBJS)): $(BUILD)/host/labs.o/%.o: %.c $(SCHED_HOST_HDRS) $(SCHED_PRESETS_H) \
		$(wildcard tests/labs/*.h) $(wildcard tests/host/shim/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -I$(BUILD) -c $< -o $@

# The reference: the repository's kernel/sched/fair.c, eevdf.c, balance.c
# and eevdf_smp.c compiled once more (without sanitizers: it is the yardstick, not under test) with
# every function renamed ref_NAME, and CFS's class table cfs_sched_class
# renamed ref_cfs_sched_class, so that the property tests call the
# student's function and the reference side by side.  The other data
# (sysctls, fair_sched_class) stays shared: weakened, the kernel's own
# definition wins; the copy's knob table entries (section knobs) move
# to a section of their own, so each knob is still listed once.  In a cut tree (.lab) the repository's objects, stored
# by `tools/lab cut` in .lab-reference/, are used instead of the tree's own.
LAB_REF_OBJS := $(addprefix $(BUILD)/host/labs.ref/,fair.o eevdf.o balance.o eevdf_smp.o)
LAB_REF_CFLAGS := $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(HOST_CFLAGS)) -I$(BUILD)
ifeq ($(wildcard .lab),)
$(BUILD)/host/labs.ref/%.o: kernel/sched/%.c $(SCHED_HOST_HDRS) $(SCHED_PRESETS_H)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@ (the reference, renamed ref_*)"
	$(Q)$(HOSTCC) $(LAB_REF_CFLAGS) -c $< -o $@.raw
	$(Q)nm --defined-only -g $@.raw | awk \
		'$$2 == "T" || $$3 == "cfs_sched_class" { print "--redefine-sym=" $$3 "=ref_" $$3; next } \
		 $$2 ~ /^[BDR]$$/ { print "--weaken-symbol=" $$3 }' > $@.args
	$(Q)objcopy --rename-section knobs=lab_ref_knobs @$@.args $@.raw $@ && rm -f $@.raw $@.args
else
$(BUILD)/host/labs.ref/%.o: .lab-reference/%.o
	@mkdir -p $(dir $@)
	$(Q)cp $< $@
.lab-reference/%.o:
	@echo "lab: $@ is missing: the reference comes with a tree made by make lab" >&2; exit 1
endif

HOST_TESTS += $(BUILD)/host/labs
$(BUILD)/host/labs: $(LAB_OBJS) $(LAB_REF_OBJS) | $(BUILD)/host
	@echo "  HOSTLD  $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $(LAB_OBJS) $(LAB_REF_OBJS) $(HOST_LIBS)

# `LAB_TEST=test_x build/host/labs.suite/sched_fair` runs that test alone
# (tests/labs/suite_filter.c wraps cmocka's group runner).
LAB_SUITE_FILTER := $(BUILD)/host/labs.o/tests/labs/suite_filter.o
$(LAB_SUITE_FILTER): tests/labs/suite_filter.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -c $< -o $@
define lab_suite
$(BUILD)/host/labs.suite/$(1): $(LAB_SCHED_OBJS) $(patsubst %.c,$(BUILD)/host/labs.o/%.o,$(LAB_SUITE_$(1))) \
		$(LAB_SUITE_FILTER)
	@mkdir -p $$(dir $$@)
	@echo "  HOSTLD  $$@"
	$(Q)$$(HOSTCC) $$(HOST_CFLAGS) -Wl,--wrap=_cmocka_run_group_tests -o $$@ $$^ $$(HOST_LIBS)
endef
$(foreach s,$(LAB_SUITES),$(eval $(call lab_suite,$(s))))
