/* limits.h - integer limits of the i386 ILP32 ABI (int, long, pointers: 32 bits). */
#ifndef _LIMITS_H
#define _LIMITS_H

#define CHAR_BIT	8
#define SCHAR_MIN	(-128)
#define SCHAR_MAX	127
#define UCHAR_MAX	255
#define CHAR_MIN	SCHAR_MIN	/* char is signed on i386 */
#define CHAR_MAX	SCHAR_MAX
#define SHRT_MIN	(-32768)
#define SHRT_MAX	32767
#define USHRT_MAX	65535
#define INT_MIN		(-INT_MAX - 1)
#define INT_MAX		2147483647
#define UINT_MAX	4294967295u
#define LONG_MIN	(-LONG_MAX - 1L)
#define LONG_MAX	__LONG_MAX__
#define ULONG_MAX	(LONG_MAX * 2UL + 1UL)
#define LLONG_MIN	(-LLONG_MAX - 1LL)
#define LLONG_MAX	9223372036854775807LL
#define ULLONG_MAX	18446744073709551615ULL
#define SSIZE_MAX	LONG_MAX
#define PATH_MAX	256

#endif
