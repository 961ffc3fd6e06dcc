/* icount: a QEMU TCG plugin that counts executed guest instructions and,
 * optionally, misaligned memory accesses.
 *
 * It declares the few plugin entry points it uses itself, because no Debian
 * package ships qemu-plugin.h. These entry points have the same signatures in
 * QEMU 7.2 and 10.0; only the accepted API version differs.
 *
 * Build:  cc -O2 -shared -fPIC -DPLUGIN_API=1 -o icount.so icount.c     (QEMU 7.x, 8.x)
 *         cc -O2 -shared -fPIC -DPLUGIN_API=4 -o icount-v4.so icount.c  (QEMU 9.x, 10.x)
 * Use:    qemu-riscv64 -cpu rv64,zkne=true,zknd=true \
 *             -plugin ./icount.so,lo=0x10000,hi=0x20000,hist=on,misalign=on,out=FILE \
 *             -d plugin ./prog
 * Options:
 *   lo=, hi=     count only instructions whose address is in [lo, hi)
 *                (take a function's range from `nm -S`; use a static, non-PIE binary)
 *   range=A-B    like lo=A,hi=B; may be given up to 64 times, and then an
 *                instruction counts if it lies in any of the ranges
 *   hist=on      per-mnemonic histogram
 *   misalign=on  count data accesses whose address is not a multiple of their size,
 *                made by instructions inside [lo, hi)
 *   where=on     with misalign=on, also list the addresses of the instructions that
 *                made misaligned accesses ("misaligned-at: 0xPC N", up to 256 of them)
 *   out=FILE     write the report to FILE instead of QEMU's log
 * Report lines:  "insns: N", "mem: N", "misaligned: N", the misaligned-at lines,
 * then the histogram.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*vcpu_udata_cb_t)(unsigned int vcpu_index, void *udata);
typedef void (*udata_cb_t)(qemu_plugin_id_t, void *udata);
typedef void (*mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                         uint64_t vaddr, void *udata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *, vcpu_udata_cb_t,
                                          enum qemu_plugin_cb_flags, void *);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *, mem_cb_t,
                                      enum qemu_plugin_cb_flags, enum qemu_plugin_mem_rw,
                                      void *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, udata_cb_t, void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *);
char *qemu_plugin_insn_disas(const struct qemu_plugin_insn *);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t);
void qemu_plugin_outs(const char *);

#ifndef PLUGIN_API
#define PLUGIN_API 1
#endif
EXPORT int qemu_plugin_version = PLUGIN_API;

#define MAX_MNEMONICS 1024

#define MAX_RANGES 64

static uint64_t lo, hi = UINT64_MAX;
static uint64_t range_lo[MAX_RANGES], range_hi[MAX_RANGES];
static int n_ranges;
static int want_hist, want_misalign, want_where;
static const char *out_path;
static uint64_t n_insns, n_mem, n_misaligned;
static char *mnemonic[MAX_MNEMONICS];
static uint64_t mnemonic_count[MAX_MNEMONICS];
static int n_mnemonics;

#define MAX_WHERE 256
static uint64_t where_pc[MAX_WHERE], where_count[MAX_WHERE];
static int n_where;

/* One per translated block: how many of its instructions lie in range, and
 * (with hist=on) the mnemonic id of each. */
struct tb_info {
    uint32_t n;
    uint16_t id[];
};

/* QEMU's disassembly may start with the instruction's bytes in hex
 * ("0020b023  sd ra,0(ra)"); skip that field, but only when it is at least
 * four hex digits long and followed by a blank: "add a3,a3,s4" starts with
 * hex letters too. */
static int mnemonic_id(const char *disas)
{
    const char *p = disas;
    while (*p && strchr("0123456789abcdefABCDEF", *p))
        p++;
    if (p - disas >= 4 && (*p == ' ' || *p == '\t'))
        while (*p == ' ' || *p == '\t')
            p++;
    else
        p = disas;
    char m[32];
    int i = 0;
    while (p[i] && p[i] != ' ' && p[i] != '\t' && i < 31) {
        m[i] = p[i];
        i++;
    }
    m[i] = 0;
    for (int k = 0; k < n_mnemonics; k++)
        if (!strcmp(mnemonic[k], m))
            return k;
    if (n_mnemonics == MAX_MNEMONICS)
        return MAX_MNEMONICS - 1;
    mnemonic[n_mnemonics] = strdup(m);
    return n_mnemonics++;
}

static int in_range(uint64_t pc)
{
    if (pc < lo || pc >= hi)
        return 0;
    if (!n_ranges)
        return 1;
    for (int i = 0; i < n_ranges; i++)
        if (pc >= range_lo[i] && pc < range_hi[i])
            return 1;
    return 0;
}

static void on_tb_exec(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    struct tb_info *t = udata;
    n_insns += t->n;
    if (want_hist)
        for (uint32_t i = 0; i < t->n; i++)
            mnemonic_count[t->id[i]]++;
}

/* udata is the instruction's address (where=on) */
static void note_where(uint64_t pc)
{
    for (int i = 0; i < n_where; i++)
        if (where_pc[i] == pc) {
            where_count[i]++;
            return;
        }
    if (n_where < MAX_WHERE) {
        where_pc[n_where] = pc;
        where_count[n_where++] = 1;
    }
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)vcpu;
    uint64_t size = 1ull << qemu_plugin_mem_size_shift(info);
    n_mem++;
    if (vaddr & (size - 1)) {
        n_misaligned++;
        if (want_where)
            note_where((uint64_t)(uintptr_t)udata);
    }
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    struct tb_info *t = malloc(sizeof *t + n * sizeof t->id[0]);
    t->n = 0;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (!in_range(pc))
            continue;
        if (want_hist) {
            char *d = qemu_plugin_insn_disas(insn);
            t->id[t->n] = (uint16_t)mnemonic_id(d);
            free(d);
        }
        if (want_misalign)
            qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, (void *)(uintptr_t)pc);
        t->n++;
    }
    if (t->n)
        qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);
    else
        free(t);
}

static int by_count_desc(const void *a, const void *b)
{
    uint64_t x = mnemonic_count[*(const int *)a], y = mnemonic_count[*(const int *)b];
    return x < y ? 1 : x > y ? -1 : 0;
}

static void emit(FILE *f, const char *line)
{
    if (f)
        fputs(line, f);
    else
        qemu_plugin_outs(line);
}

static void on_plugin_exit(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    char line[256];
    FILE *f = out_path ? fopen(out_path, "w") : NULL;
    snprintf(line, sizeof line, "insns: %" PRIu64 "\n", n_insns);
    emit(f, line);
    if (want_misalign) {
        snprintf(line, sizeof line, "mem: %" PRIu64 "\nmisaligned: %" PRIu64 "\n", n_mem,
                 n_misaligned);
        emit(f, line);
        for (int i = 0; i < n_where; i++) {
            snprintf(line, sizeof line, "misaligned-at: 0x%" PRIx64 " %" PRIu64 "\n", where_pc[i],
                     where_count[i]);
            emit(f, line);
        }
    }
    if (want_hist) {
        int order[MAX_MNEMONICS];
        for (int i = 0; i < n_mnemonics; i++)
            order[i] = i;
        qsort(order, n_mnemonics, sizeof order[0], by_count_desc);
        for (int i = 0; i < n_mnemonics; i++) {
            if (!mnemonic_count[order[i]])
                continue;
            snprintf(line, sizeof line, "  %-14s %" PRIu64 "\n", mnemonic[order[i]],
                     mnemonic_count[order[i]]);
            emit(f, line);
        }
    }
    if (f)
        fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "lo=", 3))
            lo = strtoull(a + 3, NULL, 0);
        else if (!strncmp(a, "hi=", 3))
            hi = strtoull(a + 3, NULL, 0);
        else if (!strncmp(a, "range=", 6) && n_ranges < MAX_RANGES) {
            char *end;
            range_lo[n_ranges] = strtoull(a + 6, &end, 0);
            if (*end != '-') {
                fprintf(stderr, "icount: range=A-B expected, got %s\n", a);
                return -1;
            }
            range_hi[n_ranges++] = strtoull(end + 1, NULL, 0);
        } else if (!strcmp(a, "hist=on"))
            want_hist = 1;
        else if (!strcmp(a, "misalign=on"))
            want_misalign = 1;
        else if (!strcmp(a, "where=on"))
            want_where = 1;
        else if (!strncmp(a, "out=", 4))
            out_path = a + 4;
        else {
            fprintf(stderr, "icount: unknown option %s\n", a);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
    qemu_plugin_register_atexit_cb(id, on_plugin_exit, NULL);
    return 0;
}
