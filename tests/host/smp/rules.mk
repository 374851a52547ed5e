# tests/host/smp - host unit tests of the SMP pieces that are portable:
# per-CPU variables through the shim.
SMP_T := tests/host/smp
$(eval $(call host_test,smp_percpu,$(SMP_T)/test_percpu.c))
