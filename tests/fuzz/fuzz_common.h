/* Shared pieces of hwcrypt's libFuzzer targets: the input format, the list
 * of back ends, and one routine that runs a whole message through hwcrypt
 * (one-shot or streaming, on a named back end) so every target compares the
 * same thing the same way.
 *
 * Input format (all targets but fuzz_api_misuse; see "Fuzzing" in
 * docs/TESTING.md).  Fields are read in order; a field past the end of the
 * input reads as 0, and bytes of key/IV/AAD/data past the end are filled
 * with a fixed pattern, so short inputs still reach long messages.
 *
 *   u8   cipher      index into the cipher table, modulo hwc_cipher_count()
 *   u8   flags       FZ_F_* below
 *   u8   key_sel     < 0xC0: the cipher's key length; else key_sel & 0x3f
 *   u8   iv_sel      < 0x80: the default IV length; else iv_sel & 0x7f
 *   u8   tag_sel     < 0x80: the default tag length (16 for a MAC); else tag_sel & 0x1f
 *   u16  aad_len     little-endian, modulo FZ_MAX_AAD + 1
 *   u16  aad_split   where the AAD is cut in two hwc_aad() calls, modulo aad_len + 1
 *   u16  data_len    little-endian, modulo FZ_MAX_DATA + 1 (CFB1, CFB8: less, below)
 *   u8   nsplits     modulo FZ_MAX_SPLITS + 1: cut points of streaming updates
 *   u16  split[nsplits]  each modulo data_len + 1 (sorted after reading)
 *   u8   tamper[4]   fuzz_aead_tamper: what to mutate, where, how
 *   u8   tag_in[32]  the expected tag for decryption of raw data
 *   then key bytes, IV bytes, AAD bytes, data bytes.
 */
#ifndef HWC_FUZZ_COMMON_H
#define HWC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "hwcrypt/hwcrypt.h"

/* The fuzz input read a byte at a time; past its end every byte is 0. */
typedef struct reader {
    const uint8_t *p;
    size_t n, pos;
} reader;

static inline unsigned rd_u8(reader *r) { return r->pos < r->n ? r->p[r->pos++] : 0; }
static inline unsigned rd_u16(reader *r) {
    unsigned lo = rd_u8(r);
    return lo | rd_u8(r) << 8;
}

#define FZ_MAX_DATA 4096
#define FZ_MAX_DATA_CFB1 64   /* data_len is taken modulo these + 1 for the */
#define FZ_MAX_DATA_CFB8 512  /* serial modes (one block call per bit / byte) */
#define FZ_MAX_AAD 1024
#define FZ_MAX_SPLITS 8
#define FZ_MAX_KEY 64
#define FZ_MAX_IV 128
#define FZ_MAX_IMPLS 16
#define FZ_MAX_TAG 32 /* tag_sel reaches 31: room for the invalid lengths too */

/* Flags byte. */
#define FZ_F_DECRYPT_RAW 0x01u /* also decrypt the data as ciphertext (padding, auth failures) */
#define FZ_F_NO_PADDING 0x02u  /* ECB/CBC: padding off */
#define FZ_F_IN_PLACE 0x04u    /* one-shot runs write over their input */
#define FZ_F_IMPL_SHIFT 4      /* high nibble: which back end (modulo the count) where a target picks one */

typedef struct fz_case {
    const hwc_cipher *c;
    size_t cipher_index;
    unsigned flags;
    uint8_t key[FZ_MAX_KEY];
    size_t key_len;
    uint8_t iv[FZ_MAX_IV];
    size_t iv_len;
    uint8_t aad[FZ_MAX_AAD];
    size_t aad_len, aad_split;
    size_t tag_len;
    uint8_t tag_in[FZ_MAX_TAG];
    uint8_t data[FZ_MAX_DATA];
    size_t data_len;
    size_t split[FZ_MAX_SPLITS];
    size_t nsplits;
    uint8_t tamper[4];
} fz_case;

/* Parses an input into *k (always succeeds: every input is a case). */
void fz_parse(fz_case *k, const uint8_t *data, size_t size);

/* Available block back ends of a family, by name ("ct" always included). */
size_t fz_impls(hwc_family family, const char *names[FZ_MAX_IMPLS]);

/* Result of one run. out is heap-allocated with exactly the room the API
 * promises to need (so AddressSanitizer sees any write past it). */
typedef struct fz_result {
    int rc;
    uint8_t *out;
    size_t out_len, out_cap;
    uint8_t tag[FZ_MAX_TAG];
    size_t tag_len;
} fz_result;

void fz_result_free(fz_result *r);

enum fz_feed {
    FZ_ONESHOT, /* hwc_aead_seal/open, hwc_mac, hwc_key_wrap, or one hwc_update + hwc_final */
    FZ_STREAM   /* the case's split points, AAD in two calls, the streaming calls */
};

/* Runs the case's cipher over `in` (encrypt: plaintext; decrypt:
 * ciphertext, with tag_in as the expected tag) on back end `impl` (NULL:
 * automatic selection).  MACs compute the tag (encrypt) or verify tag_in
 * (decrypt).  Checks the API's own promises on the way (abort on breach):
 * an AEAD one-shot open that fails authentication zeroes its output, an
 * unwrap that fails zeroes out_cap bytes, output lengths are what the mode
 * defines. */
void fz_run(const fz_case *k, const char *impl, int encrypt, const uint8_t *in, size_t in_len,
            const uint8_t *tag_in, enum fz_feed feed, fz_result *res);

/* The length a successful encryption must produce; SIZE_MAX if not fixed. */
size_t fz_expected_out_len(const fz_case *k, size_t in_len);

/* Print a description of the case and abort (libFuzzer records the input). */
#define FZ_CHECK(k, cond, ...)                                                 \
    do {                                                                       \
        if (!(cond))                                                           \
            fz_fail((k), __FILE__, __LINE__, #cond, __VA_ARGS__);              \
    } while (0)
void fz_fail(const fz_case *k, const char *file, int line, const char *expr, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 5, 6)));

/* Byte-exact comparison of two results (rc, length, bytes, tag). */
void fz_check_same(const fz_case *k, const fz_result *a, const fz_result *b, const char *what);
/* 1 if every byte is zero. */
int fz_all_zero(const uint8_t *p, size_t n);

/* Cipher class helpers. */
int fz_is_aead(const hwc_cipher *c);
int fz_is_mac(const hwc_cipher *c);
int fz_is_wrap(const hwc_cipher *c);

#endif
