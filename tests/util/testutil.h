/* Shared helpers for hwcrypt's test programs: counted checks, hex, back-end
 * iteration.  Every program ends with test_summary(), which prints the line
 * "N passed, N failed, N skipped" and returns the exit code: a failure, or a
 * program that checked nothing, is an error. */
#ifndef HWC_TESTUTIL_H
#define HWC_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwcrypt/hwcrypt.h"

extern unsigned long test_passed, test_failed, test_skipped;

/* Record one check; prints the failing expression with file:line. */
int test_check(int ok, const char *expr, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define CHECK(cond) test_check(!!(cond), #cond, __FILE__, __LINE__, NULL)
#define CHECKF(cond, ...) test_check(!!(cond), #cond, __FILE__, __LINE__, __VA_ARGS__)
/* Compare two byte strings; on mismatch prints both in hex. */
int test_check_mem(const void *got, const void *want, size_t len, const char *what,
                   const char *file, int line);
#define CHECK_MEM(got, want, len, what) test_check_mem(got, want, len, what, __FILE__, __LINE__)
#define CHECK_RC(expr, want)                                                          \
    do {                                                                               \
        int rc__ = (expr);                                                             \
        test_check(rc__ == (want), #expr, __FILE__, __LINE__, "returned %d (%s), want %d (%s)", \
                   rc__, hwc_strerror(rc__), (int)(want), hwc_strerror(want));           \
    } while (0)

/* A case that cannot run here: counted and printed as SKIP, never as passed. */
void test_skip(const char *what, const char *why);

/* Print the summary line and return the process exit status. */
int test_summary(const char *program);

/* Hex: decode into a malloc'd buffer (*len bytes); NULL on bad hex.
 * Accepts upper/lower case; an empty string gives a non-NULL 1-byte buffer, len 0. */
uint8_t *test_unhex(const char *hex, size_t *len);
void test_hex(char *out, const uint8_t *in, size_t len); /* out: 2*len+1 */

/* Back ends: calls fn for every block back end of `family` that is
 * available here (and prints SKIP with the reason for the others). Returns
 * the number of back ends run. If HWC_TEST_IMPL is set in the environment,
 * only that back end runs. */
typedef void (*test_impl_fn)(const char *impl, void *arg);
int test_each_impl(hwc_family family, test_impl_fn fn, void *arg);

/* Deterministic PRNG (xorshift) for reproducible random tests; seed from
 * HWC_TEST_SEED if set (printed by test_summary). */
void test_rand_seed(uint64_t seed);
uint64_t test_rand(void);
void test_rand_bytes(uint8_t *p, size_t n);

#endif
