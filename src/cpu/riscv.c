/* RISC-V capability probe, in three steps:
 *   1. Linux riscv_hwprobe (syscall 258, key 4): the kernel's word on every
 *      extension (6.8+ reports the scalar crypto ones);
 *   2. AT_HWCAP: only single-letter extensions (V);
 *   3. where hwprobe does not exist (kernels before 6.4, QEMU 7.2 user
 *      mode), a SIGILL probe: execute one instruction of each extension
 *      under a SIGILL handler and see whether it traps (vector crypto
 *      included: without V its vsetivli traps first).
 * The probe instructions are given as .insn encodings, so this file needs
 * no -march beyond the base ISA. */
#if defined(__linux__)
#define _GNU_SOURCE 1 /* syscall(), sigsetjmp() and sigaction() under -std=c11 */
#endif
#include "backend.h"

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
/* HWC_RV_RAW_LINUX: a Linux program whose C library knows nothing of Linux
 * (rv32 with picolibc, cmake/riscv32-elf-picolibc.cmake): hwprobe and the
 * SIGILL probe make their system calls directly (raw_linux_* below). */
#if !defined(__linux__) && defined(HWC_RV_RAW_LINUX)
#include <setjmp.h>
#include <stdatomic.h>
#define HWC_HAVE_RAW_LINUX 1
#endif

#define HWPROBE_SYSCALL 258
#define HWPROBE_KEY_IMA_EXT_0 4

#ifdef HWC_HAVE_RAW_LINUX
/* A Linux system call without a C library's help (a0..a4 in, a0 out). */
static long raw_linux_call(long nr, long a0, long a1, long a2, long a3, long a4) {
    register long r_a0 __asm__("a0") = a0;
    register long r_a1 __asm__("a1") = a1;
    register long r_a2 __asm__("a2") = a2;
    register long r_a3 __asm__("a3") = a3;
    register long r_a4 __asm__("a4") = a4;
    register long r_a7 __asm__("a7") = nr;
    __asm__ volatile("ecall" : "+r"(r_a0) : "r"(r_a1), "r"(r_a2), "r"(r_a3), "r"(r_a4), "r"(r_a7) : "memory");
    return r_a0;
}
#endif

#if defined(HWC_HAVE_SYSCALL) || defined(HWC_HAVE_RAW_LINUX)
/* The HWC_CAP_* bits of hwprobe's IMA_EXT_0 value. */
static uint64_t hwprobe_caps(uint64_t value) {
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
        if (value & (1ull << map[i].bit))
            caps |= map[i].cap;
    return caps;
}
#endif

/* Returns 1 and sets *caps if the kernel answered. */
static int probe_hwprobe(uint64_t *caps_out) {
#if defined(HWC_HAVE_SYSCALL) || defined(HWC_HAVE_RAW_LINUX)
    struct {
        int64_t key;
        uint64_t value;
    } pair = {HWPROBE_KEY_IMA_EXT_0, 0};
#ifdef HWC_HAVE_SYSCALL
    if (syscall(HWPROBE_SYSCALL, &pair, 1, 0, NULL, 0) != 0 || pair.key < 0)
        return 0;
#else
    if (raw_linux_call(HWPROBE_SYSCALL, (long)&pair, 1, 0, 0, 0) != 0 || pair.key < 0)
        return 0;
#endif
    *caps_out = hwprobe_caps(pair.value);
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

#if defined(HWC_HAVE_SIGILL_PROBE) || defined(HWC_HAVE_RAW_LINUX)
/*
 * One instruction per extension, chosen so that it belongs to that
 * extension and to no other one probed here (Zbb: max, not in Zbkb; Zbc:
 * clmulr, not in Zbkc; Zbkb: brev8, not in Zbb). Zbkc's clmul is also in
 * Zbc: a core with Zbc reports Zbkc too, which is right for every use of it
 * (clmul and clmulh exist). All read and write a0 only.
 */
#if __riscv_xlen == 32
static void try_zkne(void) { __asm__ volatile(".insn r 0x33, 0, 0x11, a0, a0, a0" ::: "a0"); }  /* aes32esi bs=0 */
static void try_zknd(void) { __asm__ volatile(".insn r 0x33, 0, 0x15, a0, a0, a0" ::: "a0"); }  /* aes32dsi bs=0 */
#else
static void try_zkne(void) { __asm__ volatile(".insn r 0x33, 0, 0x19, a0, a0, a0" ::: "a0"); }  /* aes64es */
static void try_zknd(void) { __asm__ volatile(".insn r 0x33, 0, 0x1d, a0, a0, a0" ::: "a0"); }  /* aes64ds */
#endif
static void try_zksed(void) { __asm__ volatile(".insn r 0x33, 0, 0x18, a0, a0, a0" ::: "a0"); } /* sm4ed bs=0 */
static void try_zbb(void) { __asm__ volatile(".insn r 0x33, 6, 0x05, a0, a0, a0" ::: "a0"); }   /* max */
static void try_zbc(void) { __asm__ volatile(".insn r 0x33, 2, 0x05, a0, a0, a0" ::: "a0"); }   /* clmulr */
static void try_zbkb(void) { __asm__ volatile(".insn i 0x13, 5, a0, a0, 0x687" ::: "a0"); }     /* brev8 */
static void try_zbkc(void) { __asm__ volatile(".insn r 0x33, 1, 0x05, a0, a0, a0" ::: "a0"); }  /* clmul */
static void try_zbkx(void) { __asm__ volatile(".insn r 0x33, 4, 0x14, a0, a0, a0" ::: "a0"); }  /* xperm8 */
#if __riscv_xlen == 64
/* Vector crypto: each sets vl = 4 32-bit elements (one element group),
 * then runs one instruction of its extension on v8..v11, registers only the
 * vector back ends use. Without V (or with V off in the kernel) the
 * vsetivli itself traps, so none is reported. Zvkb: vrev8, also in Zvbb, so
 * a Zvbb core reports Zvkb too (right: it has every Zvkb instruction);
 * Zvbb: vwsll, not in Zvkb. */
#define TRY_V(insn_word) __asm__ volatile(".4byte 0xcd027057\n\t.4byte " #insn_word) /* vsetivli zero,4,e32,m1,ta,ma */
static void try_zvkned(void) { TRY_V(0xa693a477); } /* vaesz.vs v8, v9 */
static void try_zvkg(void) { TRY_V(0xb2952477); }   /* vghsh.vv v8, v9, v10 */
static void try_zvksed(void) { TRY_V(0xa6982477); } /* vsm4r.vs v8, v9 */
static void try_zvkb(void) { TRY_V(0x4a94a457); }   /* vrev8.v v8, v9 */
static void try_zvbb(void) { TRY_V(0xd6a58457); }   /* vwsll.vv v8, v10, v11 */
static void try_zvbc(void) { TRY_V(0x32952457); }   /* vclmul.vv v8, v9, v10 */
#undef TRY_V
#endif

static const struct {
    void (*try_insn)(void);
    uint64_t cap;
} sigill_probes[] = {
    {try_zkne, HWC_CAP_ZKNE}, {try_zknd, HWC_CAP_ZKND}, {try_zksed, HWC_CAP_ZKSED},
    {try_zbb, HWC_CAP_ZBB},   {try_zbc, HWC_CAP_ZBC},   {try_zbkb, HWC_CAP_ZBKB},
    {try_zbkc, HWC_CAP_ZBKC}, {try_zbkx, HWC_CAP_ZBKX},
#if __riscv_xlen == 64
    {try_zvkned, HWC_CAP_ZVKNED}, {try_zvkg, HWC_CAP_ZVKG}, {try_zvksed, HWC_CAP_ZVKSED},
    {try_zvkb, HWC_CAP_ZVKB},     {try_zvbb, HWC_CAP_ZVBB}, {try_zvbc, HWC_CAP_ZVBC},
#endif
};
#endif

#ifdef HWC_HAVE_SIGILL_PROBE
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
    for (size_t i = 0; i < sizeof sigill_probes / sizeof sigill_probes[0]; i++) {
        if (sigsetjmp(probe_jump, 1) == 0) {
            sigill_probes[i].try_insn();
            caps |= sigill_probes[i].cap;
        }
    }
    sigprocmask(SIG_SETMASK, &saved_mask, NULL);
    sigaction(SIGILL, &previous, NULL);
    atomic_flag_clear_explicit(&probe_lock, memory_order_release);
    return caps;
}
#endif /* HWC_HAVE_SIGILL_PROBE */

#ifdef HWC_HAVE_RAW_LINUX
/*
 * The same probe through rt_sigaction directly (the C library's signal()
 * is a user-space emulation that never sees a hardware trap). The kernel's
 * struct sigaction on RISC-V is {handler, flags, mask} with no restorer
 * (the kernel returns through the vDSO; QEMU through its own trampoline).
 * SA_NODEFER leaves SIGILL unblocked in the handler, so a plain longjmp out
 * of it restores everything a siglongjmp would.
 */
enum { RAW_SIGILL = 4, RAW_SA_NODEFER = 0x40000000, RAW_SIG_UNBLOCK = 1, RAW_SIG_SETMASK = 2 };
enum { RAW_NR_RT_SIGACTION = 134, RAW_NR_RT_SIGPROCMASK = 135 };
typedef struct raw_sigaction {
    void (*handler)(int);
    unsigned long flags;
    uint32_t mask[2];
} raw_sigaction;

static jmp_buf raw_probe_jump;

static void raw_on_sigill(int sig) {
    (void)sig;
    longjmp(raw_probe_jump, 1);
}

static atomic_flag raw_probe_lock = ATOMIC_FLAG_INIT;

/* 1 if the instruction ran. A function of its own, so that no local
 * variable changes between setjmp and the longjmp back to it (their values
 * would be indeterminate: a loop index kept across it skipped probes). */
__attribute__((noinline)) static int raw_try(void (*try_insn)(void)) {
    if (setjmp(raw_probe_jump) != 0)
        return 0;
    try_insn();
    return 1;
}

static uint64_t probe_sigill_raw(void) {
    uint64_t caps = 0;
    raw_sigaction action = {raw_on_sigill, RAW_SA_NODEFER, {0, 0}}, previous;
    uint32_t ill[2] = {1u << (RAW_SIGILL - 1), 0}, saved_mask[2];

    while (atomic_flag_test_and_set_explicit(&raw_probe_lock, memory_order_acquire)) {
    }
    if (raw_linux_call(RAW_NR_RT_SIGACTION, RAW_SIGILL, (long)&action, (long)&previous, 8, 0) != 0) {
        atomic_flag_clear_explicit(&raw_probe_lock, memory_order_release);
        return 0;
    }
    raw_linux_call(RAW_NR_RT_SIGPROCMASK, RAW_SIG_UNBLOCK, (long)ill, (long)saved_mask, 8, 0);
    for (size_t i = 0; i < sizeof sigill_probes / sizeof sigill_probes[0]; i++)
        if (raw_try(sigill_probes[i].try_insn))
            caps |= sigill_probes[i].cap;
    raw_linux_call(RAW_NR_RT_SIGPROCMASK, RAW_SIG_SETMASK, (long)saved_mask, 0, 8, 0);
    raw_linux_call(RAW_NR_RT_SIGACTION, RAW_SIGILL, (long)&previous, 0, 8, 0);
    atomic_flag_clear_explicit(&raw_probe_lock, memory_order_release);
    return caps;
}
#endif /* HWC_HAVE_RAW_LINUX */

uint64_t hwc_cpu_probe_arch(void) {
    uint64_t caps = 0;
    if (probe_hwprobe(&caps))
        return caps | probe_hwcap();
    caps = probe_hwcap();
#ifdef HWC_HAVE_SIGILL_PROBE
    caps |= probe_sigill();
#elif defined(HWC_HAVE_RAW_LINUX)
    caps |= probe_sigill_raw();
#endif
    return caps;
}
#endif
