#!/bin/sh
# hwcrypt's provider through the openssl command:
#   1. `openssl list` with -provider-path/-provider hwcrypt names every cipher
#      and MAC the provider promises;
#   2. `openssl enc` through hwcrypt matches the default provider byte for
#      byte, both directions, several sizes, with and without -nopad, for
#      every cipher `openssl enc` accepts (it refuses AEAD and XTS ciphers:
#      checked too, on both providers);
#   3. `openssl speed -evp aes-128-gcm` runs with the cipher fetched from
#      hwcrypt only (-propquery provider=hwcrypt makes it mandatory).
#   4. the example provider/hwcrypt.cnf makes libcrypto prefer hwcrypt, and
#      EVP through the provider keeps up with the library (loose bound).
#   5. HWCRYPT_PROVIDER_REPORT: openssl enc's exit appends its one line
#      (pid, bytes); an unopenable path changes nothing; unset, no line.
# usage: test_prov_cli.sh <dir with hwcrypt.so> <hwcrypt command>
set -u
dir=$1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if [ "${HWC_PROV_SANITIZED:-}" = 1 ]; then
  echo "SKIP: sanitizer build: the system's openssl command cannot load an instrumented hwcrypt.so (prov_evp and prov_tls cover the provider here)"
  exit 77
fi
command -v openssl >/dev/null 2>&1 || { echo "SKIP: no openssl command (scripts/install-deps test installs it)"; exit 77; }
[ -f "$dir/hwcrypt.so" ] || { echo "FAIL: $dir/hwcrypt.so not built"; exit 1; }

HW="-provider-path $dir -provider hwcrypt"
DEF="-provider default"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ------------------------------------------------------------------ list
openssl list -cipher-algorithms $HW >"$tmp/list" 2>&1 || bad "openssl list -cipher-algorithms failed"
# The provider's own entries: "{ oid, NAME, alias } @ hwcrypt" or "NAME @ hwcrypt".
grep '@ hwcrypt' "$tmp/list" | tr -d '{}' | sed 's/ @ hwcrypt//' | tr ',' '\n' |
  sed 's/^ *//; s/ *$//' | tr 'a-z' 'A-Z' | sort -u >"$tmp/names"
expected=""
for k in 128 192 256; do
  for m in ECB CBC CFB CFB8 CFB1 OFB CTR GCM CCM OCB SIV WRAP WRAP-PAD WRAP-INV WRAP-PAD-INV; do
    expected="$expected AES-$k-$m"
  done
done
expected="$expected AES-128-XTS AES-256-XTS AES-128-GCM-SIV AES-256-GCM-SIV ID-AES128-GCM ID-AES256-CCM ID-AES128-WRAP AES128 AES256"
expected="$expected SM4-ECB SM4-CBC SM4-CFB SM4-OFB SM4-CTR SM4-GCM SM4-CCM SM4-XTS SM4"
for n in $expected; do
  if grep -qx "$n" "$tmp/names"; then ok; else bad "openssl list does not show $n from hwcrypt"; fi
done
openssl list -mac-algorithms $HW >"$tmp/macs" 2>&1
for n in CMAC GMAC; do
  if grep '@ hwcrypt' "$tmp/macs" | grep -qw "$n"; then ok; else bad "openssl list -mac-algorithms does not show $n from hwcrypt"; fi
done
echo "list: $(grep -c . "$tmp/names") cipher names from hwcrypt"

# ------------------------------------------------------------------- enc
K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=f0e0d0c0b0a090807060504030201000
for size in 0 1 16 17 64 1000 1024 70001; do
  head -c $size /dev/urandom >"$tmp/in.$size"
done

compared=0
refused=0
# Each cipher name hwcrypt lists under its primary spelling.
ciphers=$(grep '@ hwcrypt' "$tmp/list" | sed 's/ @ hwcrypt//; s/[{}]//g' |
  awk -F',' '{ for (i = 1; i <= NF; i++) { gsub(/^ +| +$/, "", $i); if ($i ~ /^(AES|aes|SM4)-/) { print tolower($i); break } } }' | sort -u)
for c in $ciphers; do
  iv=$IV
  case $c in
    *-wrap-pad | *-wrap-pad-inv) iv=A65959A6; sizes="1 17 1000" ;;
    *-wrap | *-wrap-inv) iv=A6A6A6A6A6A6A6A6; sizes="16 64 1000" ;;
    *-ecb | *-cbc) sizes="0 17 1024 70001" ;; # -nopad: 0 and 1024
    *) sizes="1 17 70001" ;;                    # 70001: many reads by enc
  esac
  # Does `openssl enc` take this cipher at all (default provider)?
  if ! openssl enc $DEF -e -$c -K $K -iv $iv -in "$tmp/in.16" -out "$tmp/probe" 2>"$tmp/err"; then
    if grep -q "not supported\|Unknown cipher" "$tmp/err"; then
      refused=$((refused + 1))
      # hwcrypt's must be refused the same way, not half-work.
      if openssl enc $HW -e -$c -K $K -iv $iv -in "$tmp/in.16" -out "$tmp/probe" 2>/dev/null; then
        bad "openssl enc refuses $c with the default provider but runs it with hwcrypt"
      else
        ok
      fi
      continue
    fi
    bad "openssl enc -$c with the default provider: $(head -1 "$tmp/err")"
    continue
  fi
  compared=$((compared + 1))
  pads="pad"
  case $c in *-ecb | *-cbc) pads="pad nopad" ;; esac
  for size in $sizes; do
    for p in $pads; do
      np=""
      if [ $p = nopad ]; then
        [ $((size % 16)) -eq 0 ] || continue
        np=-nopad
      fi
      f="$tmp/in.$size"
      openssl enc $DEF -e -$c -K $K -iv $iv $np -in "$f" -out "$tmp/ref.ct" 2>"$tmp/err" || { bad "default enc -$c $size $p: $(head -1 "$tmp/err")"; continue; }
      if openssl enc $HW -e -$c -K $K -iv $iv $np -in "$f" -out "$tmp/hw.ct" 2>"$tmp/err" && cmp -s "$tmp/ref.ct" "$tmp/hw.ct"; then
        ok
      else
        bad "enc -$c encrypt $size bytes $p: hwcrypt differs from default ($(head -1 "$tmp/err"))"
      fi
      if openssl enc $HW -d -$c -K $K -iv $iv $np -in "$tmp/ref.ct" -out "$tmp/hw.pt" 2>"$tmp/err" && cmp -s "$f" "$tmp/hw.pt"; then
        ok
      else
        bad "enc -$c decrypt $size bytes $p: hwcrypt did not recover the plaintext ($(head -1 "$tmp/err"))"
      fi
    done
  done
done
# 7 AES modes x 3 key sizes, 4 key-wrap kinds x 3, 5 SM4 modes.
[ $compared -ge 38 ] && ok || bad "only $compared ciphers compared through openssl enc (expected 38)"
echo "enc: $compared ciphers compared with the default provider; $refused refused by openssl enc (AEAD, XTS) on both providers"

# ----------------------------------------------------------------- speed
if openssl speed -provider-path "$dir" -provider default -provider hwcrypt -propquery provider=hwcrypt \
     -evp aes-128-gcm -seconds 1 -bytes 16384 >"$tmp/speed" 2>"$tmp/speed.err"; then
  row=$(grep '^AES-128-GCM' "$tmp/speed")
  rate=$(echo "$row" | awk '{ sub(/k$/, "", $2); print $2 }')
  if [ -n "$rate" ] && awk -v r="$rate" 'BEGIN { exit !(r > 0) }'; then ok; else bad "openssl speed: no AES-128-GCM figure: $row"; fi
  echo "speed: openssl speed -evp aes-128-gcm -bytes 16384 through hwcrypt: ${rate}k bytes/s"
else
  bad "openssl speed through hwcrypt failed: $(head -2 "$tmp/speed.err")"
fi

# The example config (provider/hwcrypt.cnf) makes libcrypto prefer hwcrypt:
# `hwcrypt speed -openssl` then measures EVP through the provider against the
# library, interleaved in one process. A loose bound (the provider path at
# least half the direct speed) catches gross per-call overhead without
# tripping on a busy machine; docs/PERFORMANCE.md has the real figures.
hwc=${2:-}
cnf=$(dirname "$0")/../../provider/hwcrypt.cnf
if [ -n "$hwc" ] && [ -x "$hwc" ]; then
  if OPENSSL_CONF=$cnf OPENSSL_MODULES=$dir "$hwc" speed -openssl -evp aes-128-gcm -seconds 1 -bytes 16384 \
       >"$tmp/hspeed" 2>"$tmp/hspeed.err"; then
    ratio=$(awk '$1 == "AES-128-GCM" { sub(/x$/, "", $3); print $3 }' "$tmp/hspeed")
    if [ -n "$ratio" ] && awk -v r="$ratio" 'BEGIN { exit !(r > 0 && r <= 2.0) }'; then ok; else bad "library/provider speed ratio $ratio (expected <= 2): $(cat "$tmp/hspeed")"; fi
    echo "speed: AES-128-GCM at 16 KiB, libhwcrypt direct / EVP through the provider = ${ratio}x (same process, interleaved)"
  else
    bad "hwcrypt speed -openssl with provider/hwcrypt.cnf failed: $(head -2 "$tmp/hspeed.err")"
  fi
else
  bad "no hwcrypt command given"
fi

# ---------------------------------------------------------------- report
# HWCRYPT_PROVIDER_REPORT: one line per process at exit, with its pid and
# the bytes it sent through hwcrypt; a file that cannot be opened changes
# nothing in the program; unset, nothing is written.
rep=$tmp/report
enc_ctr() { # $1: report path ("" = unset), $2: output; prints openssl's pid
  # shellcheck disable=SC2016 # $$ is the inner shell's, which execs openssl
  env ${1:+HWCRYPT_PROVIDER_REPORT=$1} sh -c 'echo $$; exec "$@"' sh \
    openssl enc -aes-256-ctr -K $K -iv $IV $HW -in "$tmp/in.70001" -out "$2" 2>"$tmp/rep.err"
}
pid=$(enc_ctr "$rep" "$tmp/rep.out") || bad "openssl enc with HWCRYPT_PROVIDER_REPORT failed: $(head -2 "$tmp/rep.err")"
line=$(cat "$rep" 2>/dev/null)
case $line in
"hwcrypt-provider pid=$pid comm=openssl hwcrypt-bytes=70001 hwcrypt-gcm-bytes=0 aes-impl="*) ok ;;
*) bad "report after 70001 bytes of AES-256-CTR by pid $pid: '$line'" ;;
esac
if [ "$(grep -c . "$rep" 2>/dev/null)" = 1 ]; then ok; else bad "report: $(grep -c . "$rep" 2>/dev/null) lines, not 1"; fi
for where in "$tmp/no-such-dir/report" "$tmp"; do # a missing directory; a directory
  if enc_ctr "$where" "$tmp/rep.out2" >/dev/null && cmp -s "$tmp/rep.out" "$tmp/rep.out2" && [ ! -s "$tmp/rep.err" ]; then
    ok
  else
    bad "HWCRYPT_PROVIDER_REPORT=$where changed openssl enc's result: $(head -2 "$tmp/rep.err")"
  fi
done
enc_ctr "" "$tmp/rep.out2" >/dev/null || bad "openssl enc failed"
if [ "$(grep -c . "$rep" 2>/dev/null)" = 1 ]; then ok; else bad "a run without HWCRYPT_PROVIDER_REPORT wrote to the report"; fi
echo "report: $line"

echo "$pass checks passed, $fail failed"
[ $fail -eq 0 ]
