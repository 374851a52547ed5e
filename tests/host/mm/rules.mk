# tests/host/mm - host unit tests of the frame allocator and the kernel heap.
MM_TEST_COMMON := tests/host/mm/mm_fakes.c kernel/mm/pmm.c

$(eval $(call host_test,mm_pmm,tests/host/mm/test_pmm.c $(MM_TEST_COMMON)))
$(eval $(call host_test,mm_kmalloc,tests/host/mm/test_kmalloc.c $(MM_TEST_COMMON) \
	kernel/mm/kmalloc.c kernel/lib/string.c))

# Headers the recipes above do not list (<arch/irqflags.h> is tests/host/shim's).
$(BUILD)/host/mm_pmm $(BUILD)/host/mm_kmalloc: tests/host/mm/mm_test.h \
	kernel/include/kernel/pmm.h \
	kernel/include/kernel/kmalloc.h kernel/include/kernel/mm.h
