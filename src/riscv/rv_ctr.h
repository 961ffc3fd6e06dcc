/*
 * The CTR counter of the scalar RISC-V back ends (rv64 and rv32): the 16
 * counter bytes as two native big-endian halves, advanced over the whole
 * 128 bits (ctr128, CCM) or over the last 32 only (ctr32, GCM). Included by
 * riscv_internal.h and riscv32_internal.h, after RV_INLINE.
 */
#ifndef HWC_RV_CTR_H
#define HWC_RV_CTR_H

#include <stdint.h>

/* The counter as a native big-endian value: hi = bytes 0..7, lo = 8..15. */
typedef struct ctr_value {
    uint64_t hi, lo;
} ctr_value;

/* Add n to the counter: the whole 128 bits, or only the last 32 (GCM). */
RV_INLINE void ctr_advance(ctr_value *c, uint64_t n, int wide) {
    if (wide) {
        uint64_t lo = c->lo + n;
        c->hi += lo < n;
        c->lo = lo;
    } else {
        c->lo = (c->lo & ~(uint64_t)0xFFFFFFFF) | (uint32_t)(c->lo + n);
    }
}

#endif /* HWC_RV_CTR_H */
