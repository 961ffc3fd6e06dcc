/* ABI harness for the back-end kernels.
 *
 * The back ends are C with intrinsics and inline assembly, so the compiler
 * saves what it uses, and the AArch64 AES, GHASH and SM4E loops are
 * assembly (the _bulk.S files of src/arm), which save the d8-d15 they use;
 * what this guards against is inline assembly with a wrong clobber list and
 * a wrong save in hand-written assembly.
 *
 * A trampoline (assembly, below) fills every callee-saved register with
 * random values, calls a kernel, and records the registers after return:
 *   x86-64 System V: rbx, rbp, r12-r15, and rsp;
 *   RISC-V LP64D:    s0-s11, fs0-fs11, and sp;
 *   AArch64 AAPCS64: x19-x29, d8-d15 (the low halves of v8-v15), and sp.
 * Every function pointer of every block back end usable here (found through
 * dispatch by name, for each family and key length) and of the GHASH back
 * ends paired with them (plus ct) is called this way: set_key, usable, every
 * non-NULL kernel at 1, 7 and 40 blocks, GHASH/POLYVAL init and update.  The
 * same call made directly on a copy of the inputs must give the same
 * outputs (so the trampoline really passes the arguments). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "testutil.h"

#if defined(__x86_64__) && defined(__ELF__)
#define ABI_NREGS 6 /* rbx rbp r12 r13 r14 r15 */
static const char *const abi_reg_names[ABI_NREGS] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
#define ABI_SP_NAME "rsp"
#elif defined(__riscv) && __riscv_xlen == 64 && defined(__riscv_flen) && __riscv_flen >= 64
#define ABI_NREGS 24 /* s0-s11, fs0-fs11 */
static const char *const abi_reg_names[ABI_NREGS] = {
    "s0",  "s1",  "s2",  "s3",  "s4",  "s5",  "s6",  "s7",  "s8",   "s9",   "s10", "s11",
    "fs0", "fs1", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11"};
#define ABI_SP_NAME "sp"
#elif defined(__aarch64__) && defined(__ELF__)
#define ABI_NREGS 19 /* x19-x29, d8-d15 */
static const char *const abi_reg_names[ABI_NREGS] = {"x19", "x20", "x21", "x22", "x23", "x24", "x25",
                                                     "x26", "x27", "x28", "x29", "d8",  "d9",  "d10",
                                                     "d11", "d12", "d13", "d14", "d15"};
#define ABI_SP_NAME "sp"
#endif

#ifdef ABI_NREGS
typedef struct abi_frame {
    void (*fn)(void);
    uint64_t args[8];
    uint64_t in[ABI_NREGS];  /* loaded into the callee-saved registers */
    uint64_t out[ABI_NREGS]; /* what they hold after the call */
    uint64_t sp_before, sp_after;
    uint64_t ret; /* rax / a0 / x0 */
} abi_frame;
void abi_trampoline(abi_frame *f);

#if defined(__x86_64__)
_Static_assert(offsetof(abi_frame, in) == 72 && offsetof(abi_frame, out) == 120 &&
                   offsetof(abi_frame, sp_before) == 168 && offsetof(abi_frame, sp_after) == 176 &&
                   offsetof(abi_frame, ret) == 184,
               "the trampoline's offsets");
/* Saves the real callee-saved registers, loads the random ones, passes six
 * register and two stack arguments, calls, stores what came back, then
 * restores rsp from its recorded value (so a kernel that broke it still
 * returns here) and the real registers. */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl abi_trampoline\n"
        ".type abi_trampoline,@function\n"
        "abi_trampoline:\n"
        "  push %rbx\n  push %rbp\n  push %r12\n  push %r13\n  push %r14\n  push %r15\n"
        "  sub $8, %rsp\n"                 /* 16-byte alignment at the call */
        "  mov %rdi, abi_slot(%rip)\n"
        "  mov %rdi, %rax\n"
        "  push 64(%rax)\n  push 56(%rax)\n" /* args[7], args[6] on the stack */
        "  mov 72(%rax), %rbx\n  mov 80(%rax), %rbp\n  mov 88(%rax), %r12\n"
        "  mov 96(%rax), %r13\n  mov 104(%rax), %r14\n  mov 112(%rax), %r15\n"
        "  mov %rsp, 168(%rax)\n"
        "  mov 8(%rax), %rdi\n  mov 16(%rax), %rsi\n  mov 24(%rax), %rdx\n"
        "  mov 32(%rax), %rcx\n  mov 40(%rax), %r8\n  mov 48(%rax), %r9\n"
        "  mov (%rax), %r11\n"
        "  call *%r11\n"
        "  mov abi_slot(%rip), %r11\n"
        "  mov %rax, 184(%r11)\n"
        "  mov %rbx, 120(%r11)\n  mov %rbp, 128(%r11)\n  mov %r12, 136(%r11)\n"
        "  mov %r13, 144(%r11)\n  mov %r14, 152(%r11)\n  mov %r15, 160(%r11)\n"
        "  mov %rsp, 176(%r11)\n"
        "  mov 168(%r11), %rsp\n"
        "  add $24, %rsp\n"
        "  pop %r15\n  pop %r14\n  pop %r13\n  pop %r12\n  pop %rbp\n  pop %rbx\n"
        "  ret\n"
        ".size abi_trampoline, .-abi_trampoline\n"
        ".local abi_slot\n"
        ".comm abi_slot, 8, 8\n"
        /* The harness's own check: a function that breaks rbx. */
        ".globl abi_clobber_first\n"
        ".type abi_clobber_first,@function\n"
        "abi_clobber_first:\n"
        "  mov $0x1234, %rbx\n"
        "  ret\n");
#elif defined(__aarch64__)
_Static_assert(offsetof(abi_frame, in) == 72 && offsetof(abi_frame, out) == 224 &&
                   offsetof(abi_frame, sp_before) == 376 && offsetof(abi_frame, sp_after) == 384 &&
                   offsetof(abi_frame, ret) == 392,
               "the trampoline's offsets");
/* x16/x17 (IP0/IP1) are scratch across the call; the frame pointer is in
 * abi_slot while the kernel runs, since every other register is its to
 * use. */
__asm__(".text\n"
        ".p2align 2\n"
        ".globl abi_trampoline\n"
        ".type abi_trampoline,@function\n"
        "abi_trampoline:\n"
        "  stp x29, x30, [sp, #-160]!\n"
        "  stp x19, x20, [sp, #16]\n  stp x21, x22, [sp, #32]\n  stp x23, x24, [sp, #48]\n"
        "  stp x25, x26, [sp, #64]\n  stp x27, x28, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n"
        "  stp d14, d15, [sp, #144]\n"
        "  adrp x16, abi_slot\n  add x16, x16, :lo12:abi_slot\n  str x0, [x16]\n"
        "  mov x17, x0\n"
        "  ldp x19, x20, [x17, #72]\n  ldp x21, x22, [x17, #88]\n  ldp x23, x24, [x17, #104]\n"
        "  ldp x25, x26, [x17, #120]\n  ldp x27, x28, [x17, #136]\n  ldr x29, [x17, #152]\n"
        "  ldp d8, d9, [x17, #160]\n  ldp d10, d11, [x17, #176]\n  ldp d12, d13, [x17, #192]\n"
        "  ldp d14, d15, [x17, #208]\n"
        "  mov x9, sp\n  str x9, [x17, #376]\n"
        "  ldp x0, x1, [x17, #8]\n  ldp x2, x3, [x17, #24]\n  ldp x4, x5, [x17, #40]\n"
        "  ldp x6, x7, [x17, #56]\n"
        "  ldr x16, [x17]\n"
        "  blr x16\n"
        "  adrp x16, abi_slot\n  add x16, x16, :lo12:abi_slot\n  ldr x17, [x16]\n"
        "  str x0, [x17, #392]\n"
        "  stp x19, x20, [x17, #224]\n  stp x21, x22, [x17, #240]\n  stp x23, x24, [x17, #256]\n"
        "  stp x25, x26, [x17, #272]\n  stp x27, x28, [x17, #288]\n  str x29, [x17, #304]\n"
        "  stp d8, d9, [x17, #312]\n  stp d10, d11, [x17, #328]\n  stp d12, d13, [x17, #344]\n"
        "  stp d14, d15, [x17, #360]\n"
        "  mov x9, sp\n  str x9, [x17, #384]\n"
        "  ldr x9, [x17, #376]\n  mov sp, x9\n"
        "  ldp x19, x20, [sp, #16]\n  ldp x21, x22, [sp, #32]\n  ldp x23, x24, [sp, #48]\n"
        "  ldp x25, x26, [sp, #64]\n  ldp x27, x28, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n"
        "  ldp d14, d15, [sp, #144]\n"
        "  ldp x29, x30, [sp], #160\n"
        "  ret\n"
        ".size abi_trampoline, .-abi_trampoline\n"
        ".local abi_slot\n"
        ".comm abi_slot, 8, 8\n"
        /* The harness's own check: a function that breaks x19. */
        ".globl abi_clobber_first\n"
        ".type abi_clobber_first,@function\n"
        "abi_clobber_first:\n"
        "  mov x19, #0x1234\n"
        "  ret\n");
#else
_Static_assert(offsetof(abi_frame, in) == 72 && offsetof(abi_frame, out) == 264 &&
                   offsetof(abi_frame, sp_before) == 456 && offsetof(abi_frame, sp_after) == 464 &&
                   offsetof(abi_frame, ret) == 472,
               "the trampoline's offsets");
#define RV_SAVE(op, r, off) "  " op " " r ", " off "\n"
__asm__(".text\n"
        ".p2align 2\n"
        ".globl abi_trampoline\n"
        ".type abi_trampoline,@function\n"
        "abi_trampoline:\n"
        "  addi sp, sp, -208\n"
        "  sd ra, 0(sp)\n  sd s0, 8(sp)\n  sd s1, 16(sp)\n  sd s2, 24(sp)\n  sd s3, 32(sp)\n"
        "  sd s4, 40(sp)\n  sd s5, 48(sp)\n  sd s6, 56(sp)\n  sd s7, 64(sp)\n  sd s8, 72(sp)\n"
        "  sd s9, 80(sp)\n  sd s10, 88(sp)\n  sd s11, 96(sp)\n"
        "  fsd fs0, 104(sp)\n  fsd fs1, 112(sp)\n  fsd fs2, 120(sp)\n  fsd fs3, 128(sp)\n"
        "  fsd fs4, 136(sp)\n  fsd fs5, 144(sp)\n  fsd fs6, 152(sp)\n  fsd fs7, 160(sp)\n"
        "  fsd fs8, 168(sp)\n  fsd fs9, 176(sp)\n  fsd fs10, 184(sp)\n  fsd fs11, 192(sp)\n"
        "  lla t0, abi_slot\n  sd a0, 0(t0)\n"
        "  mv t6, a0\n"
        "  ld s0, 72(t6)\n  ld s1, 80(t6)\n  ld s2, 88(t6)\n  ld s3, 96(t6)\n  ld s4, 104(t6)\n"
        "  ld s5, 112(t6)\n  ld s6, 120(t6)\n  ld s7, 128(t6)\n  ld s8, 136(t6)\n  ld s9, 144(t6)\n"
        "  ld s10, 152(t6)\n  ld s11, 160(t6)\n"
        "  fld fs0, 168(t6)\n  fld fs1, 176(t6)\n  fld fs2, 184(t6)\n  fld fs3, 192(t6)\n"
        "  fld fs4, 200(t6)\n  fld fs5, 208(t6)\n  fld fs6, 216(t6)\n  fld fs7, 224(t6)\n"
        "  fld fs8, 232(t6)\n  fld fs9, 240(t6)\n  fld fs10, 248(t6)\n  fld fs11, 256(t6)\n"
        "  sd sp, 456(t6)\n"
        "  ld a1, 16(t6)\n  ld a2, 24(t6)\n  ld a3, 32(t6)\n  ld a4, 40(t6)\n"
        "  ld a5, 48(t6)\n  ld a6, 56(t6)\n  ld a7, 64(t6)\n"
        "  ld t5, 0(t6)\n  ld a0, 8(t6)\n"
        "  jalr t5\n"
        "  lla t0, abi_slot\n  ld t6, 0(t0)\n"
        "  sd a0, 472(t6)\n"
        "  sd s0, 264(t6)\n  sd s1, 272(t6)\n  sd s2, 280(t6)\n  sd s3, 288(t6)\n  sd s4, 296(t6)\n"
        "  sd s5, 304(t6)\n  sd s6, 312(t6)\n  sd s7, 320(t6)\n  sd s8, 328(t6)\n  sd s9, 336(t6)\n"
        "  sd s10, 344(t6)\n  sd s11, 352(t6)\n"
        "  fsd fs0, 360(t6)\n  fsd fs1, 368(t6)\n  fsd fs2, 376(t6)\n  fsd fs3, 384(t6)\n"
        "  fsd fs4, 392(t6)\n  fsd fs5, 400(t6)\n  fsd fs6, 408(t6)\n  fsd fs7, 416(t6)\n"
        "  fsd fs8, 424(t6)\n  fsd fs9, 432(t6)\n  fsd fs10, 440(t6)\n  fsd fs11, 448(t6)\n"
        "  sd sp, 464(t6)\n"
        "  ld sp, 456(t6)\n"
        "  ld ra, 0(sp)\n  ld s0, 8(sp)\n  ld s1, 16(sp)\n  ld s2, 24(sp)\n  ld s3, 32(sp)\n"
        "  ld s4, 40(sp)\n  ld s5, 48(sp)\n  ld s6, 56(sp)\n  ld s7, 64(sp)\n  ld s8, 72(sp)\n"
        "  ld s9, 80(sp)\n  ld s10, 88(sp)\n  ld s11, 96(sp)\n"
        "  fld fs0, 104(sp)\n  fld fs1, 112(sp)\n  fld fs2, 120(sp)\n  fld fs3, 128(sp)\n"
        "  fld fs4, 136(sp)\n  fld fs5, 144(sp)\n  fld fs6, 152(sp)\n  fld fs7, 160(sp)\n"
        "  fld fs8, 168(sp)\n  fld fs9, 176(sp)\n  fld fs10, 184(sp)\n  fld fs11, 192(sp)\n"
        "  addi sp, sp, 208\n"
        "  ret\n"
        ".size abi_trampoline, .-abi_trampoline\n"
        ".local abi_slot\n"
        ".comm abi_slot, 8, 8\n"
        /* The harness's own check: a function that breaks s0. */
        ".globl abi_clobber_first\n"
        ".type abi_clobber_first,@function\n"
        "abi_clobber_first:\n"
        "  li s0, 0x1234\n"
        "  ret\n");
#endif
void abi_clobber_first(void);

/* ---------------------------------------------------------------- calls */

static unsigned long calls;

/* Calls fn(args...) through the trampoline; checks every register. */
static uint64_t abi_call(const char *what, void (*fn)(void), const uint64_t *args, size_t nargs) {
    abi_frame f;
    memset(&f, 0, sizeof f);
    f.fn = fn;
    memcpy(f.args, args, nargs * sizeof args[0]);
    for (size_t i = 0; i < ABI_NREGS; i++)
        f.in[i] = test_rand();
    abi_trampoline(&f);
    calls++;
    for (size_t i = 0; i < ABI_NREGS; i++)
        CHECKF(f.out[i] == f.in[i], "%s: %s was %#llx before the call, %#llx after", what, abi_reg_names[i],
               (unsigned long long)f.in[i], (unsigned long long)f.out[i]);
    CHECKF(f.sp_after == f.sp_before, "%s: %s moved by %lld bytes", what, ABI_SP_NAME,
           (long long)(f.sp_after - f.sp_before));
    return f.ret;
}

#define U(p) ((uint64_t)(uintptr_t)(p))
#define FN(p) ((void (*)(void))(p))

#define MAX_BLOCKS 40
/* Inputs and outputs of one kernel call; `direct` and `tramp` start equal. */
typedef struct io {
    alignas(64) hwc_ks ks;
    alignas(64) hwc_ghash_key hk;
    alignas(16) uint8_t chain[16], chain2[16], L[64][16];
    uint8_t in[MAX_BLOCKS * 16], out[MAX_BLOCKS * 16];
    size_t ret;
} io;

static io direct, tramp;

/* What the call gave, compared between the two runs. */
static void same(const char *what) {
    CHECKF(memcmp(&direct, &tramp, sizeof direct) == 0, "%s: the call through the trampoline gave other results",
           what);
}

static void run_block_impl(const hwc_block_impl *im, size_t key_len) {
    char what[128];
    uint8_t key[32];
    test_rand_bytes(key, sizeof key);
    const hwc_ghash_impl *g = hwc_ghash_for(im);

    /* set_key through both paths. */
    memset(&direct, 0, sizeof direct);
    memset(&tramp, 0, sizeof tramp);
    im->set_key(&direct.ks, key, key_len, 1);
    uint64_t a_set_key[] = {U(&tramp.ks), U(key), key_len, 1};
    snprintf(what, sizeof what, "%s-%zu set_key", im->name, key_len * 8);
    abi_call(what, FN(im->set_key), a_set_key, 4);
    same(what);
    if (im->usable) {
        const char *why = NULL;
        uint64_t a_usable[] = {hwc_caps(), U(&why)};
        snprintf(what, sizeof what, "%s usable", im->name);
        abi_call(what, FN(im->usable), a_usable, 2);
    }
    if (g) {
        uint8_t h[16];
        test_rand_bytes(h, 16);
        g->init(&direct.hk, h);
        memcpy(&tramp.hk, &direct.hk, sizeof direct.hk);
    }

    static const size_t sizes[] = {1, 7, MAX_BLOCKS};
    for (size_t s = 0; s < 3; s++) {
        size_t nb = sizes[s];
        /* Fresh random inputs, the same on both sides. */
        test_rand_bytes(direct.chain, 16);
        test_rand_bytes(direct.chain2, 16);
        test_rand_bytes(&direct.L[0][0], sizeof direct.L);
        test_rand_bytes(direct.in, sizeof direct.in);
        memset(direct.out, 0, sizeof direct.out);
        direct.ret = 0;
        io start = direct;

#define KERNEL(k, direct_call, ...)                                                                                \
    if (im->k) {                                                                                                   \
        direct = start;                                                                                            \
        tramp = start;                                                                                             \
        direct_call;                                                                                               \
        uint64_t a_[] = {__VA_ARGS__};                                                                             \
        snprintf(what, sizeof what, "%s-%zu %s, %zu blocks", im->name, key_len * 8, #k, nb);                      \
        uint64_t r_ = abi_call(what, FN(im->k), a_, sizeof a_ / sizeof a_[0]);                                     \
        if (direct.ret)                                                                                            \
            tramp.ret = (size_t)r_; /* only the fused GCM kernels return something */                             \
        same(what);                                                                                                \
    }
        KERNEL(ecb_enc, im->ecb_enc(&direct.ks, direct.out, direct.in, nb), U(&tramp.ks), U(tramp.out),
               U(tramp.in), nb)
        KERNEL(ecb_dec, im->ecb_dec(&direct.ks, direct.out, direct.in, nb), U(&tramp.ks), U(tramp.out),
               U(tramp.in), nb)
#define CHAIN_KERNEL(k)                                                                                            \
    KERNEL(k, im->k(&direct.ks, direct.chain, direct.out, direct.in, nb), U(&tramp.ks), U(tramp.chain),     \
           U(tramp.out), U(tramp.in), nb)
        CHAIN_KERNEL(cbc_enc)
        CHAIN_KERNEL(cbc_dec)
        CHAIN_KERNEL(cfb_enc)
        CHAIN_KERNEL(cfb_dec)
        CHAIN_KERNEL(ofb)
        CHAIN_KERNEL(ctr128)
        CHAIN_KERNEL(ctr32)
        CHAIN_KERNEL(xts_enc)
        CHAIN_KERNEL(xts_dec)
        KERNEL(cbc_mac, im->cbc_mac(&direct.ks, direct.chain, direct.in, nb), U(&tramp.ks), U(tramp.chain),
               U(tramp.in), nb)
        KERNEL(ocb_enc,
               im->ocb_enc(&direct.ks, (const uint8_t(*)[16])direct.L, 5, direct.chain, direct.chain2, direct.out,
                           direct.in, nb),
               U(&tramp.ks), U(tramp.L), 5, U(tramp.chain), U(tramp.chain2), U(tramp.out), U(tramp.in), nb)
        KERNEL(ocb_dec,
               im->ocb_dec(&direct.ks, (const uint8_t(*)[16])direct.L, 5, direct.chain, direct.chain2, direct.out,
                           direct.in, nb),
               U(&tramp.ks), U(tramp.L), 5, U(tramp.chain), U(tramp.chain2), U(tramp.out), U(tramp.in), nb)
        /* Fused GCM reads the paired GHASH back end's key layout. */
        if (g && im->ghash_name && !strcmp(g->name, im->ghash_name)) {
            KERNEL(gcm_enc,
                   direct.ret = im->gcm_enc(&direct.ks, &direct.hk, direct.chain, direct.chain2, direct.out,
                                            direct.in, nb),
                   U(&tramp.ks), U(&tramp.hk), U(tramp.chain), U(tramp.chain2), U(tramp.out), U(tramp.in), nb)
            KERNEL(gcm_dec,
                   direct.ret = im->gcm_dec(&direct.ks, &direct.hk, direct.chain, direct.chain2, direct.out,
                                            direct.in, nb),
                   U(&tramp.ks), U(&tramp.hk), U(tramp.chain), U(tramp.chain2), U(tramp.out), U(tramp.in), nb)
        }
        KERNEL(ccm_enc, im->ccm_enc(&direct.ks, direct.chain, direct.chain2, direct.out, direct.in, nb),
               U(&tramp.ks), U(tramp.chain), U(tramp.chain2), U(tramp.out), U(tramp.in), nb)
        KERNEL(ccm_dec, im->ccm_dec(&direct.ks, direct.chain, direct.chain2, direct.out, direct.in, nb),
               U(&tramp.ks), U(tramp.chain), U(tramp.chain2), U(tramp.out), U(tramp.in), nb)
#undef CHAIN_KERNEL
#undef KERNEL
    }
}

static void run_ghash_impl(const hwc_ghash_impl *g) {
    char what[96];
    uint8_t h[16];
    test_rand_bytes(h, 16);
    if (g->usable) {
        const char *why = NULL;
        uint64_t a[] = {hwc_caps(), U(&why)};
        snprintf(what, sizeof what, "ghash %s usable", g->name);
        abi_call(what, FN(g->usable), a, 2);
    }
    struct {
        void (*init)(hwc_ghash_key *, const uint8_t *);
        void (*update)(const hwc_ghash_key *, uint8_t *, const uint8_t *, size_t);
        const char *name;
    } pairs[2] = {{g->init, g->update, "ghash"}, {g->polyval_init, g->polyval_update, "polyval"}};
    for (int p = 0; p < 2; p++) {
        if (!pairs[p].init)
            continue;
        memset(&direct, 0, sizeof direct);
        memset(&tramp, 0, sizeof tramp);
        pairs[p].init(&direct.hk, h);
        uint64_t a_init[] = {U(&tramp.hk), U(h)};
        snprintf(what, sizeof what, "%s %s init", g->name, pairs[p].name);
        abi_call(what, FN(pairs[p].init), a_init, 2);
        same(what);
        static const size_t sizes[] = {1, 7, MAX_BLOCKS};
        for (size_t s = 0; s < 3; s++) {
            test_rand_bytes(direct.chain, 16);
            test_rand_bytes(direct.in, sizeof direct.in);
            tramp = direct;
            pairs[p].update(&direct.hk, direct.chain, direct.in, sizes[s]);
            uint64_t a_upd[] = {U(&tramp.hk), U(tramp.chain), U(tramp.in), sizes[s]};
            snprintf(what, sizeof what, "%s %s update, %zu blocks", g->name, pairs[p].name, sizes[s]);
            abi_call(what, FN(pairs[p].update), a_upd, 4);
            same(what);
        }
    }
}

/* The harness must see a broken register: run a function that clobbers the
 * first callee-saved register (rbx / s0) through the trampoline. */
static void self_test(void) {
    abi_frame f;
    memset(&f, 0, sizeof f);
    f.fn = abi_clobber_first;
    for (size_t i = 0; i < ABI_NREGS; i++)
        f.in[i] = 0x5a5a5a5a00000000ull + i;
    abi_trampoline(&f);
    CHECKF(f.out[0] == 0x1234 && f.in[0] != 0x1234, "self-test: a clobbered %s was not seen", abi_reg_names[0]);
    for (size_t i = 1; i < ABI_NREGS; i++)
        CHECKF(f.out[i] == f.in[i], "self-test: %s changed", abi_reg_names[i]);
}

int main(void) {
    self_test();
    const hwc_ghash_impl *ghashes[32];
    size_t nghash = 0, nblock = 0;
    ghashes[nghash++] = hwc_ghash_ct_get();
    for (size_t i = 0; i < hwc_impl_count(); i++) {
        if (hwc_impl_is_ghash(i))
            continue;
        const char *name = hwc_impl_name(i), *why = NULL;
        hwc_family fam = hwc_impl_family(i);
        const hwc_block_impl *im = NULL;
        if (hwc_find_block_impl(fam, name, &im, &why) != HWC_OK) {
            char w[64];
            snprintf(w, sizeof w, "ABI of %s (%s)", name, fam == HWC_FAMILY_AES ? "aes" : "sm4");
            test_skip(w, why ? why : "not available");
            continue;
        }
        nblock++;
        if (fam == HWC_FAMILY_AES) {
            run_block_impl(im, 16);
            run_block_impl(im, 24);
            run_block_impl(im, 32);
        } else {
            run_block_impl(im, 16);
        }
        const hwc_ghash_impl *g = hwc_ghash_for(im);
        int seen = 0;
        for (size_t j = 0; j < nghash; j++)
            seen |= ghashes[j] == g;
        if (g && !seen && nghash < 32)
            ghashes[nghash++] = g;
    }
    for (size_t j = 0; j < nghash; j++)
        if (ghashes[j])
            run_ghash_impl(ghashes[j]);
    printf("test_abi: %zu block back ends, %zu GHASH back ends, %lu calls through the trampoline\n", nblock, nghash,
           calls);
    return test_summary("test_abi");
}
#else
int main(void) {
    printf("SKIP: no ABI trampoline for this architecture (x86-64, rv64 and aarch64 have one)\n");
    return 77;
}
#endif
