/*
 * Shared by the provider test programs (prov_evp.c, prov_tls.c): the check
 * counters with CHECK, which prints OpenSSL's error queue on a failure, and
 * the knob of slow runs.
 */
#ifndef HWC_PROV_CHECK_H
#define HWC_PROV_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <openssl/err.h>

static unsigned long checks, failures;

#define CHECK(cond, ...)                                \
    do {                                                \
        checks++;                                       \
        if (!(cond)) {                                  \
            failures++;                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__); \
            printf(__VA_ARGS__);                        \
            printf("\n");                               \
            ERR_print_errors_fp(stdout);                \
        }                                               \
    } while (0)

/* HWC_TEST_STRIDE=N with N > 1 marks a slow run (check-valgrind sets it for
 * every test program, as test_properties and test_diff_openssl read it):
 * the provider tests then run fewer rounds. */
static inline int prov_slow_run(void) {
    const char *s = getenv("HWC_TEST_STRIDE");
    return s != NULL && strtol(s, NULL, 10) > 1;
}

#endif /* HWC_PROV_CHECK_H */
