/* x86-64 capability probe: cpuid leaves 1 and 7, and xgetbv to check the OS
 * saves the YMM registers (without that, AVX instructions fault). */
#include "backend.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t read_xcr0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

uint64_t hwc_cpu_probe_arch(void) {
    unsigned a, b, c, d;
    uint64_t caps = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (c & bit_AES)
        caps |= HWC_CAP_AESNI;
    if (c & bit_PCLMUL)
        caps |= HWC_CAP_PCLMUL;
    if (c & bit_SSSE3)
        caps |= HWC_CAP_SSSE3;
    if (c & bit_SSE4_1)
        caps |= HWC_CAP_SSE41;
    int os_ymm = 0, os_zmm = 0;
    if ((c & bit_OSXSAVE) && (c & bit_AVX)) {
        uint64_t xcr0 = read_xcr0();
        os_ymm = (xcr0 & 0x6) == 0x6;
        os_zmm = (xcr0 & 0xe6) == 0xe6;
    }
    if (os_ymm)
        caps |= HWC_CAP_AVX;
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (os_ymm && (b & bit_AVX2))
            caps |= HWC_CAP_AVX2;
        if (os_ymm && (c & bit_VAES))
            caps |= HWC_CAP_VAES;
        if (os_ymm && (c & bit_VPCLMULQDQ))
            caps |= HWC_CAP_VPCLMUL;
        if (os_zmm && (b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL))
            caps |= HWC_CAP_AVX512;
        /* The GFNI kernels use its VEX (ymm) and EVEX (zmm) forms, which
         * need the registers' state saved; AVX512 covers the zmm ones. */
        if (os_ymm && (c & bit_GFNI))
            caps |= HWC_CAP_GFNI;
    }
    return caps;
}
#endif
