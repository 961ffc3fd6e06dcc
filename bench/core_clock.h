/*
 * The core's clock against the TSC, for the x86 cycle benchmarks
 * (ab_cycles, x86_cycles): the TSC ticks at a fixed rate while the core's
 * clock moves with load and turbo, so a tool that reports cycles divides
 * its TSC figures by the ticks one core cycle takes, measured as a chain
 * of dependent ADDs (one a cycle on every x86 core).
 */
#ifndef HWC_BENCH_CORE_CLOCK_H
#define HWC_BENCH_CORE_CLOCK_H

#include <stdint.h>
#include <x86intrin.h>

static inline uint64_t ticks(void) {
    unsigned aux;
    return __rdtscp(&aux);
}

/* Minimum TSC ticks per core cycle over `rounds` chains of 16,000 ADDs. */
static inline double ticks_per_core_cycle(int rounds) {
    double best = 1e30;
    for (int r = 0; r < rounds; r++) {
        /* Register operands: Golden Cove-class cores fold a chain of
         * add-immediates at rename (measured 0.3 TSC ticks an add there). */
        long x = 0, one = 1;
        const uint64_t a = ticks();
        for (long i = 0; i < 2000; i++)
            __asm__ volatile("add %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\t"
                             "add %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0"
                             : "+r"(x)
                             : "r"(one));
        const double per = (double)(ticks() - a) / 16000;
        if (per < best)
            best = per;
    }
    return best;
}

#endif
