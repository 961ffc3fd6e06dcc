#!/bin/sh
# x86-64 back-end selection, natively and under the emulator's CPU models.
#
# usage: tests/test_x86_dispatch.sh path/to/hwcrypt [path/to/qemu-x86_64]
#
# Asserts the `selected:` line of `hwcrypt caps`, not just that output looks
# right:
#   - HWCRYPT_CAPS=none natively selects ct for AES, SM4 and GHASH;
#   - qemu-x86_64 -cpu qemu64 (no AES-NI) selects ct;
#   - -cpu qemu64,+aes,+pclmulqdq,+ssse3,+sse4.1,+sse4.2 selects aesni and
#     pclmul (a CPU without AVX: also proves the aesni code needs nothing more);
#   - natively on a CPU with GFNI: sm4-gfni512 / sm4-gfni selected, and
#     sm4-aesni with HWCRYPT_CAPS=-gfni, each with SM4 round trips against ct.
# Under each model it also encrypts and decrypts with several AES modes and
# compares with the portable back end run natively (GCM's SP 800-38D test
# case 2 as a known answer, then random data long enough for the 8-block
# kernels). Prints one line per check and a final "N passed, N failed".
# Exits 1 if a check failed; 77 (skip) if the emulator is missing and the
# native checks passed.

HWC=${1:?usage: test_x86_dispatch.sh path/to/hwcrypt [qemu-x86_64]}
QEMU=${2:-$(command -v qemu-x86_64 2>/dev/null)}
T=$(mktemp -d "${TMPDIR:-/tmp}/x86dispatch.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1"
    [ -s "$T/out" ] && sed -n '1,20s/^/     | /p' "$T/out"
}

# selected NAME EXPECT RUNNER...: `caps` through RUNNER must print a
# `selected:` line containing every word of EXPECT (e.g. "aes=ct ghash=ct").
selected() {
    name=$1
    expect=$2
    shift 2
    if ! "$@" "$HWC" caps >"$T/out" 2>&1; then
        bad "$name: hwcrypt caps exited non-zero"
        return
    fi
    line=$(grep '^selected: ' "$T/out")
    for word in $expect; do
        case " ${line#selected: } " in
        *" $word "*) ;;
        *)
            bad "$name: expected $word in '$line'"
            return
            ;;
        esac
    done
    ok "$name: $line"
}

hex() { od -An -tx1 -v | tr -d ' \n'; }

# Inputs for the round trips: 1000 random bytes (62 whole blocks plus a
# partial one) and 1024 (whole blocks only).
head -c 1000 /dev/urandom >"$T/msg" || exit 1
head -c 1024 /dev/urandom >"$T/msg1024" || exit 1
zero16=$(printf '%032d' 0)

# Cipher, key (hex), IV (hex or -), input file.
cases() {
    cat <<EOF
aes-128-gcm 000102030405060708090a0b0c0d0e0f 000102030405060708090a0b $T/msg
aes-256-gcm 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f cafebabefacedbaddecaf888 $T/msg
aes-192-cbc 000102030405060708090a0b0c0d0e0f1011121314151617 0f0e0d0c0b0a09080706050403020100 $T/msg
aes-128-ctr 2b7e151628aed2a6abf7158809cf4f3c f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff $T/msg
aes-128-cfb 2b7e151628aed2a6abf7158809cf4f3c 000102030405060708090a0b0c0d0e0f $T/msg
aes-128-ofb 2b7e151628aed2a6abf7158809cf4f3c 000102030405060708090a0b0c0d0e0f $T/msg
aes-128-ocb 000102030405060708090a0b0c0d0e0f bbaa99887766554433221100 $T/msg
aes-128-ccm 404142434445464748494a4b4c4d4e4f 10111213141516 $T/msg
aes-256-xts 27182818284590452353602874713526624977572470936999595749669676273141592653589793238462643383279502884197169399375105820974944592 ff000000000000000000000000000000 $T/msg1024
aes-128-xts 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f ff000000000000000000000000000000 $T/msg
aes-128-ecb 000102030405060708090a0b0c0d0e0f - $T/msg1024
EOF
}

# SM4 cases, for the SM4 back ends (GFNI natively).
sm4_cases() {
    cat <<EOF
sm4-ctr 0123456789abcdeffedcba9876543210 000102030405060708090a0b0c0d0e0f $T/msg
sm4-cbc 0123456789abcdeffedcba9876543210 000102030405060708090a0b0c0d0e0f $T/msg1024
sm4-ofb 0123456789abcdeffedcba9876543210 000102030405060708090a0b0c0d0e0f $T/msg
sm4-cfb 0123456789abcdeffedcba9876543210 000102030405060708090a0b0c0d0e0f $T/msg
sm4-gcm 0123456789abcdeffedcba9876543210 000102030405060708090a0b $T/msg
sm4-ccm 0123456789abcdeffedcba9876543210 10111213141516 $T/msg
sm4-xts 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f ff000000000000000000000000000000 $T/msg
EOF
}

# roundtrip MODEL RUNNER...: each case (of CASES, default `cases`) encrypted
# through RUNNER equals the native ct encryption, and decrypts back to the
# input.
roundtrip() {
    model=$1
    shift
    runner_out="$T/run"
    ${CASES:-cases} | while read -r cipher key iv file; do
        ivopt=""
        [ "$iv" != "-" ] && ivopt="-iv $iv"
        # shellcheck disable=SC2086
        "$HWC" enc -"$cipher" -e -K "$key" $ivopt -impl ct -in "$file" -out "$T/ref" 2>"$T/out" || {
            echo "FAIL $model $cipher: native ct encryption failed"
            continue
        }
        # shellcheck disable=SC2086
        "$@" "$HWC" enc -"$cipher" -e -K "$key" $ivopt -in "$file" -out "$runner_out" 2>"$T/out" || {
            echo "FAIL $model $cipher: encryption failed"
            continue
        }
        if ! cmp -s "$T/ref" "$runner_out"; then
            echo "FAIL $model $cipher: ciphertext differs from native ct"
            continue
        fi
        # shellcheck disable=SC2086
        "$@" "$HWC" enc -"$cipher" -d -K "$key" $ivopt -in "$runner_out" -out "$T/back" 2>"$T/out" || {
            echo "FAIL $model $cipher: decryption failed"
            continue
        }
        if cmp -s "$file" "$T/back"; then
            echo "ok   $model $cipher: matches ct, round trip"
        else
            echo "FAIL $model $cipher: decryption differs from the input"
        fi
    done >"$T/rt"
    cat "$T/rt"
    pass=$((pass + $(grep -c '^ok ' "$T/rt")))
    fail=$((fail + $(grep -c '^FAIL ' "$T/rt")))
}

# kat MODEL RUNNER...: SP 800-38D test case 2 (AES-128-GCM, zero key, IV,
# one zero block) = 0388dace60b6a392f328c2b971b2fe78 || tag ab6e47d4...
kat() {
    model=$1
    shift
    want=0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf
    got=$(printf '%016d' 0 | tr 0 '\000' | head -c 16 | "$@" "$HWC" enc -aes-128-gcm -e -K "$zero16" \
        -iv 000000000000000000000000 2>"$T/out" | hex)
    if [ "$got" = "$want" ]; then ok "$model: GCM known answer"; else bad "$model: GCM known answer: $got"; fi
}

# ---------------------------------------------------------------- native
selected "native HWCRYPT_CAPS=none" "aes=ct sm4=ct ghash=ct" env HWCRYPT_CAPS=none
kat "native HWCRYPT_CAPS=none" env HWCRYPT_CAPS=none
roundtrip "native HWCRYPT_CAPS=none" env HWCRYPT_CAPS=none
selected "native HWCRYPT_CAPS=aesni,pclmul,ssse3,sse4.1" "aes=aesni ghash=pclmul" \
    env HWCRYPT_CAPS=aesni,pclmul,ssse3,sse4.1
roundtrip "native aesni" env HWCRYPT_CAPS=aesni,pclmul,ssse3,sse4.1

# GFNI (sm4-gfni, sm4-gfni512) runs natively only: QEMU 7.2 and 10 do not
# emulate GFNI (SIGILL under -cpu max).
probed=$("$HWC" caps 2>/dev/null | sed -n 's/^caps: //p')
case ",$probed," in
*,gfni,*)
    case ",$probed," in
    *,avx512,*)
        selected "native (GFNI, AVX-512)" "sm4=sm4-gfni512"
        CASES=sm4_cases roundtrip "native sm4-gfni512"
        ;;
    esac
    selected "native HWCRYPT_CAPS=-avx512 (the AVX2 path)" "aes=vaes sm4=sm4-gfni" env HWCRYPT_CAPS=-avx512
    CASES=sm4_cases roundtrip "native sm4-gfni" env HWCRYPT_CAPS=-avx512
    selected "native HWCRYPT_CAPS=-gfni" "sm4=sm4-aesni" env HWCRYPT_CAPS=-gfni
    CASES=sm4_cases roundtrip "native sm4-aesni (GFNI masked)" env HWCRYPT_CAPS=-gfni
    ;;
*)
    echo "SKIP: this CPU has no GFNI ($probed): sm4-gfni and sm4-gfni512 not run (QEMU does not emulate GFNI)"
    ;;
esac

# -------------------------------------------------------------- emulator
if [ -z "$QEMU" ] || ! [ -x "$QEMU" ]; then
    echo "$pass passed, $fail failed"
    [ "$fail" -ne 0 ] && exit 1
    echo "SKIP: qemu-x86_64 not found (apt-get install qemu-user): emulator CPU models not checked"
    exit 77
fi

PLAIN="qemu64"
AESNI="qemu64,+aes,+pclmulqdq,+ssse3,+sse4.1,+sse4.2"
selected "qemu -cpu $PLAIN" "aes=ct sm4=ct ghash=ct" "$QEMU" -cpu "$PLAIN"
kat "qemu -cpu $PLAIN" "$QEMU" -cpu "$PLAIN"
roundtrip "qemu $PLAIN" "$QEMU" -cpu "$PLAIN"
selected "qemu -cpu $AESNI" "aes=aesni ghash=pclmul" "$QEMU" -cpu "$AESNI"
kat "qemu -cpu $AESNI" "$QEMU" -cpu "$AESNI"
roundtrip "qemu aesni model" "$QEMU" -cpu "$AESNI"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
