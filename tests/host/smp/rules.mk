# tests/host/smp - host unit tests of the SMP pieces that are portable: the
# MADT and MP-table parsers (arch/x86/madt.c, mptable.c, compiled
# unchanged; <arch/mpspec.h> comes from arch/x86/include, searched after
# tests/host/shim), the ticket spinlock (the kernel's own instructions,
# which build on x86-64 too), per-CPU variables through the shim and the
# lock validator (kernel/lockdep.c).
SMP_T := tests/host/smp
$(eval $(call host_test,smp_madt,$(SMP_T)/test_madt.c arch/x86/madt.c kernel/lib/string.c))
$(eval $(call host_test,smp_mptable,$(SMP_T)/test_mptable.c arch/x86/mptable.c kernel/lib/string.c))
$(eval $(call host_test,smp_spinlock,$(SMP_T)/test_spinlock.c))
$(eval $(call host_test,smp_percpu,$(SMP_T)/test_percpu.c))

$(BUILD)/host/smp_madt $(BUILD)/host/smp_mptable: HOST_CFLAGS += -Iarch/x86/include
$(BUILD)/host/smp_madt $(BUILD)/host/smp_mptable: arch/x86/include/arch/mpspec.h $(SMP_T)/tables.h
$(BUILD)/host/smp_spinlock: arch/x86/include/arch/spinlock.h arch/x86/include/arch/barrier.h
$(BUILD)/host/smp_spinlock: HOST_LIBS += -lpthread
# the lock validator's graph (kernel/lockdep.c, pure), printk captured by the test
$(eval $(call host_test,smp_lockdep,$(SMP_T)/test_lockdep.c kernel/lockdep.c))
