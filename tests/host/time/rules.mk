# tests/host/time - host unit tests of the hrtimer queue (kernel/time/hrtimer.c,
# compiled unchanged) against a fake clock and clock event: expiry order and
# the hrtimer_interrupt hang protection, each CPU's queue; the clock event's ns -> counts scale.
TIME_T := tests/host/time
$(eval $(call host_test,time_hrtimer,$(TIME_T)/test_hrtimer.c kernel/time/hrtimer.c kernel/time/tick_sched.c kernel/lib/rbtree.c \
	kernel/printk.c kernel/lib/ratelimit.c kernel/lib/vsprintf.c kernel/lib/string.c \
	tests/host/lib/fake_machine.c tests/host/lib/capture.c))
$(BUILD)/host/time_hrtimer: HOST_CFLAGS += -Itests/host/lib
# alarm()'s rounding and the timeval conversions of <kernel/itimer.h> (kernel/time/itimer.c).
$(eval $(call host_test,time_itimer,$(TIME_T)/test_itimer.c))
