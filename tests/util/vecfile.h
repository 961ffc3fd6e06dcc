/* Test-vector file reader for hwcrypt's known-answer tests.
 *
 * One parser reads every "name = value" style the vector set uses; a small
 * per-format adapter (vec_format) only says how names and values are
 * separated and which field starts a record:
 *
 *   VEC_CAVP      NIST CAVP .rsp/.txt and pyca's "NIST loader" files:
 *                 `[ENCRYPT]`, `[Keylen = 128]`, `[Alen = 0, Plen = 0]`
 *                 section lines; blank-line-separated blocks of `k = v`;
 *                 a block with COUNT/Count is a record, a block without one
 *                 (CCM's `Key =`/`Nonce =` groups, `Plen = 24` headers)
 *                 sets parameters for the records that follow.  A bare line
 *                 (`FAIL`) is a field with an empty value.
 *   VEC_DKG       dkg's OCB files: `K = ...` sets the key, records start at N.
 *   VEC_EVP       OpenSSL evp_test: records start at `Cipher =`; `Title =`
 *                 blocks are parameters.
 *   VEC_BORINGSSL BoringSSL `KEY: value` with values in double quotes being
 *                 ASCII; records start at KEY.
 *   VEC_BOTAN     Botan .vec: `[SM4]` section; every block is a record.
 *
 * CRLF and LF line endings are both accepted; names and values are trimmed;
 * `#` starts a comment line.  Names are matched case-insensitively.
 *
 * A record sees its own fields first, then the parameters in force where it
 * appears (latest setting wins).  Decoded values are cached and owned by the
 * file: nothing returned here needs freeing.
 */
#ifndef HWC_VECFILE_H
#define HWC_VECFILE_H

#include <stddef.h>
#include <stdint.h>

#include "hwcrypt/hwcrypt.h"

typedef enum vec_format { VEC_CAVP, VEC_DKG, VEC_EVP, VEC_BORINGSSL, VEC_BOTAN } vec_format;

typedef struct vec_field vec_field;
typedef struct vec_param vec_param;

typedef struct vec_record {
    const char *file;     /* path as given to vec_load (relative to the vector dir) */
    unsigned long line;   /* line of the record's first field */
    size_t index;         /* 0-based position in the file */
    const char *section;  /* last bare [SECTION] ("ENCRYPT", "DECRYPT", "SM4") or NULL */
    size_t nfields;
    vec_field *fields;
    vec_param *params;    /* parameters in force (newest first) */
} vec_record;

typedef struct vec_file {
    char *path;           /* as given */
    size_t nrec;
    vec_record *rec;
    /* private */
    char *text;
    void *arena;
    vec_param *params_all;
} vec_file;

/* Load and parse HWC_VECTOR_DIR "/" relpath.  NULL (with a message on
 * stderr) if the file cannot be read.  A file with no record is returned
 * with nrec == 0: callers must treat that as a failure. */
vec_file *vec_load(const char *relpath, vec_format fmt);
void vec_free(vec_file *f);

/* Raw (trimmed) value of a field or parameter; NULL if absent. */
const char *vec_get(const vec_record *r, const char *name);
/* Field present (own fields only, e.g. "FAIL"). */
int vec_has_field(const vec_record *r, const char *name);
/* Name/value of the i-th own field, in file order. */
const char *vec_field_name(const vec_record *r, size_t i);
const char *vec_field_value(const vec_record *r, size_t i);

/* Decimal (or 0x hex) integer value; `def` if absent; -1 and a message if
 * it is not a number. */
long long vec_int(const vec_record *r, const char *name, long long def);
/* Unsigned 64-bit decimal (e.g. XTS DataUnitSeqNumber) into *out: 0, or -1
 * if absent or not a number. */
int vec_u64(const vec_record *r, const char *name, uint64_t *out);

/* Bytes of a hex value (or of a "quoted ASCII" value); an empty value gives
 * a non-NULL pointer and *len 0.  NULL (and a message) if absent or bad. */
const uint8_t *vec_bytes(const vec_record *r, const char *name, size_t *len);
/* Bit string ("0110..."), packed MSB-first into bytes, the unused low bits
 * of the last byte zero.  NULL if absent or bad. */
const uint8_t *vec_bits(const vec_record *r, const char *name, size_t *nbits);

/* "aes/gcm/gcmDecrypt128.rsp:27 (Count = 1)" -- rotating static buffers. */
const char *vec_where(const vec_record *r);

/* Read a whole file (relative to HWC_VECTOR_DIR); malloc'd, NUL-terminated. */
char *vec_read_file(const char *relpath, size_t *len);

/* ------------------------------------------------- bit-string helpers */

/* Bit i (0 = most significant bit of byte 0). */
static inline int vec_bit_get(const uint8_t *p, size_t i) {
    return (p[i >> 3] >> (7 - (i & 7))) & 1;
}
static inline void vec_bit_set(uint8_t *p, size_t i, int v) {
    uint8_t m = (uint8_t)(0x80u >> (i & 7));
    p[i >> 3] = (uint8_t)(v ? (p[i >> 3] | m) : (p[i >> 3] & ~m));
}
/* Copy nbits bits starting at bit `from` of src to the start of dst
 * (MSB-first), zeroing dst's unused trailing bits. */
void vec_bits_extract(uint8_t *dst, const uint8_t *src, size_t from, size_t nbits);

/* ------------------------------------------------- running a file */

/* One record on one back end, as handed to a vec_fn. */
typedef struct vec_case {
    const vec_file *file;
    const vec_record *r;
    hwc_ctx *ctx;      /* fresh per (file, back end), forced to `impl` */
    const char *impl;
    void *arg;
    const char *skip_why; /* set by vec_skip() */
} vec_case;

#define VEC_RAN 0
#define VEC_SKIPPED 1
/* Returns VEC_RAN, or vec_skip(c, why). A record "passed" when it ran and
 * none of its checks failed. */
typedef int (*vec_fn)(vec_case *c);
int vec_skip(vec_case *c, const char *why);

/* Load `relpath`, CHECK that it has records, run fn on every record for
 * every available back end of `family` (test_each_impl), and print
 *   "aes/gcm/gcmDecrypt128.rsp: 7875 records, impl ct: 7875 passed"
 * (with failed/skipped counts when non-zero).  Returns the record count. */
size_t vec_run_file(const char *relpath, vec_format fmt, hwc_family family, vec_fn fn, void *arg);
/* The same on the records `keep` accepts (the others are not counted);
 * `label` (e.g. "PTlen = 0") is printed after the file name. */
typedef int (*vec_keep_fn)(const vec_record *r);
size_t vec_run_file_ex(const char *relpath, vec_format fmt, hwc_family family, vec_keep_fn keep, const char *label,
                       vec_fn fn, void *arg);

/* Checks that name the record and back end on failure; at most a few
 * failures per (file, back end) are printed, all are counted.  They return
 * the truth of the check. */
int vec_check_at(vec_case *c, int ok, const char *expr, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int vec_check_mem_at(vec_case *c, const void *got, const void *want, size_t len, const char *what,
                     const char *file, int line);
int vec_check_rc_at(vec_case *c, int rc, int want, const char *expr, const char *file, int line);
#define VCHECK(c, cond) vec_check_at(c, !!(cond), #cond, __FILE__, __LINE__, NULL)
#define VCHECKF(c, cond, ...) vec_check_at(c, !!(cond), #cond, __FILE__, __LINE__, __VA_ARGS__)
#define VCHECK_MEM(c, got, want, len, what) vec_check_mem_at(c, got, want, len, what, __FILE__, __LINE__)
#define VCHECK_RC(c, expr, want) vec_check_rc_at(c, (expr), (want), #expr, __FILE__, __LINE__)

/* A split point in 0..len derived from the record number (streaming tests). */
size_t vec_split(const vec_record *r, size_t len, unsigned salt);

/* cipher by printf-style name; a missing cipher is a failed check. */
const hwc_cipher *vec_cipher(vec_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 if every byte is zero. */
int vec_all_zero(const uint8_t *p, size_t n);

/* -------------------------------------------- shared known-answer runs */

/* A non-AEAD cipher (ECB/CBC without padding, CFB128/CFB8/OFB/CTR, XTS):
 * checks one call, the same in place, and (unless the cipher is one-shot)
 * the data in two hwc_update() calls split at vec_split(); then the
 * reverse direction when `both_ways`. */
void vec_cipher_kat(vec_case *c, const hwc_cipher *ci, int encrypt, const uint8_t *key, size_t key_len,
                    const uint8_t *iv, size_t iv_len, const uint8_t *in, const uint8_t *want, size_t len,
                    int both_ways);

/* An AEAD record.  aad[] holds the AD components (SIV: one hwc_aad() call
 * each; others: concatenated, one component expected).
 *   expect_fail == 0: pt/ct/tag are a valid triple: seal (one-shot and
 *     streaming), open (one-shot and streaming), and a corrupted tag must
 *     fail with HWC_ERR_AUTH and a zeroed output;
 *   expect_fail == 1: (ct, tag) must be rejected by open (zeroed output)
 *     and by streaming decryption (pt unused). */
typedef struct vec_aead {
    const hwc_cipher *cipher;
    const uint8_t *key;
    size_t key_len;
    const uint8_t *nonce; /* NULL for SIV without a nonce */
    size_t nonce_len;
    const uint8_t *aad[8];
    size_t aad_len[8];
    size_t naad;
    const uint8_t *pt, *ct, *tag;
    size_t len, tag_len;
    int expect_fail;
} vec_aead;
void vec_aead_kat(vec_case *c, const vec_aead *a);

#endif
