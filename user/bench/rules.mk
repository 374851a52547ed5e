# user/bench - the 2010 experiment (the measurement, the loads, the driver)
# and the kernel microbenchmarks.  bench.c (clocks, CPU burning, JSON
# lines), kjob.c (the PRNG and the jobs' parameters, shared with the host
# simulator), latency.c (the wakeup-latency measurement) and measure.c (any
# program as experiment's measurement) form libbench.a,
# whose headers <bench.h> and <latency.h> live here too.
UB := $(BUILD)/user/bench
BENCH_LIB := $(UB)/libbench.a
$(UB)/%.o: USER_CFLAGS += -Iuser/bench
USER_OBJS += $(UB)/bench.o $(UB)/kjob.o $(UB)/latency.o $(UB)/measure.o

$(BENCH_LIB): $(UB)/bench.o $(UB)/kjob.o $(UB)/latency.o $(UB)/measure.o
	@echo "  AR      $@"
	$(Q)rm -f $@
	$(Q)ar rcsD $@ $^

BENCH_PROGS := wakeup-latency kbuild-load video-load experiment chainjob
$(foreach p,$(BENCH_PROGS),$(eval USER_LIBS_$(p) := $(BENCH_LIB)))
$(foreach p,$(BENCH_PROGS) microbench,$(eval $(call user_prog,$(p),$(UB)/$(p).o)))

# Extra initrd members for one program (MEMBER=PROG): kbuild-load -P chain's
# make -> sh -> gcc -> cc1 -> as stages are all chainjob.c, in a directory
# of their own (KBUILD_CHAIN_DIR in bench.h) so that /bin/sh is busybox.
USER_ALIASES += $(foreach s,sh gcc cc1 as,usr/lib/granule/kbuild/$(s)=chainjob)
