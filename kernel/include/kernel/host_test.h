/*
 * kernel/host_test.h - the kernel's side of the host unit-test build
 * (tests/host/, compiled with -DHOST_TEST).
 *
 * A kernel file that defines or calls vsnprintf/snprintf includes this
 * header first, before <kernel/printk.h>.  Under HOST_TEST the kernel's
 * pair is renamed kvsnprintf/ksnprintf so that it does not clash with the
 * host C library's (tests/host/lib/host_lib.h declares the renamed pair and
 * the printf tests compare the two).  The kernel build sees no rename.
 *
 * Functions that only the host tests call carry __host_test_only
 * (kernel/compiler.h).
 */
#ifndef KERNEL_HOST_TEST_H
#define KERNEL_HOST_TEST_H

#ifdef HOST_TEST
#define vsnprintf kvsnprintf
#define snprintf ksnprintf
#endif

#endif
