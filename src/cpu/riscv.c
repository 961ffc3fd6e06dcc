/* RISC-V capability probe, in three steps:
 *   1. Linux riscv_hwprobe (syscall 258, key 4): the kernel's word on every
 *      extension (6.8+ reports the scalar crypto ones);
 *   2. AT_HWCAP: only single-letter extensions (V);
 *   3. where hwprobe does not exist (kernels before 6.4, QEMU 7.2 user
 *      mode), a SIGILL probe: execute one instruction of each extension
 *      under a SIGILL handler and see whether it traps.
 * The probe instructions are given as .insn encodings, so this file needs
 * no -march beyond the base ISA. */
#if defined(__linux__)
#define _GNU_SOURCE 1 /* syscall(), sigsetjmp() and sigaction() under -std=c11 */
#endif
#include "internal.h"

#if defined(__riscv)
#if defined(__linux__) && __has_include(<sys/syscall.h>)
#include <sys/syscall.h>
#include <unistd.h>
#define HWC_HAVE_SYSCALL 1
#endif
#if defined(__linux__) && __has_include(<sys/auxv.h>)
#include <sys/auxv.h>
#define HWC_HAVE_AUXV 1
#endif
#if defined(__linux__) && __has_include(<signal.h>) && __has_include(<setjmp.h>)
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#define HWC_HAVE_SIGILL_PROBE 1
#endif

#define HWPROBE_SYSCALL 258
#define HWPROBE_KEY_IMA_EXT_0 4

/* Returns 1 and sets *caps if the kernel answered. */
static int probe_hwprobe(uint64_t *caps_out) {
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
    *caps_out = caps;
    return 1;
#else
    (void)caps_out;
    return 0;
#endif
}

/* V from AT_HWCAP (bit 'V' - 'A'); the kernel sets it only when it also
 * saves vector state. */
static uint64_t probe_hwcap(void) {
#ifdef HWC_HAVE_AUXV
    unsigned long hwcap = getauxval(AT_HWCAP);
    return (hwcap & (1ul << ('V' - 'A'))) ? HWC_CAP_V : 0;
#else
    return 0;
#endif
}

#ifdef HWC_HAVE_SIGILL_PROBE
/*
 * One instruction per extension, chosen so that it belongs to that
 * extension and to no other one probed here (Zbb: max, not in Zbkb; Zbc:
 * clmulr, not in Zbkc; Zbkb: brev8, not in Zbb). Zbkc's clmul is also in
 * Zbc: a core with Zbc reports Zbkc too, which is right for every use of it
 * (clmul and clmulh exist). All read and write a0 only.
 */
static void try_zkne(void) { __asm__ volatile(".insn r 0x33, 0, 0x19, a0, a0, a0" ::: "a0"); }  /* aes64es */
static void try_zknd(void) { __asm__ volatile(".insn r 0x33, 0, 0x1d, a0, a0, a0" ::: "a0"); }  /* aes64ds */
static void try_zksed(void) { __asm__ volatile(".insn r 0x33, 0, 0x18, a0, a0, a0" ::: "a0"); } /* sm4ed bs=0 */
static void try_zbb(void) { __asm__ volatile(".insn r 0x33, 6, 0x05, a0, a0, a0" ::: "a0"); }   /* max */
static void try_zbc(void) { __asm__ volatile(".insn r 0x33, 2, 0x05, a0, a0, a0" ::: "a0"); }   /* clmulr */
static void try_zbkb(void) { __asm__ volatile(".insn i 0x13, 5, a0, a0, 0x687" ::: "a0"); }     /* brev8 */
static void try_zbkc(void) { __asm__ volatile(".insn r 0x33, 1, 0x05, a0, a0, a0" ::: "a0"); }  /* clmul */
static void try_zbkx(void) { __asm__ volatile(".insn r 0x33, 4, 0x14, a0, a0, a0" ::: "a0"); }  /* xperm8 */

static sigjmp_buf probe_jump;

static void on_sigill(int sig) {
    (void)sig;
    siglongjmp(probe_jump, 1);
}

/* The handler is process-wide: two threads probing at once would restore
 * each other's handlers. The first probe of the process is rare and short,
 * so a spin lock is enough. */
static atomic_flag probe_lock = ATOMIC_FLAG_INIT;

static uint64_t probe_sigill(void) {
    static const struct {
        void (*try_insn)(void);
        uint64_t cap;
    } probes[] = {
        {try_zkne, HWC_CAP_ZKNE}, {try_zknd, HWC_CAP_ZKND}, {try_zksed, HWC_CAP_ZKSED},
        {try_zbb, HWC_CAP_ZBB},   {try_zbc, HWC_CAP_ZBC},   {try_zbkb, HWC_CAP_ZBKB},
        {try_zbkc, HWC_CAP_ZBKC}, {try_zbkx, HWC_CAP_ZBKX},
    };
    /* volatile: read after siglongjmp returns to sigsetjmp. */
    volatile uint64_t caps = 0;
    struct sigaction action, previous;
    sigset_t ill, saved_mask;

    while (atomic_flag_test_and_set_explicit(&probe_lock, memory_order_acquire)) {
    }
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigill;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGILL, &action, &previous) != 0) {
        atomic_flag_clear_explicit(&probe_lock, memory_order_release);
        return 0;
    }
    /* A blocked SIGILL from an illegal instruction kills the process. */
    sigemptyset(&ill);
    sigaddset(&ill, SIGILL);
    sigprocmask(SIG_UNBLOCK, &ill, &saved_mask);
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        if (sigsetjmp(probe_jump, 1) == 0) {
            probes[i].try_insn();
            caps |= probes[i].cap;
        }
    }
    sigprocmask(SIG_SETMASK, &saved_mask, NULL);
    sigaction(SIGILL, &previous, NULL);
    atomic_flag_clear_explicit(&probe_lock, memory_order_release);
    return caps;
}
#endif /* HWC_HAVE_SIGILL_PROBE */

uint64_t hwc_cpu_probe_arch(void) {
    uint64_t caps = 0;
    if (probe_hwprobe(&caps))
        return caps | probe_hwcap();
    caps = probe_hwcap();
#ifdef HWC_HAVE_SIGILL_PROBE
    caps |= probe_sigill();
#endif
    return caps;
}
#endif
