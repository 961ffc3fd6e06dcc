/* RISC-V capability probe.  Linux riscv_hwprobe (6.8+ reports the crypto
 * extensions) comes first; AT_HWCAP only carries single-letter extensions
 * (V).  The scalar-crypto SIGILL probe for kernels and emulators without
 * hwprobe (QEMU 7.2 user mode) arrives with the RISC-V back ends. */
#include "internal.h"

#if defined(__riscv)
#if defined(__linux__) && __has_include(<sys/syscall.h>)
#include <sys/syscall.h>
#include <unistd.h>
#define HWC_HAVE_SYSCALL 1
#endif

#define HWPROBE_SYSCALL 258
#define HWPROBE_KEY_IMA_EXT_0 4

static uint64_t probe_hwprobe(void) {
#ifdef HWC_HAVE_SYSCALL
    struct {
        int64_t key;
        uint64_t value;
    } pair = {HWPROBE_KEY_IMA_EXT_0, 0};
    if (syscall(HWPROBE_SYSCALL, &pair, 1, 0, NULL, 0) != 0 || pair.key < 0)
        return 0;
    static const struct {
        unsigned bit;
        uint64_t cap;
    } map[] = {
        {2, HWC_CAP_V},      {4, HWC_CAP_ZBB},    {7, HWC_CAP_ZBC},    {8, HWC_CAP_ZBKB},
        {9, HWC_CAP_ZBKC},   {10, HWC_CAP_ZBKX},  {11, HWC_CAP_ZKND},  {12, HWC_CAP_ZKNE},
        {14, HWC_CAP_ZKSED}, {17, HWC_CAP_ZVBB},  {18, HWC_CAP_ZVBC},  {19, HWC_CAP_ZVKB},
        {20, HWC_CAP_ZVKG},  {21, HWC_CAP_ZVKNED}, {24, HWC_CAP_ZVKSED},
    };
    uint64_t caps = 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (pair.value & (1ull << map[i].bit))
            caps |= map[i].cap;
    return caps;
#else
    return 0;
#endif
}

uint64_t hwc_cpu_probe_arch(void) { return probe_hwprobe(); }
#endif
