/* hwcrypt: the command line. `hwcrypt list`, `caps`, `enc`, `speed`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwcrypt/hwcrypt.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: hwcrypt <command> [options]\n"
            "  list    ciphers, and back ends with whether they can run here\n"
            "  caps    capabilities in effect and the back end each family selects\n"
            "  enc     encrypt or decrypt like `openssl enc` (hwcrypt enc -h)\n"
            "  speed   throughput like `openssl speed -evp` (hwcrypt speed -h)\n"
            "  version\n"
            "Environment: HWCRYPT_CAPS=none | -vaes | zkne,zknd,zbc ... limits the capabilities used.\n");
}

static const char *family_name(hwc_family f, int is_ghash) {
    if (is_ghash)
        return "ghash";
    return f == HWC_FAMILY_AES ? "aes" : f == HWC_FAMILY_SM4 ? "sm4" : "?";
}

static const char *mode_name(hwc_mode m) {
    static const char *const names[] = {"",    "ecb", "cbc",  "cfb128",  "cfb8", "cfb1", "ofb", "ctr", "xts",
                                        "gcm", "ccm", "ocb", "siv", "gcm-siv", "cmac", "gmac", "kw", "kwp"};
    return (unsigned)m < sizeof names / sizeof names[0] ? names[m] : "?";
}

int hwc_cmd_list(int argc, char **argv) {
    (void)argc;
    (void)argv;
    printf("Ciphers (%zu):\n", hwc_cipher_count());
    printf("  %-20s %-7s %4s %4s %4s  %s\n", "name", "mode", "key", "iv", "tag", "kind");
    for (size_t i = 0; i < hwc_cipher_count(); i++) {
        const hwc_cipher *c = hwc_cipher_at(i);
        unsigned f = hwc_cipher_flags(c);
        const char *kind = (f & HWC_CIPHER_AEAD)   ? "aead"
                           : (f & HWC_CIPHER_MAC)  ? "mac"
                           : (f & HWC_CIPHER_WRAP) ? "key wrap"
                                                   : "cipher";
        printf("  %-20s %-7s %4zu %4zu %4zu  %s\n", hwc_cipher_name(c), mode_name(hwc_cipher_mode(c)),
               hwc_cipher_key_len(c), hwc_cipher_iv_len(c), hwc_cipher_tag_len(c), kind);
    }
    printf("Back ends (%zu):\n", hwc_impl_count());
    for (size_t i = 0; i < hwc_impl_count(); i++) {
        const char *why = NULL;
        int ok = hwc_impl_available(i, &why);
        printf("  %-5s %-12s %-11s %-13s%s%s\n", family_name(hwc_impl_family(i), hwc_impl_is_ghash(i)),
               hwc_impl_name(i), ok ? "available" : "unavailable",
               hwc_impl_is_constant_time(i) ? "constant-time" : "", ok ? "" : " ", ok ? "" : why);
    }
    return 0;
}

int hwc_cmd_caps(int argc, char **argv) {
    (void)argc;
    (void)argv;
    char buf[512];
    hwc_caps_format(hwc_caps(), buf, sizeof buf);
    printf("caps: %s\n", buf);
    for (size_t i = 0; i < hwc_impl_count(); i++) {
        const char *why = NULL;
        int ok = hwc_impl_available(i, &why);
        const char *note = ok ? hwc_impl_note(i) : NULL;
        printf("%s/%s: %s%s%s%s%s\n", family_name(hwc_impl_family(i), hwc_impl_is_ghash(i)), hwc_impl_name(i),
               ok ? "available" : "unavailable: ", ok ? "" : why,
               ok && hwc_impl_is_constant_time(i) ? " (constant-time)" : "", note ? "; " : "", note ? note : "");
    }
    printf("selected: aes=%s sm4=%s ghash=%s\n", hwc_impl_selected(HWC_FAMILY_AES),
           hwc_impl_selected(HWC_FAMILY_SM4), hwc_ghash_impl_selected());
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    /* A misspelt HWCRYPT_CAPS would silently measure or test the wrong
     * thing: refuse to run. */
    const char *caps_err = hwc_caps_error();
    if (caps_err) {
        fprintf(stderr, "hwcrypt: %s\n", caps_err);
        return 2;
    }
    if (!strcmp(cmd, "list"))
        return hwc_cmd_list(argc - 1, argv + 1);
    if (!strcmp(cmd, "caps"))
        return hwc_cmd_caps(argc - 1, argv + 1);
    if (!strcmp(cmd, "enc"))
        return hwc_cmd_enc(argc - 1, argv + 1);
    if (!strcmp(cmd, "speed"))
        return hwc_cmd_speed(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("hwcrypt %s\n", hwc_version());
        return 0;
    }
    fprintf(stderr, "hwcrypt: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
