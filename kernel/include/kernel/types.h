/*
 * kernel/types.h - fixed-width integer types shared by the kernel, the host
 * unit tests and (through user/) the user library.
 *
 * Invariant: these sizes are the same on the i686 target and on the x86_64
 * host that runs the unit tests.  Code that must behave like Linux on i686
 * (where 'unsigned long' is 32 bits) uses u32 explicitly instead of long.
 */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

typedef uint8_t  u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t   s8;
typedef int16_t  s16;
typedef int32_t  s32;
typedef int64_t  s64;

typedef u32 phys_addr_t;	/* i686 without PAE: 32-bit physical addresses */

#endif
