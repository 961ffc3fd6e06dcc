/*
 * hwcrypt: AES-128/192/256 and SM4 in every common block-cipher mode, on the
 * fastest instructions the CPU offers, with a portable constant-time fallback.
 *
 * Conventions
 *   - Every function returns 0 (HWC_OK) or a negative hwc_err; hwc_strerror()
 *     names it.  Lengths are validated before any state changes: a call that
 *     fails leaves its context exactly as it was.
 *   - `_len` counts bytes.  `out == in` (exact in-place) is allowed; any other
 *     overlap of input and output is rejected with HWC_ERR_OVERLAP.
 *   - A NULL pointer with a zero length is fine; with a non-zero length it is
 *     HWC_ERR_NULL.  A data length over PTRDIFF_MAX (no buffer is that long)
 *     is HWC_ERR_DATA_LEN (an IV length, HWC_ERR_IV_LEN).
 *   - When authentication fails, the one-shot functions zero the whole output
 *     buffer.  Streaming AEAD decryption (GCM, CCM, OCB) returns HWC_ERR_AUTH
 *     from hwc_final(); the plaintext already handed out by hwc_update() must
 *     then be discarded by the caller (use the one-shot hwc_aead_open() to
 *     never see it).  SIV and GCM-SIV check the tag in the hwc_update() that
 *     completes the message, zero what that call wrote and return
 *     HWC_ERR_AUTH there and again from hwc_final(); when the message came in
 *     several updates (see hwc_set_lengths), what the earlier ones released
 *     must be discarded likewise.
 */
#ifndef HWCRYPT_HWCRYPT_H
#define HWCRYPT_HWCRYPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define HWC_API
#else
#define HWC_API __attribute__((visibility("default")))
#endif

#define HWC_VERSION_STRING "0.1.0"

/* Error codes: every public function returns 0 or one of these. */
typedef enum hwc_err {
    HWC_OK = 0,
    HWC_ERR_KEY_LEN = -1,     /* key length not valid for this cipher */
    HWC_ERR_IV_LEN = -2,      /* IV / nonce length out of range */
    HWC_ERR_TAG_LEN = -3,     /* tag length out of range */
    HWC_ERR_DATA_LEN = -4,    /* data length not allowed (block multiple, limits, declared lengths) */
    HWC_ERR_AUTH = -5,        /* authentication (tag / integrity check) failed */
    HWC_ERR_UNSUPPORTED = -6, /* operation not supported by this cipher / mode / back end */
    HWC_ERR_STATE = -7,       /* call not valid in the context's current state */
    HWC_ERR_NULL = -8,        /* NULL pointer where data is required */
    HWC_ERR_OVERLAP = -9,     /* input and output partially overlap */
    HWC_ERR_NO_MEM = -10,     /* allocation failed */
    HWC_ERR_UNKNOWN = -11,    /* unknown cipher or back-end name */
    HWC_ERR_WEAK_KEY = -12,   /* key rejected (XTS with equal halves) */
    HWC_ERR_PADDING = -13,    /* bad PKCS#7 padding on decryption */
    HWC_ERR_BUFFER = -14,     /* output buffer too small */
    HWC_ERR_UNAVAILABLE = -15 /* back end exists but this CPU / HWCRYPT_CAPS cannot run it */
} hwc_err;

HWC_API const char *hwc_strerror(int err);
HWC_API const char *hwc_version(void);

/* ---------------------------------------------------------------- ciphers */

typedef enum hwc_family { HWC_FAMILY_AES = 1, HWC_FAMILY_SM4 = 2 } hwc_family;

typedef enum hwc_mode {
    HWC_MODE_ECB = 1,
    HWC_MODE_CBC,
    HWC_MODE_CFB128,
    HWC_MODE_CFB8,
    HWC_MODE_CFB1,
    HWC_MODE_OFB,
    HWC_MODE_CTR,
    HWC_MODE_XTS,
    HWC_MODE_GCM,
    HWC_MODE_CCM,
    HWC_MODE_OCB,
    HWC_MODE_SIV,
    HWC_MODE_GCM_SIV,
    HWC_MODE_CMAC,
    HWC_MODE_GMAC,
    HWC_MODE_KW,
    HWC_MODE_KWP
} hwc_mode;

/* Flags describing a cipher. */
#define HWC_CIPHER_AEAD 0x01u     /* authenticated encryption with a tag */
#define HWC_CIPHER_MAC 0x02u      /* message authentication code */
#define HWC_CIPHER_WRAP 0x04u     /* key wrap (one-shot only) */
#define HWC_CIPHER_STREAM 0x08u   /* any length, output follows input byte for byte */
#define HWC_CIPHER_PADDING 0x10u  /* PKCS#7 padding on by default (ECB, CBC) */
#define HWC_CIPHER_ONE_SHOT 0x20u /* data arrives in one hwc_update() call (XTS; SIV and GCM-SIV but for
                                     decryption after hwc_set_lengths) */
#define HWC_CIPHER_INVERSE 0x40u  /* key wrap using the inverse cipher (SP 800-38F option) */
#define HWC_CIPHER_XTS_GB 0x100u  /* XTS with the GB/T 17964-2021 tweak multiplication (sm4-xts-gb) */

typedef struct hwc_cipher hwc_cipher;

/* Look a cipher up by OpenSSL's spelling, case-insensitively:
 * "aes-128-gcm", "sm4-ctr", "aes-256-xts", "aes-128-siv", "aes-256-gcm-siv",
 * "aes-128-wrap", "aes-128-wrap-pad", "aes-128-cmac", "aes-128-gmac".
 * Returns NULL for an unknown name. */
HWC_API const hwc_cipher *hwc_cipher_by_name(const char *name);
HWC_API size_t hwc_cipher_count(void);
HWC_API const hwc_cipher *hwc_cipher_at(size_t index); /* NULL past the end */

HWC_API const char *hwc_cipher_name(const hwc_cipher *c);
HWC_API hwc_family hwc_cipher_family(const hwc_cipher *c);
HWC_API hwc_mode hwc_cipher_mode(const hwc_cipher *c);
HWC_API unsigned hwc_cipher_flags(const hwc_cipher *c);
HWC_API size_t hwc_cipher_key_len(const hwc_cipher *c);   /* bytes; XTS and SIV: both halves */
HWC_API size_t hwc_cipher_iv_len(const hwc_cipher *c);    /* default IV / nonce bytes, 0 if none */
HWC_API size_t hwc_cipher_block_size(const hwc_cipher *c); /* 16 for ECB/CBC, 1 otherwise */
HWC_API size_t hwc_cipher_tag_len(const hwc_cipher *c);   /* default tag bytes, 0 if none */

/* ------------------------------------------------------------ back ends */

/* A back end ("implementation") is one way of running a cipher family:
 * "ct" (portable constant-time C), "aesni", "vaes", "zkn64", ...
 * Selection happens at key setup: the first available back end in priority
 * order, unless one is forced by name. */
HWC_API size_t hwc_impl_count(void);
HWC_API const char *hwc_impl_name(size_t index);        /* NULL past the end */
HWC_API hwc_family hwc_impl_family(size_t index);       /* AES, SM4, or 0 for GHASH */
HWC_API int hwc_impl_is_ghash(size_t index);            /* 1 for a GHASH/POLYVAL back end */
HWC_API int hwc_impl_is_constant_time(size_t index);
/* What a back end does differently from its name's promise (e.g. zkne64:
 * decryption on the portable code), or NULL. */
HWC_API const char *hwc_impl_note(size_t index);
/* 1 when usable here; 0 otherwise with *why (if non-NULL) set to a reason. */
HWC_API int hwc_impl_available(size_t index, const char **why);
/* The back end that would be selected for a family now (e.g. "ct"). */
HWC_API const char *hwc_impl_selected(hwc_family family);
HWC_API const char *hwc_ghash_impl_selected(void);

/* ---------------------------------------------------------- capabilities */

/* CPU capabilities as a bit set (HWC_CAP_*), probed once, thread-safely,
 * then filtered through the HWCRYPT_CAPS environment variable:
 *   HWCRYPT_CAPS=none            nothing (portable code only)
 *   HWCRYPT_CAPS=-vaes           what was probed, minus vaes
 *   HWCRYPT_CAPS=zkne,zknd,zbc   only these (of those the CPU has)
 *   HWCRYPT_CAPS=zkn             shorthands: zkn = zbkb,zbkc,zbkx,zkne,zknd;
 *                                zks = zbkb,zbkc,zbkx,zksed
 *   HWCRYPT_CAPS=-sha3           64-bit Arm: aes, pmull (Crypto Extensions),
 *                                sha3 (EOR3), sm4 (SM4E), from AT_HWCAP
 * A name the CPU lacks is never enabled (it would crash with SIGILL).
 * An unknown name is ignored and makes hwc_caps_error() return a message. */
HWC_API uint64_t hwc_caps(void);
HWC_API uint64_t hwc_caps_probed(void);
HWC_API const char *hwc_caps_error(void); /* NULL when HWCRYPT_CAPS parsed cleanly */
/* Writes the names of the bits in `caps` separated by commas ("none" if 0). */
HWC_API size_t hwc_caps_format(uint64_t caps, char *buf, size_t buf_len);
HWC_API const char *hwc_cap_name(unsigned bit); /* NULL for an unused bit */

#define HWC_CAP_AESNI (1ull << 0)
#define HWC_CAP_PCLMUL (1ull << 1)
#define HWC_CAP_SSSE3 (1ull << 2)
#define HWC_CAP_SSE41 (1ull << 3)
#define HWC_CAP_AVX (1ull << 4)
#define HWC_CAP_AVX2 (1ull << 5)
#define HWC_CAP_VAES (1ull << 6)
#define HWC_CAP_VPCLMUL (1ull << 7)
#define HWC_CAP_AVX512 (1ull << 8)
#define HWC_CAP_GFNI (1ull << 9)
#define HWC_CAP_ZBB (1ull << 16)
#define HWC_CAP_ZBC (1ull << 17)
#define HWC_CAP_ZBKB (1ull << 18)
#define HWC_CAP_ZBKC (1ull << 19)
#define HWC_CAP_ZBKX (1ull << 20)
#define HWC_CAP_ZKNE (1ull << 21)
#define HWC_CAP_ZKND (1ull << 22)
#define HWC_CAP_ZKSED (1ull << 23)
#define HWC_CAP_V (1ull << 24)
#define HWC_CAP_ZVKNED (1ull << 25)
#define HWC_CAP_ZVKG (1ull << 26)
#define HWC_CAP_ZVKSED (1ull << 27)
#define HWC_CAP_ZVBB (1ull << 28)
#define HWC_CAP_ZVKB (1ull << 29)
#define HWC_CAP_ZVBC (1ull << 30)
#define HWC_CAP_ARM_AES (1ull << 40)
#define HWC_CAP_ARM_PMULL (1ull << 41)
#define HWC_CAP_ARM_SM4 (1ull << 42)
#define HWC_CAP_ARM_SHA3 (1ull << 43) /* EOR3 (FEAT_SHA3) */

/* -------------------------------------------------------------- contexts */

typedef struct hwc_ctx hwc_ctx;

#define HWC_ENCRYPT 1
#define HWC_DECRYPT 0

HWC_API hwc_ctx *hwc_ctx_new(void);
/* Wipes key schedules and all state, then frees. NULL is fine. */
HWC_API void hwc_ctx_free(hwc_ctx *ctx);

/* Copies src's whole state into dst (cipher, key schedules, a message in
 * progress), so that both go on independently from that point, as
 * EVP_CIPHER_CTX_copy does.  dst's previous state is overwritten. */
HWC_API int hwc_ctx_copy(hwc_ctx *dst, const hwc_ctx *src);

/* Force a back end by name for the next hwc_init() with a key ("ct",
 * "aesni", ...); NULL or "" returns to automatic selection.  HWC_ERR_UNKNOWN for a
 * name that does not exist, HWC_ERR_UNAVAILABLE when it cannot run here. */
HWC_API int hwc_ctx_set_impl(hwc_ctx *ctx, const char *impl_name);
/* Name of the block-cipher back end in use ("ct"), or NULL before a key. */
HWC_API const char *hwc_ctx_impl(const hwc_ctx *ctx);
HWC_API const char *hwc_ctx_ghash_impl(const hwc_ctx *ctx);

/* Start an operation.
 *   cipher  NULL keeps the cipher (and key) of the previous init;
 *   key     NULL keeps the current key (key_len ignored): a new message with
 *           the same key, without a new key schedule;
 *   iv      the IV / nonce / initial counter block. NULL with iv_len 0 on a
 *           mode that needs one leaves the context keyed and waiting for
 *           it (EVP-style two-step init: a later hwc_init with NULL cipher
 *           and key supplies it); data before then is HWC_ERR_STATE.
 *   encrypt HWC_ENCRYPT or HWC_DECRYPT.
 * For MACs, `encrypt` is ignored.  For key wrap, use hwc_key_wrap(). */
HWC_API int hwc_init(hwc_ctx *ctx, const hwc_cipher *cipher, int encrypt,
                     const uint8_t *key, size_t key_len,
                     const uint8_t *iv, size_t iv_len);

/* ECB/CBC: PKCS#7 padding on (1, default) or off (0). Before any data. */
HWC_API int hwc_set_padding(hwc_ctx *ctx, int on);
/* AEAD: tag length produced on encryption (default 16).  After init, before
 * any hwc_aad or data; when decrypting, before hwc_set_tag (the length of
 * the tag given there is the one checked). */
HWC_API int hwc_set_tag_len(hwc_ctx *ctx, size_t tag_len);
/* The total AAD and message lengths (bytes; for SIV the AAD of all
 * components, the nonce not counted).
 * CCM: required, before AAD or data.
 * SIV, GCM-SIV decryption: optional, before data.  Without it the message
 * is the data of one hwc_update().  With it, any number of hwc_update()
 * calls totalling msg_len bytes, after all aad_len bytes of AAD: each
 * writes exactly its in_len bytes of plaintext, not yet authenticated
 * (CTR runs from the expected tag; the plaintext goes into S2V or POLYVAL
 * as it comes), and the one that completes msg_len compares the tags in
 * constant time: on a mismatch it zeroes what it wrote and returns
 * HWC_ERR_AUTH (as hwc_final() does after it), and the caller must discard
 * what the earlier calls released, as with GCM.  More data or AAD than
 * declared is HWC_ERR_DATA_LEN, and so is hwc_final() before all of it;
 * empty updates after the last byte are harmless.
 * SIV, GCM-SIV encryption: HWC_ERR_UNSUPPORTED; it needs all of the
 * plaintext before its first output byte (the tag is the CTR IV), so it
 * takes the message in one hwc_update(). */
HWC_API int hwc_set_lengths(hwc_ctx *ctx, uint64_t aad_len, uint64_t msg_len);
/* AEAD decryption: the expected tag, any time before hwc_final(); for SIV
 * and GCM-SIV, which need it to decrypt, before hwc_update(). */
HWC_API int hwc_set_tag(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len);
/* AEAD encryption: the tag, after hwc_final(). tag_len must be the one set. */
HWC_API int hwc_get_tag(hwc_ctx *ctx, uint8_t *tag, size_t tag_len);

/* Additional authenticated data (AEAD) or the message (MAC).  May be
 * called repeatedly; for AEADs only before the first hwc_update(). SIV: each
 * call is one AD component (RFC 5297 vector). */
HWC_API int hwc_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len);

/* Encrypt or decrypt.  *out_len receives the bytes written.  `out` must have
 * room for in_len + 16 bytes (block modes may release a held-back block).
 * Stream modes, GCM, CCM, XTS, SIV and GCM-SIV write exactly in_len bytes
 * (SIV, GCM-SIV: 0 when authentication fails).  XTS and SIV / GCM-SIV
 * encryption take the message in one call; SIV / GCM-SIV decryption
 * streams after hwc_set_lengths(). */
HWC_API int hwc_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len,
                       const uint8_t *in, size_t in_len);
/* CFB1 only: encrypt or decrypt nbits bits, most significant bit of each
 * byte first; bits of the last output byte past nbits are set to 0. */
HWC_API int hwc_update_bits(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t nbits);

/* CBC, CFB, CFB8, CFB1, OFB, CTR: the 16-byte chaining value the stream
 * goes on from, as OpenSSL's EVP_CIPHER_CTX_get_updated_iv gives it: CBC the
 * last ciphertext block processed (not a block held back or a partial one),
 * CFB the shift register (a partial block's ciphertext bytes, then unused
 * keystream), OFB the current keystream block, CTR the next counter block.
 * From the IV until the next hwc_init (hwc_final keeps it). */
HWC_API int hwc_get_iv(const hwc_ctx *ctx, uint8_t *iv, size_t iv_len);

/* Finish: padding, buffered partial blocks, tag.  `out` needs 16 bytes of
 * room (may be NULL for modes that never write at final). */
HWC_API int hwc_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len);

/* ------------------------------------------------------- one-shot AEAD */

/* Seal: out gets in_len bytes of ciphertext, tag gets tag_len bytes.
 * Uses the context's key (set by hwc_init with the AEAD cipher). SIV: a
 * non-empty aad is one AD component and aad_len 0 adds none (as OpenSSL);
 * several components, or one empty component, need the streaming calls. */
HWC_API int hwc_aead_seal(hwc_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                          const uint8_t *aad, size_t aad_len,
                          const uint8_t *in, size_t in_len, uint8_t *out,
                          uint8_t *tag, size_t tag_len);
/* Open: on HWC_ERR_AUTH the whole output (in_len bytes) is zeroed. */
HWC_API int hwc_aead_open(hwc_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                          const uint8_t *aad, size_t aad_len,
                          const uint8_t *in, size_t in_len, uint8_t *out,
                          const uint8_t *tag, size_t tag_len);

/* ------------------------------------------------------------------ MAC */

/* After hwc_init() with a MAC cipher (aes-128-cmac, aes-128-gmac with IV):
 * hwc_aad() feeds the message, then either of these. */
HWC_API int hwc_mac_final(hwc_ctx *ctx, uint8_t *tag, size_t tag_len);
HWC_API int hwc_mac_verify(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len);
/* One-shot MAC. iv only for GMAC. */
HWC_API int hwc_mac(const hwc_cipher *cipher, const uint8_t *key, size_t key_len,
                    const uint8_t *iv, size_t iv_len,
                    const uint8_t *msg, size_t msg_len,
                    uint8_t *tag, size_t tag_len);

/* ------------------------------------------------------------- key wrap */

/* KW (RFC 3394): in_len a multiple of 8, at least 16; output in_len + 8.
 * KWP (RFC 5649): in_len 1..2^32-1; output rounded up to 8, plus 8.
 * *out_len receives the length written; out_cap is the room in out.
 * Unwrap needs out_cap >= in_len - 8 (KWP's true length is known only
 * after the integrity check). Unwrap failures zero the output buffer
 * (out_cap bytes) and return HWC_ERR_AUTH. */
HWC_API int hwc_key_wrap(const hwc_cipher *cipher, const uint8_t *kek, size_t kek_len,
                         const uint8_t *in, size_t in_len,
                         uint8_t *out, size_t out_cap, size_t *out_len);
HWC_API int hwc_key_unwrap(const hwc_cipher *cipher, const uint8_t *kek, size_t kek_len,
                           const uint8_t *in, size_t in_len,
                           uint8_t *out, size_t out_cap, size_t *out_len);
/* The same, on a context (keeps the key schedule, honours hwc_ctx_set_impl). */
HWC_API int hwc_ctx_key_wrap(hwc_ctx *ctx, const uint8_t *in, size_t in_len,
                             uint8_t *out, size_t out_cap, size_t *out_len);
HWC_API int hwc_ctx_key_unwrap(hwc_ctx *ctx, const uint8_t *in, size_t in_len,
                               uint8_t *out, size_t out_cap, size_t *out_len);

#ifdef __cplusplus
}
#endif
#endif /* HWCRYPT_HWCRYPT_H */
