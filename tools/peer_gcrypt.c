/*
 * libgcrypt peer rows for `hwcrypt speed` (see peer_gcrypt.h).
 *
 * libgcrypt is opened with dlopen and its functions taken with dlsym, so no
 * header or library of it is needed to build hwcrypt.  The few constants used
 * are its stable ABI numbers (gcrypt.h); where gcrypt.h is present at build
 * time they are checked against it.
 */
#include "peer_gcrypt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HWC_HAVE_DLOPEN
#include <dlfcn.h>
#endif

/* libgcrypt's ABI numbers (gcrypt.h, stable since 1.6). */
enum {
    GC_CIPHER_AES128 = 7,
    GC_CIPHER_AES192 = 8,
    GC_CIPHER_AES256 = 9,
    GC_CIPHER_SM4 = 318,
    GC_MODE_ECB = 1,
    GC_MODE_CFB = 2,
    GC_MODE_CBC = 3,
    GC_MODE_OFB = 5,
    GC_MODE_CTR = 6,
    GC_MODE_CCM = 8,
    GC_MODE_GCM = 9,
    GC_MODE_OCB = 11,
    GC_MODE_CFB8 = 12,
    GC_MODE_XTS = 13,
    GC_MAC_CMAC_AES = 201,
    GC_MAC_CMAC_SM4 = 212,
    GC_MAC_GMAC_AES = 401,
    GC_CTL_RESET = 4,
    GC_CTL_FINALIZE = 5,
    GC_CTL_DISABLE_SECMEM = 37,
    GC_CTL_INITIALIZATION_FINISHED = 38,
    GC_CTL_SET_CCM_LENGTHS = 69,
    GC_CTL_SET_TAGLEN = 75,
};

#if defined(__has_include)
/* gcrypt.h includes gpg-error.h, which Debian keeps in the multiarch folder:
 * a cross compiler that searches /usr/include (Debian's do) finds gcrypt.h alone. */
#if __has_include(<gcrypt.h>) && __has_include(<gpg-error.h>)
#include <gcrypt.h>
#define GC_SAME(ours, theirs) _Static_assert((int)(ours) == (int)(theirs), #ours " is libgcrypt's " #theirs)
GC_SAME(GC_CIPHER_AES128, GCRY_CIPHER_AES);
GC_SAME(GC_CIPHER_AES192, GCRY_CIPHER_AES192);
GC_SAME(GC_CIPHER_AES256, GCRY_CIPHER_AES256);
GC_SAME(GC_CIPHER_SM4, GCRY_CIPHER_SM4);
GC_SAME(GC_MODE_ECB, GCRY_CIPHER_MODE_ECB);
GC_SAME(GC_MODE_CFB, GCRY_CIPHER_MODE_CFB);
GC_SAME(GC_MODE_CBC, GCRY_CIPHER_MODE_CBC);
GC_SAME(GC_MODE_OFB, GCRY_CIPHER_MODE_OFB);
GC_SAME(GC_MODE_CTR, GCRY_CIPHER_MODE_CTR);
GC_SAME(GC_MODE_CCM, GCRY_CIPHER_MODE_CCM);
GC_SAME(GC_MODE_GCM, GCRY_CIPHER_MODE_GCM);
GC_SAME(GC_MODE_OCB, GCRY_CIPHER_MODE_OCB);
GC_SAME(GC_MODE_CFB8, GCRY_CIPHER_MODE_CFB8);
GC_SAME(GC_MODE_XTS, GCRY_CIPHER_MODE_XTS);
GC_SAME(GC_MAC_CMAC_AES, GCRY_MAC_CMAC_AES);
GC_SAME(GC_MAC_CMAC_SM4, GCRY_MAC_CMAC_SM4);
GC_SAME(GC_MAC_GMAC_AES, GCRY_MAC_GMAC_AES);
GC_SAME(GC_CTL_RESET, GCRYCTL_RESET);
GC_SAME(GC_CTL_FINALIZE, GCRYCTL_FINALIZE);
GC_SAME(GC_CTL_DISABLE_SECMEM, GCRYCTL_DISABLE_SECMEM);
GC_SAME(GC_CTL_INITIALIZATION_FINISHED, GCRYCTL_INITIALIZATION_FINISHED);
GC_SAME(GC_CTL_SET_CCM_LENGTHS, GCRYCTL_SET_CCM_LENGTHS);
GC_SAME(GC_CTL_SET_TAGLEN, GCRYCTL_SET_TAGLEN);
#undef GC_SAME
#endif
#endif

typedef unsigned int gc_err;  /* gcry_error_t */
typedef void *gc_handle;      /* gcry_cipher_hd_t, gcry_mac_hd_t */

static struct {
    int tried;
    const char *why;
    char version[64];
    const char *(*check_version)(const char *);
    gc_err (*control)(int, ...);
    const char *(*strerror)(gc_err);
    gc_err (*cipher_open)(gc_handle *, int, int, unsigned);
    void (*cipher_close)(gc_handle);
    gc_err (*cipher_ctl)(gc_handle, int, void *, size_t);
    gc_err (*cipher_setkey)(gc_handle, const void *, size_t);
    gc_err (*cipher_setiv)(gc_handle, const void *, size_t);
    gc_err (*cipher_setctr)(gc_handle, const void *, size_t);
    gc_err (*cipher_authenticate)(gc_handle, const void *, size_t);
    gc_err (*cipher_gettag)(gc_handle, void *, size_t);
    gc_err (*cipher_checktag)(gc_handle, const void *, size_t);
    gc_err (*cipher_encrypt)(gc_handle, void *, size_t, const void *, size_t);
    gc_err (*cipher_decrypt)(gc_handle, void *, size_t, const void *, size_t);
    gc_err (*mac_open)(gc_handle *, int, unsigned, void *);
    void (*mac_close)(gc_handle);
    gc_err (*mac_ctl)(gc_handle, int, void *, size_t);
    gc_err (*mac_setkey)(gc_handle, const void *, size_t);
    gc_err (*mac_setiv)(gc_handle, const void *, size_t);
    gc_err (*mac_write)(gc_handle, const void *, size_t);
    gc_err (*mac_read)(gc_handle, void *, size_t *);
} gc;

struct gc_peer {
    gc_handle h;       /* cipher handle, or MAC handle when is_mac */
    int is_mac, mode, enc;
    size_t iv_len, tag_len;
    uint8_t iv[16];    /* the stream's IV, for a restart */
    gc_err last;
};

const char *gc_load(void) {
    if (gc.tried)
        return gc.why;
    gc.tried = 1;
#ifndef HWC_HAVE_DLOPEN
    gc.why = "this hwcrypt was built without dlopen";
    return gc.why;
#else
    void *lib = dlopen("libgcrypt.so.20", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        gc.why = "libgcrypt.so.20 not found (Debian: libgcrypt20)";
        return gc.why;
    }
    int ok = 1;
#define GC_SYM(field, name) ok &= (*(void **)&gc.field = dlsym(lib, name)) != NULL
    GC_SYM(check_version, "gcry_check_version");
    GC_SYM(control, "gcry_control");
    GC_SYM(strerror, "gcry_strerror");
    GC_SYM(cipher_open, "gcry_cipher_open");
    GC_SYM(cipher_close, "gcry_cipher_close");
    GC_SYM(cipher_ctl, "gcry_cipher_ctl");
    GC_SYM(cipher_setkey, "gcry_cipher_setkey");
    GC_SYM(cipher_setiv, "gcry_cipher_setiv");
    GC_SYM(cipher_setctr, "gcry_cipher_setctr");
    GC_SYM(cipher_authenticate, "gcry_cipher_authenticate");
    GC_SYM(cipher_gettag, "gcry_cipher_gettag");
    GC_SYM(cipher_checktag, "gcry_cipher_checktag");
    GC_SYM(cipher_encrypt, "gcry_cipher_encrypt");
    GC_SYM(cipher_decrypt, "gcry_cipher_decrypt");
    GC_SYM(mac_open, "gcry_mac_open");
    GC_SYM(mac_close, "gcry_mac_close");
    GC_SYM(mac_ctl, "gcry_mac_ctl");
    GC_SYM(mac_setkey, "gcry_mac_setkey");
    GC_SYM(mac_setiv, "gcry_mac_setiv");
    GC_SYM(mac_write, "gcry_mac_write");
    GC_SYM(mac_read, "gcry_mac_read");
#undef GC_SYM
    /* 1.9 brought SM4 and the current AEAD interface. */
    const char *v = ok ? gc.check_version("1.9.0") : NULL;
    if (!v) {
        gc.why = ok ? "libgcrypt older than 1.9" : "libgcrypt.so.20 lacks a needed function";
        dlclose(lib);
        return gc.why;
    }
    /* A benchmark keeps no long-term secrets: no locked secure-memory pool. */
    gc.control(GC_CTL_DISABLE_SECMEM, 0);
    gc.control(GC_CTL_INITIALIZATION_FINISHED, 0);
    snprintf(gc.version, sizeof gc.version, "libgcrypt %s", v);
    return NULL; /* the library stays loaded for the process */
#endif
}

const char *gc_version(void) { return gc.tried && !gc.why ? gc.version : NULL; }

/* libgcrypt's algorithm for cipher c's block cipher, 0 if none. */
static int algo_of(const hwc_cipher *c, size_t block_key_len) {
    if (hwc_cipher_family(c) == HWC_FAMILY_SM4)
        return GC_CIPHER_SM4;
    return block_key_len == 16 ? GC_CIPHER_AES128 : block_key_len == 24 ? GC_CIPHER_AES192
                                                  : block_key_len == 32 ? GC_CIPHER_AES256
                                                                        : 0;
}

static int mode_of(hwc_mode m) {
    switch (m) {
    case HWC_MODE_ECB: return GC_MODE_ECB;
    case HWC_MODE_CBC: return GC_MODE_CBC;
    case HWC_MODE_CFB128: return GC_MODE_CFB;
    case HWC_MODE_CFB8: return GC_MODE_CFB8;
    case HWC_MODE_OFB: return GC_MODE_OFB;
    case HWC_MODE_CTR: return GC_MODE_CTR;
    case HWC_MODE_XTS: return GC_MODE_XTS;
    case HWC_MODE_GCM: return GC_MODE_GCM;
    case HWC_MODE_CCM: return GC_MODE_CCM;
    case HWC_MODE_OCB: return GC_MODE_OCB;
    default: return 0;
    }
}

static int set_iv(gc_peer *p, const uint8_t *iv) {
    if (p->mode == GC_MODE_ECB)
        return 0;
    p->last = p->mode == GC_MODE_CTR ? gc.cipher_setctr(p->h, iv, p->iv_len) : gc.cipher_setiv(p->h, iv, p->iv_len);
    return p->last ? -1 : 0;
}

gc_peer *gc_open(const hwc_cipher *c, enum gc_op op, int enc, const uint8_t *key, size_t key_len, const uint8_t *iv,
                 size_t iv_len, size_t tag_len, const char **why) {
    static char msg[160];
    if ((*why = gc_load()) != NULL)
        return NULL;
    hwc_mode m = hwc_cipher_mode(c);
    int xts = m == HWC_MODE_XTS;
    if (hwc_cipher_flags(c) & HWC_CIPHER_XTS_GB) {
        *why = "libgcrypt has no GB/T 17964 XTS";
        return NULL;
    }
    int algo = algo_of(c, xts ? key_len / 2 : key_len);
    int mode = mode_of(m);
    int mac = op == GC_MAC;
    int mac_algo = 0;
    if (mac) {
        if (m == HWC_MODE_CMAC)
            mac_algo = algo == GC_CIPHER_SM4 ? GC_MAC_CMAC_SM4 : GC_MAC_CMAC_AES;
        else if (m == HWC_MODE_GMAC && algo != GC_CIPHER_SM4)
            mac_algo = GC_MAC_GMAC_AES;
    }
    if (!algo || (mac ? !mac_algo : !mode) || iv_len > 16) {
        snprintf(msg, sizeof msg, "%s has no %s", gc.version, hwc_cipher_name(c));
        *why = msg;
        return NULL;
    }
    gc_peer *p = calloc(1, sizeof *p);
    if (!p) {
        *why = "out of memory";
        return NULL;
    }
    p->is_mac = mac;
    p->mode = mode;
    p->enc = enc;
    p->iv_len = iv_len;
    p->tag_len = tag_len;
    if (iv_len)
        memcpy(p->iv, iv, iv_len);
    if (mac) {
        p->last = gc.mac_open(&p->h, mac_algo, 0, NULL);
        if (!p->last)
            p->last = gc.mac_setkey(p->h, key, key_len);
    } else {
        p->last = gc.cipher_open(&p->h, algo, mode, 0);
        if (!p->last)
            p->last = gc.cipher_setkey(p->h, key, key_len);
        if (!p->last && mode == GC_MODE_OCB)
            p->last = gc.cipher_ctl(p->h, GC_CTL_SET_TAGLEN, &(int){(int)tag_len}, sizeof(int));
        if (!p->last && op == GC_STREAM)
            set_iv(p, p->iv);
    }
    if (p->last) {
        snprintf(msg, sizeof msg, "%s refused %s: %s", gc.version, hwc_cipher_name(c), gc.strerror(p->last));
        *why = msg;
        gc_close(p);
        return NULL;
    }
    return p;
}

static int crypt(gc_peer *p, uint8_t *dst, const uint8_t *src, size_t len) {
    p->last = p->enc ? gc.cipher_encrypt(p->h, dst, len, src, len) : gc.cipher_decrypt(p->h, dst, len, src, len);
    return p->last ? -1 : 0;
}

int gc_stream(gc_peer *p, uint8_t *dst, const uint8_t *src, size_t len) {
    if (!crypt(p, dst, src, len))
        return 0;
    if (set_iv(p, p->iv)) /* e.g. GCM's per-message limit reached on a long run */
        return -1;
    return crypt(p, dst, src, len);
}

int gc_unit(gc_peer *p, const uint8_t *iv, uint8_t *dst, const uint8_t *src, size_t len) {
    if (set_iv(p, iv))
        return -1;
    return crypt(p, dst, src, len);
}

int gc_aead(gc_peer *p, const uint8_t *iv, const uint8_t *aad, size_t aad_len, uint8_t *dst, const uint8_t *src,
            size_t len, uint8_t *tag) {
    if (set_iv(p, iv))
        return -1;
    if (p->mode == GC_MODE_CCM) {
        uint64_t lens[3] = {len, aad_len, p->tag_len};
        if ((p->last = gc.cipher_ctl(p->h, GC_CTL_SET_CCM_LENGTHS, lens, sizeof lens)) != 0)
            return -1;
    }
    if (aad_len && (p->last = gc.cipher_authenticate(p->h, aad, aad_len)) != 0)
        return -1;
    /* OCB wants to be told the next call ends the message. */
    if (p->mode == GC_MODE_OCB && (p->last = gc.cipher_ctl(p->h, GC_CTL_FINALIZE, NULL, 0)) != 0)
        return -1;
    if (crypt(p, dst, src, len))
        return -1;
    p->last = p->enc ? gc.cipher_gettag(p->h, tag, p->tag_len) : gc.cipher_checktag(p->h, tag, p->tag_len);
    return p->last ? -1 : 0;
}

int gc_mac(gc_peer *p, const uint8_t *iv, const uint8_t *src, size_t len, uint8_t *tag) {
    size_t n = p->tag_len;
    if ((p->last = gc.mac_ctl(p->h, GC_CTL_RESET, NULL, 0)) != 0)
        return -1;
    if (p->iv_len && (p->last = gc.mac_setiv(p->h, iv, p->iv_len)) != 0)
        return -1;
    if ((p->last = gc.mac_write(p->h, src, len)) != 0)
        return -1;
    p->last = gc.mac_read(p->h, tag, &n);
    return p->last ? -1 : 0;
}

const char *gc_error(const gc_peer *p) { return p && p->last ? gc.strerror(p->last) : "libgcrypt call failed"; }

void gc_close(gc_peer *p) {
    if (!p)
        return;
    if (p->h)
        (p->is_mac ? gc.mac_close : gc.cipher_close)(p->h);
    free(p);
}
