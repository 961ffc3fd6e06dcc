/* Architectures without a probe of their own: portable code only. */
#include "backend.h"

#if !defined(__x86_64__) && !defined(__i386__) && !defined(__riscv) && !defined(__aarch64__)
uint64_t hwc_cpu_probe_arch(void) { return 0; }
#endif
