/* 64-bit Arm capability probe: the kernel's AT_HWCAP word (getauxval), which
 * Linux fills from the ID registers it has checked, so a feature it reports
 * is one user space may execute.  AES and PMULL are the Armv8 Crypto
 * Extensions (FEAT_AES, FEAT_PMULL: separate ID fields, so reported
 * separately), SHA3 brings EOR3 (FEAT_SHA3), SM4 brings SM4E/SM4EKEY.
 * AT_HWCAP2 holds only later features (SVE2, SVE-AES, ...) that no back end
 * uses, so it is not read. Without <sys/auxv.h> (not Linux): nothing. */
#include "backend.h"

#if defined(__aarch64__)
#if defined(__linux__) && __has_include(<sys/auxv.h>)
#include <sys/auxv.h>
#define HWC_HAVE_AUXV 1
#endif

/* Linux arch/arm64/include/uapi/asm/hwcap.h (stable ABI). */
#define A64_HWCAP_AES (1ul << 3)
#define A64_HWCAP_PMULL (1ul << 4)
#define A64_HWCAP_SHA3 (1ul << 17)
#define A64_HWCAP_SM4 (1ul << 19)

uint64_t hwc_cpu_probe_arch(void) {
    uint64_t caps = 0;
#ifdef HWC_HAVE_AUXV
    unsigned long hw = getauxval(AT_HWCAP);
    if (hw & A64_HWCAP_AES)
        caps |= HWC_CAP_ARM_AES;
    if (hw & A64_HWCAP_PMULL)
        caps |= HWC_CAP_ARM_PMULL;
    if (hw & A64_HWCAP_SHA3)
        caps |= HWC_CAP_ARM_SHA3;
    if (hw & A64_HWCAP_SM4)
        caps |= HWC_CAP_ARM_SM4;
#endif
    return caps;
}
#endif
