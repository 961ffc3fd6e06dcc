#!/bin/sh
# `make install` output is usable: install the build tree into a temporary
# prefix, then build and run a small program against it through pkg-config
# (shared library) and through find_package(hwcrypt) (static library).
# Usage: test_install.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null && ok || bad "cmake --install"
for f in include/hwcrypt/hwcrypt.h lib/pkgconfig/hwcrypt.pc lib/cmake/hwcrypt/hwcryptConfig.cmake bin/hwcrypt; do
  [ -e "$tmp/prefix/$f" ] && ok || bad "not installed: $f"
done

cat > "$tmp/consumer.c" <<'C'
#include <hwcrypt/hwcrypt.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    /* GCM test case 2 of the original specification: zero key, zero IV, one zero block. */
    uint8_t key[16] = {0}, iv[12] = {0}, pt[16] = {0}, ct[16], tag[16];
    static const uint8_t want_tag[16] = {0xab, 0x6e, 0x47, 0xd4, 0x2c, 0xec, 0x13, 0xbd,
                                         0xf5, 0x3a, 0x67, 0xb2, 0x12, 0x57, 0xbd, 0xdf};
    hwc_ctx *ctx = hwc_ctx_new();
    int rc = hwc_init(ctx, hwc_cipher_by_name("aes-128-gcm"), HWC_ENCRYPT, key, 16, NULL, 0);
    if (!rc)
        rc = hwc_aead_seal(ctx, iv, 12, NULL, 0, pt, 16, ct, tag, 16);
    hwc_ctx_free(ctx);
    if (rc || memcmp(tag, want_tag, 16)) {
        printf("consumer: wrong result (%s)\n", hwc_strerror(rc));
        return 1;
    }
    printf("consumer: ok\n");
    return 0;
}
C
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
if command -v pkg-config >/dev/null; then
  cc "$tmp/consumer.c" $(pkg-config --cflags --libs hwcrypt) -o "$tmp/c-pc" && LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/c-pc" && ok || bad "pkg-config consumer"
else
  bad "pkg-config not installed (scripts/install-deps test installs it)"
fi
mkdir -p "$tmp/cm"
cat > "$tmp/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.25)
project(consumer C)
find_package(hwcrypt REQUIRED)
add_executable(consumer $tmp/consumer.c)
target_link_libraries(consumer hwcrypt::hwcrypt_static)
CM
cmake -S "$tmp/cm" -B "$tmp/cm/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null && cmake --build "$tmp/cm/b" >/dev/null && "$tmp/cm/b/consumer" && ok || bad "find_package consumer"
echo "test_install: $pass passed, $fail failed"
[ $fail -eq 0 ]
