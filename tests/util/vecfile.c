/* Test-vector file reader: see vecfile.h. */
#include "vecfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HWC_VECTOR_DIR
#define HWC_VECTOR_DIR "tests/vectors"
#endif

struct vec_field {
    char *name;
    char *value;
    /* decoded caches */
    int bytes_state; /* 0 not tried, 1 ok, -1 bad */
    uint8_t *bytes;
    size_t bytes_len;
    int bits_state;
    uint8_t *bits;
    size_t nbits;
};

struct vec_param {
    vec_field f;
    vec_param *next; /* older parameter in force */
    vec_param *all;  /* every parameter of the file, for vec_free */
};

static int vec_strcasecmp(const char *a, const char *b) {
    for (;; a++, b++) {
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca != cb || ca == 0)
            return ca - cb;
    }
}
#define strcasecmp vec_strcasecmp

static char *vec_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ------------------------------------------------------------- arena */

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} arena_chunk;

static void *arena_alloc(vec_file *f, size_t n) {
    n = (n + 15) & ~(size_t)15;
    arena_chunk *c = f->arena;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        arena_chunk *nc = malloc(sizeof *nc + cap);
        if (!nc) {
            fprintf(stderr, "vecfile: out of memory\n");
            abort();
        }
        nc->used = 0;
        nc->cap = cap;
        if (c && n > 65536) { /* keep the partly used chunk in front */
            nc->next = c->next;
            c->next = nc;
            nc->used = n;
            return nc->data;
        }
        nc->next = c;
        f->arena = c = nc;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

static void arena_free(vec_file *f) {
    arena_chunk *c = f->arena;
    while (c) {
        arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    f->arena = NULL;
}

/* ------------------------------------------------------------ loading */

char *vec_read_file(const char *relpath, size_t *len) {
    size_t plen = strlen(HWC_VECTOR_DIR) + 1 + strlen(relpath) + 1;
    char *path = malloc(plen);
    if (!path)
        return NULL;
    snprintf(path, plen, "%s/%s", HWC_VECTOR_DIR, relpath);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "vecfile: cannot open %s: %s\n", path, strerror(errno));
        free(path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (cap - n < 4096) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0)
            break;
    }
    int err = ferror(fp);
    fclose(fp);
    if (!buf || err) {
        fprintf(stderr, "vecfile: cannot read %s\n", path);
        free(buf);
        free(path);
        return NULL;
    }
    free(path);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        e--;
    *e = 0;
    return s;
}

typedef struct block {
    vec_field *f;
    size_t n, cap;
    unsigned long line;
    int has_start;
} block;

typedef struct parser {
    vec_file *file;
    vec_param *params;
    const char *section;
    size_t rec_cap;
    const char *start_key; /* NULL: every block is a record */
} parser;

static void block_add(block *b, char *name, char *value, unsigned long line) {
    if (b->n == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 16;
        vec_field *nf = realloc(b->f, nc * sizeof *nf);
        if (!nf) {
            fprintf(stderr, "vecfile: out of memory\n");
            abort();
        }
        b->f = nf;
        b->cap = nc;
    }
    if (b->n == 0)
        b->line = line;
    memset(&b->f[b->n], 0, sizeof b->f[b->n]);
    b->f[b->n].name = name;
    b->f[b->n].value = value;
    b->n++;
}

static void push_param(parser *p, char *name, char *value) {
    vec_param *np = arena_alloc(p->file, sizeof *np);
    memset(np, 0, sizeof *np);
    np->f.name = name;
    np->f.value = value;
    np->next = p->params;
    p->params = np;
    np->all = p->file->params_all;
    p->file->params_all = np;
}

static void flush(parser *p, block *b) {
    if (b->n == 0)
        return;
    vec_file *f = p->file;
    if (!p->start_key || b->has_start) {
        if (f->nrec == p->rec_cap) {
            size_t nc = p->rec_cap ? p->rec_cap * 2 : 64;
            vec_record *nr = realloc(f->rec, nc * sizeof *nr);
            if (!nr) {
                fprintf(stderr, "vecfile: out of memory\n");
                abort();
            }
            f->rec = nr;
            p->rec_cap = nc;
        }
        vec_record *r = &f->rec[f->nrec];
        r->file = f->path;
        r->line = b->line;
        r->index = f->nrec;
        r->section = p->section;
        r->nfields = b->n;
        r->fields = arena_alloc(f, b->n * sizeof *r->fields);
        memcpy(r->fields, b->f, b->n * sizeof *r->fields);
        r->params = p->params;
        f->nrec++;
    } else {
        for (size_t i = 0; i < b->n; i++)
            push_param(p, b->f[i].name, b->f[i].value);
    }
    b->n = 0;
    b->has_start = 0;
}

vec_file *vec_load(const char *relpath, vec_format fmt) {
    size_t len;
    char *text = vec_read_file(relpath, &len);
    if (!text)
        return NULL;
    vec_file *f = calloc(1, sizeof *f);
    if (!f) {
        free(text);
        return NULL;
    }
    f->text = text;
    f->path = vec_strdup(relpath);

    parser p = {0};
    p.file = f;
    char sep = '=';
    switch (fmt) {
    case VEC_CAVP: p.start_key = "COUNT"; break;
    case VEC_DKG: p.start_key = "N"; break;
    case VEC_EVP: p.start_key = "Cipher"; break;
    case VEC_BORINGSSL: p.start_key = "KEY"; sep = ':'; break;
    case VEC_BOTAN: p.start_key = NULL; break;
    }

    block b = {0};
    unsigned long lineno = 0;
    char *s = text;
    while (*s) {
        char *eol = strchr(s, '\n');
        char *next = eol ? eol + 1 : s + strlen(s);
        if (eol)
            *eol = 0;
        lineno++;
        char *line = trim(s);
        s = next;

        if (*line == 0) {
            flush(&p, &b);
            continue;
        }
        if (*line == '#')
            continue;
        size_t ll = strlen(line);
        if (line[0] == '[' && line[ll - 1] == ']') {
            flush(&p, &b);
            line[ll - 1] = 0;
            char *item = line + 1;
            while (item) {
                char *comma = strchr(item, ',');
                if (comma)
                    *comma = 0;
                char *eq = strchr(item, '=');
                if (eq) {
                    *eq = 0;
                    push_param(&p, trim(item), trim(eq + 1));
                } else if (*trim(item)) {
                    p.section = trim(item);
                }
                item = comma ? comma + 1 : NULL;
            }
            continue;
        }
        char *name = line, *value;
        char *sp = strchr(line, sep);
        if (sp) {
            *sp = 0;
            name = trim(line);
            value = trim(sp + 1);
        } else {
            value = line + ll; /* "" */
        }
        int is_start = p.start_key && strcasecmp(name, p.start_key) == 0;
        if (is_start && b.n > 0)
            flush(&p, &b);
        block_add(&b, name, value, lineno);
        if (is_start)
            b.has_start = 1;
    }
    flush(&p, &b);
    free(b.f);
    return f;
}

void vec_free(vec_file *f) {
    if (!f)
        return;
    for (size_t i = 0; i < f->nrec; i++) {
        for (size_t j = 0; j < f->rec[i].nfields; j++) {
            free(f->rec[i].fields[j].bytes);
            free(f->rec[i].fields[j].bits);
        }
    }
    /* parameters live in the arena; their decoded caches do not */
    for (vec_param *p = f->params_all; p; p = p->all) {
        free(p->f.bytes);
        free(p->f.bits);
    }
    free(f->rec);
    free(f->text);
    free(f->path);
    arena_free(f);
    free(f);
}

/* ------------------------------------------------------------- lookup */

static vec_field *find(const vec_record *r, const char *name, int own_only) {
    for (size_t i = 0; i < r->nfields; i++)
        if (strcasecmp(r->fields[i].name, name) == 0)
            return &r->fields[i];
    if (own_only)
        return NULL;
    for (vec_param *p = r->params; p; p = p->next)
        if (strcasecmp(p->f.name, name) == 0)
            return &p->f;
    return NULL;
}

const char *vec_get(const vec_record *r, const char *name) {
    vec_field *f = find(r, name, 0);
    return f ? f->value : NULL;
}

int vec_has_field(const vec_record *r, const char *name) {
    return find(r, name, 1) != NULL;
}

const char *vec_field_name(const vec_record *r, size_t i) {
    return i < r->nfields ? r->fields[i].name : NULL;
}

const char *vec_field_value(const vec_record *r, size_t i) {
    return i < r->nfields ? r->fields[i].value : NULL;
}

long long vec_int(const vec_record *r, const char *name, long long def) {
    const char *v = vec_get(r, name);
    if (!v)
        return def;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 0);
    if (end == v || errno) {
        fprintf(stderr, "vecfile: %s: %s = '%s' is not a number\n", vec_where(r), name, v);
        return -1;
    }
    return x;
}

int vec_u64(const vec_record *r, const char *name, uint64_t *out) {
    const char *v = vec_get(r, name);
    *out = 0;
    if (!v)
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno) {
        fprintf(stderr, "vecfile: %s: %s = '%s' is not a number\n", vec_where(r), name, v);
        return -1;
    }
    *out = x;
    return 0;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static uint8_t empty_buf[1];

static int decode_bytes(vec_field *f) {
    const char *v = f->value;
    size_t n = strlen(v);
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
        /* quoted ASCII (BoringSSL); no escapes in our files, but accept \\ and \" */
        uint8_t *out = malloc(n);
        if (!out)
            return -1;
        size_t k = 0;
        for (size_t i = 1; i + 1 < n; i++) {
            if (v[i] == '\\' && i + 2 < n)
                i++;
            out[k++] = (uint8_t)v[i];
        }
        f->bytes = out;
        f->bytes_len = k;
        return 0;
    }
    if (n % 2)
        return -1;
    uint8_t *out = malloc(n / 2 + 1);
    if (!out)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval((unsigned char)v[2 * i]), lo = hexval((unsigned char)v[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(out);
            return -1;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    f->bytes = out;
    f->bytes_len = n / 2;
    return 0;
}

const uint8_t *vec_bytes(const vec_record *r, const char *name, size_t *len) {
    vec_field *f = find(r, name, 0);
    *len = 0;
    if (!f) {
        fprintf(stderr, "vecfile: %s: no field %s\n", vec_where(r), name);
        return NULL;
    }
    if (f->bytes_state == 0)
        f->bytes_state = decode_bytes(f) == 0 ? 1 : -1;
    if (f->bytes_state < 0) {
        fprintf(stderr, "vecfile: %s: %s = '%.40s' is not hex\n", vec_where(r), name, f->value);
        return NULL;
    }
    *len = f->bytes_len;
    return f->bytes_len ? f->bytes : empty_buf;
}

const uint8_t *vec_bits(const vec_record *r, const char *name, size_t *nbits) {
    vec_field *f = find(r, name, 0);
    *nbits = 0;
    if (!f) {
        fprintf(stderr, "vecfile: %s: no field %s\n", vec_where(r), name);
        return NULL;
    }
    if (f->bits_state == 0) {
        size_t n = strlen(f->value);
        uint8_t *out = calloc(n / 8 + 1, 1);
        f->bits_state = out ? 1 : -1;
        for (size_t i = 0; out && i < n; i++) {
            if (f->value[i] != '0' && f->value[i] != '1') {
                f->bits_state = -1;
                break;
            }
            vec_bit_set(out, i, f->value[i] == '1');
        }
        if (f->bits_state > 0) {
            f->bits = out;
            f->nbits = n;
        } else {
            free(out);
        }
    }
    if (f->bits_state < 0) {
        fprintf(stderr, "vecfile: %s: %s = '%.40s' is not a bit string\n", vec_where(r), name, f->value);
        return NULL;
    }
    *nbits = f->nbits;
    return f->bits;
}

const char *vec_where(const vec_record *r) {
    static char bufs[4][256];
    static unsigned k;
    char *b = bufs[k++ & 3];
    const char *count = NULL;
    for (size_t i = 0; i < r->nfields; i++)
        if (strcasecmp(r->fields[i].name, "COUNT") == 0)
            count = r->fields[i].value;
    if (count)
        snprintf(b, sizeof bufs[0], "%s:%lu (%s%s%sCOUNT = %s)", r->file, r->line,
                 r->section ? "[" : "", r->section ? r->section : "", r->section ? "] " : "", count);
    else
        snprintf(b, sizeof bufs[0], "%s:%lu (record %zu)", r->file, r->line, r->index);
    return b;
}

void vec_bits_extract(uint8_t *dst, const uint8_t *src, size_t from, size_t nbits) {
    memset(dst, 0, (nbits + 7) / 8);
    for (size_t i = 0; i < nbits; i++)
        vec_bit_set(dst, i, vec_bit_get(src, from + i));
}

/* ====================================================== running a file */

#include <stdarg.h>

#include "testutil.h"

#define VEC_PRINT_LIMIT 8
static unsigned long vec_printed; /* failures printed for the current (file, back end) */
static int vec_verbose = -1;

static int print_failure(void) {
    if (vec_verbose < 0) {
        const char *v = getenv("HWC_VEC_VERBOSE");
        vec_verbose = v && *v && *v != '0';
    }
    if (vec_verbose || vec_printed < VEC_PRINT_LIMIT) {
        vec_printed++;
        return 1;
    }
    if (vec_printed++ == VEC_PRINT_LIMIT)
        fprintf(stderr, "  (further failures of this file and back end are counted, not printed; HWC_VEC_VERBOSE=1 prints all)\n");
    return 0;
}

int vec_check_at(vec_case *c, int ok, const char *expr, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        test_passed++;
        return 1;
    }
    test_failed++;
    if (!print_failure())
        return 0;
    fprintf(stderr, "FAIL %s impl %s: %s (%s:%d)", vec_where(c->r), c->impl, expr, file, line);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        fputs(": ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    return 0;
}

int vec_check_mem_at(vec_case *c, const void *got, const void *want, size_t len, const char *what,
                     const char *file, int line) {
    if (len == 0 || memcmp(got, want, len) == 0) {
        test_passed++;
        return 1;
    }
    test_failed++;
    if (!print_failure())
        return 0;
    size_t show = len > 96 ? 96 : len;
    char *g = malloc(2 * show + 1), *w = malloc(2 * show + 1);
    if (g && w) {
        test_hex(g, got, show);
        test_hex(w, want, show);
        fprintf(stderr, "FAIL %s impl %s: %s differs (%s:%d)\n   got  %s%s\n   want %s%s\n", vec_where(c->r),
                c->impl, what, file, line, g, show < len ? "..." : "", w, show < len ? "..." : "");
    }
    free(g);
    free(w);
    return 0;
}

int vec_check_rc_at(vec_case *c, int rc, int want, const char *expr, const char *file, int line) {
    return vec_check_at(c, rc == want, expr, file, line, "returned %d (%s), want %d (%s)", rc, hwc_strerror(rc),
                        want, hwc_strerror(want));
}

int vec_skip(vec_case *c, const char *why) {
    c->skip_why = why;
    return VEC_SKIPPED;
}

size_t vec_split(const vec_record *r, size_t len, unsigned salt) {
    if (len == 0)
        return 0;
    uint64_t x = (uint64_t)r->index * 0x9e3779b97f4a7c15ull + salt * 0x632be59bd9b4e019ull + 0x1234567ull;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 32;
    /* a third of the splits fall on a block boundary, some at the ends */
    switch (x % 6) {
    case 0: return 0;
    case 1: return len;
    case 2: return (size_t)((x >> 8) % (len / 16 + 1)) * 16;
    default: return (size_t)((x >> 8) % (len + 1));
    }
}

const hwc_cipher *vec_cipher(vec_case *c, const char *fmt, ...) {
    char name[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    const hwc_cipher *ci = hwc_cipher_by_name(name);
    VCHECKF(c, ci != NULL, "no cipher named %s", name);
    return ci;
}

int vec_all_zero(const uint8_t *p, size_t n) {
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

typedef struct run_state {
    vec_file *f;
    vec_fn fn;
    vec_keep_fn keep;
    void *arg;
    char summary[1024];
    size_t slen;
} run_state;

/* HWC_VEC_STRIDE=N (N > 1) runs every Nth record of each file (the first,
 * the (N+1)th, ...), on every back end: for slow runs such as valgrind's
 * (docs/TESTING.md).  Unset or 1: every record. */
static size_t vec_stride(void) {
    const char *s = getenv("HWC_VEC_STRIDE");
    unsigned long v = s ? strtoul(s, NULL, 10) : 1;
    return v > 1 ? (size_t)v : 1;
}

static void run_impl(const char *impl, void *arg) {
    run_state *st = arg;
    const size_t stride = vec_stride();
    size_t kept = 0;
    unsigned long passed = 0, failed = 0, skipped = 0;
    const char *why = NULL;
    vec_printed = 0;
    hwc_ctx *ctx = hwc_ctx_new();
    if (!test_check(ctx != NULL, "hwc_ctx_new()", __FILE__, __LINE__, NULL))
        return;
    int rc = hwc_ctx_set_impl(ctx, impl);
    if (!test_check(rc == HWC_OK, "hwc_ctx_set_impl(ctx, impl)", __FILE__, __LINE__, "%s: %s", impl,
                    hwc_strerror(rc))) {
        hwc_ctx_free(ctx);
        return;
    }
    for (size_t i = 0; i < st->f->nrec; i++) {
        if (st->keep && !st->keep(&st->f->rec[i]))
            continue;
        if (kept++ % stride != 0)
            continue;
        vec_case c = {st->f, &st->f->rec[i], ctx, impl, st->arg, NULL};
        unsigned long before = test_failed;
        int s = st->fn(&c);
        if (test_failed != before) {
            failed++;
        } else if (s == VEC_SKIPPED) {
            skipped++;
            test_skipped++;
            if (!why)
                why = c.skip_why;
        } else {
            passed++;
        }
    }
    hwc_ctx_free(ctx);
    st->slen += (size_t)snprintf(st->summary + st->slen, sizeof st->summary - st->slen, ", impl %s: %lu passed", impl,
                                 passed);
    if (st->slen < sizeof st->summary && failed)
        st->slen += (size_t)snprintf(st->summary + st->slen, sizeof st->summary - st->slen, ", %lu FAILED", failed);
    if (st->slen < sizeof st->summary && skipped)
        st->slen += (size_t)snprintf(st->summary + st->slen, sizeof st->summary - st->slen,
                                     ", %lu skipped (%s)", skipped, why ? why : "no reason given");
    if (st->slen >= sizeof st->summary)
        st->slen = sizeof st->summary - 1;
}

size_t vec_run_file_ex(const char *relpath, vec_format fmt, hwc_family family, vec_keep_fn keep, const char *label,
                       vec_fn fn, void *arg) {
    run_state st;
    memset(&st, 0, sizeof st);
    st.f = vec_load(relpath, fmt);
    st.fn = fn;
    st.keep = keep;
    st.arg = arg;
    size_t n = 0;
    for (size_t i = 0; st.f && i < st.f->nrec; i++)
        n += !keep || keep(&st.f->rec[i]);
    if (!test_check(n > 0, "file has records", __FILE__, __LINE__, "%s%s%s%s: %s", relpath, label ? " (" : "",
                    label ? label : "", label ? ")" : "", st.f ? "no record found" : "cannot load")) {
        vec_free(st.f);
        return 0;
    }
    if (vec_stride() > 1)
        st.slen = (size_t)snprintf(st.summary, sizeof st.summary, " (HWC_VEC_STRIDE=%zu: every %zuth record)",
                                   vec_stride(), vec_stride());
    int ran = test_each_impl(family, run_impl, &st);
    if (ran == 0)
        test_skip(relpath, "no back end of this family available");
    printf("%s%s%s%s: %zu records%s\n", relpath, label ? " (" : "", label ? label : "", label ? ")" : "", n,
           st.summary);
    fflush(stdout);
    vec_free(st.f);
    return n;
}

size_t vec_run_file(const char *relpath, vec_format fmt, hwc_family family, vec_fn fn, void *arg) {
    return vec_run_file_ex(relpath, fmt, family, NULL, NULL, fn, arg);
}

/* ------------------------------------------------ shared known answers */

void vec_cipher_kat(vec_case *c, const hwc_cipher *ci, int encrypt, const uint8_t *key, size_t key_len,
                    const uint8_t *iv, size_t iv_len, const uint8_t *in, const uint8_t *want, size_t len,
                    int both_ways) {
    hwc_ctx *ctx = c->ctx;
    unsigned fl = hwc_cipher_flags(ci);
    int padded = (fl & HWC_CIPHER_PADDING) != 0;
    int one_shot = (fl & HWC_CIPHER_ONE_SHOT) != 0;
    uint8_t *buf = malloc(len + 48);
    if (!VCHECK(c, buf != NULL))
        return;
    for (int pass = 0; pass < (both_ways ? 2 : 1); pass++) {
        int dir = pass ? !encrypt : encrypt;
        const uint8_t *src = pass ? want : in, *exp = pass ? in : want;
        const char *dn = dir == HWC_ENCRYPT ? "encrypt" : "decrypt";
        size_t o1 = 0, o2 = 0, o3 = 0;
        char what[64];

        /* one call, fresh key */
        if (!VCHECK_RC(c, hwc_init(ctx, ci, dir, key, key_len, iv, iv_len), HWC_OK))
            break;
        if (padded)
            VCHECK_RC(c, hwc_set_padding(ctx, 0), HWC_OK);
        memset(buf, 0xA5, len + 48);
        VCHECK_RC(c, hwc_update(ctx, buf, &o1, src, len), HWC_OK);
        if (o1 > len)
            o1 = len;
        VCHECK_RC(c, hwc_final(ctx, buf + o1, &o2), HWC_OK);
        snprintf(what, sizeof what, "%s, one call", dn);
        VCHECKF(c, o1 + o2 == len, "%s: wrote %zu + %zu bytes, want %zu", what, o1, o2, len);
        VCHECK_MEM(c, buf, exp, len, what);

        /* in place, same key (key NULL keeps it) */
        memset(buf, 0xA5, len + 48);
        memcpy(buf, src, len);
        o1 = o2 = 0;
        VCHECK_RC(c, hwc_init(ctx, NULL, dir, NULL, 0, iv, iv_len), HWC_OK);
        if (padded)
            VCHECK_RC(c, hwc_set_padding(ctx, 0), HWC_OK);
        VCHECK_RC(c, hwc_update(ctx, buf, &o1, buf, len), HWC_OK);
        if (o1 > len)
            o1 = len;
        VCHECK_RC(c, hwc_final(ctx, buf + o1, &o2), HWC_OK);
        snprintf(what, sizeof what, "%s, in place", dn);
        VCHECKF(c, o1 + o2 == len, "%s: wrote %zu + %zu bytes, want %zu", what, o1, o2, len);
        VCHECK_MEM(c, buf, exp, len, what);

        /* two calls */
        if (!one_shot) {
            size_t s = vec_split(c->r, len, (unsigned)pass);
            memset(buf, 0xA5, len + 48);
            o1 = o2 = o3 = 0;
            VCHECK_RC(c, hwc_init(ctx, NULL, dir, NULL, 0, iv, iv_len), HWC_OK);
            if (padded)
                VCHECK_RC(c, hwc_set_padding(ctx, 0), HWC_OK);
            VCHECK_RC(c, hwc_update(ctx, buf, &o1, src, s), HWC_OK);
            if (o1 > s)
                o1 = s;
            VCHECK_RC(c, hwc_update(ctx, buf + o1, &o2, src + s, len - s), HWC_OK);
            if (o1 + o2 > len)
                o2 = len - o1;
            VCHECK_RC(c, hwc_final(ctx, buf + o1 + o2, &o3), HWC_OK);
            snprintf(what, sizeof what, "%s, split at %zu", dn, s);
            VCHECKF(c, o1 + o2 + o3 == len, "%s: wrote %zu + %zu + %zu bytes, want %zu", what, o1, o2, o3, len);
            VCHECK_MEM(c, buf, exp, len, what);
        }
    }
    free(buf);
}

static int aead_stream(vec_case *c, const vec_aead *a, int dir, const uint8_t *tag_in, uint8_t *out, uint8_t *tag_out,
                       int rekey, const char **stage) {
    hwc_ctx *ctx = c->ctx;
    hwc_mode mode = hwc_cipher_mode(a->cipher);
    int one_shot = (hwc_cipher_flags(a->cipher) & HWC_CIPHER_ONE_SHOT) != 0;
    size_t total_aad = 0;
    int rc;
    for (size_t i = 0; i < a->naad; i++)
        total_aad += a->aad_len[i];

    *stage = "hwc_init";
    rc = rekey ? hwc_init(ctx, a->cipher, dir, a->key, a->key_len, a->nonce, a->nonce_len)
               : hwc_init(ctx, NULL, dir, NULL, 0, a->nonce, a->nonce_len);
    if (rc)
        return rc;
    if (dir == HWC_ENCRYPT) {
        *stage = "hwc_set_tag_len";
        if ((rc = hwc_set_tag_len(ctx, a->tag_len)) != 0)
            return rc;
    } else {
        *stage = "hwc_set_tag";
        if ((rc = hwc_set_tag(ctx, tag_in, a->tag_len)) != 0)
            return rc;
    }
    if (mode == HWC_MODE_CCM) {
        *stage = "hwc_set_lengths";
        if ((rc = hwc_set_lengths(ctx, total_aad, a->len)) != 0)
            return rc;
    }
    *stage = "hwc_aad";
    if (mode == HWC_MODE_SIV) {
        for (size_t i = 0; i < a->naad; i++)
            if ((rc = hwc_aad(ctx, a->aad[i], a->aad_len[i])) != 0)
                return rc;
    } else {
        for (size_t i = 0; i < a->naad; i++) {
            size_t s = vec_split(c->r, a->aad_len[i], 17u + (unsigned)i);
            if ((rc = hwc_aad(ctx, a->aad[i], s)) != 0)
                return rc;
            if ((rc = hwc_aad(ctx, a->aad[i] + s, a->aad_len[i] - s)) != 0)
                return rc;
        }
    }
    const uint8_t *in = dir == HWC_ENCRYPT ? a->pt : a->ct;
    size_t o1 = 0, o2 = 0, o3 = 0;
    *stage = "hwc_update";
    if (one_shot) {
        rc = hwc_update(ctx, out, &o1, in, a->len);
    } else {
        size_t s = vec_split(c->r, a->len, 29u + (unsigned)dir);
        rc = hwc_update(ctx, out, &o1, in, s);
        if (o1 > s)
            o1 = s;
        if (!rc)
            rc = hwc_update(ctx, out + o1, &o2, in + s, a->len - s);
    }
    if (rc)
        return rc;
    if (o1 + o2 > a->len)
        o2 = a->len - o1;
    *stage = "hwc_final";
    if ((rc = hwc_final(ctx, out + o1 + o2, &o3)) != 0)
        return rc;
    if (dir == HWC_ENCRYPT) {
        *stage = "hwc_get_tag";
        if ((rc = hwc_get_tag(ctx, tag_out, a->tag_len)) != 0)
            return rc;
    }
    *stage = "output length";
    if (o1 + o2 + o3 != a->len)
        return 1;
    *stage = "all calls (no error)";
    return 0;
}

void vec_aead_kat(vec_case *c, const vec_aead *a) {
    hwc_ctx *ctx = c->ctx;
    hwc_mode mode = hwc_cipher_mode(a->cipher);
    size_t total_aad = 0;
    for (size_t i = 0; i < a->naad; i++)
        total_aad += a->aad_len[i];
    uint8_t *aad = malloc(total_aad + 1);
    uint8_t *out = malloc(a->len + 48);
    uint8_t tag[32], badtag[32];
    const char *stage = "";
    int rc;
    if (!VCHECK(c, aad && out && a->tag_len <= 16))
        goto done;
    size_t off = 0;
    for (size_t i = 0; i < a->naad; i++) {
        memcpy(aad + off, a->aad[i], a->aad_len[i]);
        off += a->aad_len[i];
    }
    /* The one-shot functions take one AD string (and the SIV nonce). */
    int oneshot_ok = mode == HWC_MODE_SIV ? (a->naad <= 1) : 1;

    if (!a->expect_fail) {
        /* seal, one call */
        if (oneshot_ok) {
            if (VCHECK_RC(c, hwc_init(ctx, a->cipher, HWC_ENCRYPT, a->key, a->key_len, a->nonce, a->nonce_len),
                          HWC_OK)) {
                memset(out, 0xA5, a->len + 48);
                memset(tag, 0xA5, sizeof tag);
                rc = hwc_aead_seal(ctx, a->nonce, a->nonce_len, aad, total_aad, a->pt, a->len, out, tag, a->tag_len);
                if (VCHECK_RC(c, rc, HWC_OK)) {
                    VCHECK_MEM(c, out, a->ct, a->len, "hwc_aead_seal ciphertext");
                    VCHECK_MEM(c, tag, a->tag, a->tag_len, "hwc_aead_seal tag");
                }
            }
        }
        /* seal, streaming */
        memset(out, 0xA5, a->len + 48);
        memset(tag, 0xA5, sizeof tag);
        rc = aead_stream(c, a, HWC_ENCRYPT, NULL, out, tag, 1, &stage);
        if (VCHECKF(c, rc == 0, "streaming encryption: %s returned %d (%s)", stage, rc, hwc_strerror(rc))) {
            VCHECK_MEM(c, out, a->ct, a->len, "streaming encryption ciphertext");
            VCHECK_MEM(c, tag, a->tag, a->tag_len, "streaming encryption tag");
        }
        /* open, one call */
        if (oneshot_ok) {
            if (VCHECK_RC(c, hwc_init(ctx, NULL, HWC_DECRYPT, NULL, 0, a->nonce, a->nonce_len), HWC_OK)) {
                memset(out, 0xA5, a->len + 48);
                rc = hwc_aead_open(ctx, a->nonce, a->nonce_len, aad, total_aad, a->ct, a->len, out, a->tag,
                                   a->tag_len);
                if (VCHECK_RC(c, rc, HWC_OK))
                    VCHECK_MEM(c, out, a->pt, a->len, "hwc_aead_open plaintext");
            }
        }
        /* open, streaming */
        memset(out, 0xA5, a->len + 48);
        rc = aead_stream(c, a, HWC_DECRYPT, a->tag, out, NULL, 0, &stage);
        if (VCHECKF(c, rc == 0, "streaming decryption: %s returned %d (%s)", stage, rc, hwc_strerror(rc)))
            VCHECK_MEM(c, out, a->pt, a->len, "streaming decryption plaintext");
    }

    /* rejection: the file's bad tag, or ours (one bit flipped) */
    const uint8_t *reject_tag = a->tag;
    if (!a->expect_fail) {
        memcpy(badtag, a->tag, a->tag_len);
        size_t bit = (c->r->index * 13 + 5) % (a->tag_len * 8);
        badtag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        reject_tag = badtag;
    }
    if (oneshot_ok) {
        if (VCHECK_RC(c, hwc_init(ctx, a->cipher, HWC_DECRYPT, a->key, a->key_len, a->nonce, a->nonce_len), HWC_OK)) {
            memset(out, 0xA5, a->len + 48);
            rc = hwc_aead_open(ctx, a->nonce, a->nonce_len, aad, total_aad, a->ct, a->len, out, reject_tag,
                               a->tag_len);
            VCHECK_RC(c, rc, HWC_ERR_AUTH);
            VCHECKF(c, vec_all_zero(out, a->len), "hwc_aead_open must zero its output on HWC_ERR_AUTH (%s tag)",
                    a->expect_fail ? "file's bad" : "corrupted");
        }
    }
    memset(out, 0xA5, a->len + 48);
    rc = aead_stream(c, a, HWC_DECRYPT, reject_tag, out, NULL, 1, &stage);
    VCHECKF(c, rc == HWC_ERR_AUTH && (!strcmp(stage, "hwc_final") || !strcmp(stage, "hwc_update")),
            "streaming decryption with a %s tag: %s returned %d (%s), want HWC_ERR_AUTH from hwc_final",
            a->expect_fail ? "bad" : "corrupted", stage, rc, hwc_strerror(rc));
done:
    free(aad);
    free(out);
}
