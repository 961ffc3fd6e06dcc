#!/bin/bash
# hwcrypt enc against openssl enc (byte for byte, both directions) for every
# cipher openssl enc has; AEAD round trips, and a forged message must exit 1
# and write nothing; XTS and key wrap round trips; CMAC and GMAC against
# `openssl mac`.  Usage: test_enc_cli.sh HWCRYPT_BINARY
set -u
hw=$1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
if ! command -v openssl >/dev/null; then
  echo "SKIP: openssl command not installed (apt-get install openssl)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hex() { head -c "$1" /dev/urandom | od -An -tx1 -v | tr -d ' \n'; }

sizes="0 1 15 16 17 31 100 1000 70001"
for s in $sizes; do head -c "$s" /dev/urandom > "$tmp/in.$s"; done

ciphers="aes-128-ecb aes-192-ecb aes-256-ecb aes-128-cbc aes-192-cbc aes-256-cbc
aes-128-cfb aes-192-cfb aes-256-cfb aes-128-cfb8 aes-256-cfb8 aes-128-cfb1 aes-256-cfb1
aes-128-ofb aes-256-ofb aes-128-ctr aes-192-ctr aes-256-ctr
sm4-ecb sm4-cbc sm4-cfb sm4-ofb sm4-ctr"
# One cipher, both directions, every size: its own results file, so the
# ciphers run in parallel (hundreds of process starts dominate this test).
enc_cipher() {
  c=$1 res=$tmp/res.$1 d=$tmp/work.$1
  mkdir -p "$d"
  case $c in aes-192*) kl=24 ;; aes-256*) kl=32 ;; *) kl=16 ;; esac
  key=$(hex $kl) iv=$(hex 16)
  ivopt="-iv $iv"
  case $c in *ecb) ivopt="" ;; esac
  if ! openssl enc -$c -K "$key" $ivopt -in /dev/null >/dev/null 2>&1; then
    echo "SKIP $c: this openssl enc lacks it" >>"$res"
    return
  fi
  for pad in "" -nopad; do
    for s in $sizes; do
      case "$pad:$c:$s" in -nopad:*-ecb:*|-nopad:*-cbc:*) [ $((s % 16)) -eq 0 ] || continue ;; esac
      [ -n "$pad" ] && case $c in *ecb|*cbc) ;; *) continue ;; esac
      openssl enc -$c -K "$key" $ivopt $pad -in "$tmp/in.$s" -out "$d/ossl" 2>/dev/null
      if "$hw" enc -$c -K "$key" $ivopt $pad -in "$tmp/in.$s" -out "$d/hw" && cmp -s "$d/ossl" "$d/hw"; then echo ok; else echo "FAIL: $c $pad $s bytes: encryption differs from openssl enc"; fi >>"$res"
      if "$hw" enc -$c -d -K "$key" $ivopt $pad -in "$d/ossl" -out "$d/back" && cmp -s "$d/back" "$tmp/in.$s"; then echo ok; else echo "FAIL: $c $pad $s bytes: decryption of openssl's output"; fi >>"$res"
    done
  done
}
jobs=$(nproc 2>/dev/null || echo 2)
running=0
for c in $ciphers; do
  enc_cipher "$c" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait
for c in $ciphers; do
  [ -f "$tmp/res.$c" ] || { bad "$c: no results"; continue; }
  while read -r line; do
    case $line in
      ok) ok ;;
      SKIP*) echo "$line" ;;
      *) bad "${line#FAIL: }" ;;
    esac
  done <"$tmp/res.$c"
done
# Streaming through pipes, larger than the 64 KiB chunk.
key=$(hex 16) iv=$(hex 16)
head -c 300000 /dev/urandom > "$tmp/big"
if cat "$tmp/big" | "$hw" enc -aes-128-cbc -K $key -iv $iv | cmp -s - <(openssl enc -aes-128-cbc -K $key -iv $iv -in "$tmp/big"); then ok; else bad "aes-128-cbc through a pipe"; fi
# A bad padding is an error, as in openssl: a block whose plaintext ends in
# a zero byte (never valid PKCS#7), encrypted without padding.
head -c 16 /dev/zero > "$tmp/zero16"
"$hw" enc -aes-128-cbc -nopad -K $key -iv $iv -in "$tmp/zero16" -out "$tmp/badpad"
if "$hw" enc -aes-128-cbc -d -K $key -iv $iv -in "$tmp/badpad" -out "$tmp/x" 2>/dev/null; then bad "CBC decrypt with invalid padding accepted"; else ok; fi

# AEADs: round trip, tag at the end, forgery rejected with no output.
for c in aes-128-gcm aes-256-gcm sm4-gcm aes-128-ccm aes-128-ocb sm4-ocb aes-128-siv aes-256-gcm-siv sm4-ccm; do
  case $c in *siv) kl=$(( $(echo $c | sed 's/aes-\([0-9]*\).*/\1/') / 4 )) ;; *) kl=16 ;; esac
  case $c in *gcm-siv) kl=$(( kl / 2 )) ;; esac
  case $c in aes-256-gcm) kl=32 ;; esac
  key=$(hex $kl) nonce=$(hex 12) aad=$(hex 20)
  for s in 0 1 17 1000 70001; do
    "$hw" enc -$c -K $key -iv $nonce -aad $aad -in "$tmp/in.$s" -out "$tmp/sealed" || { bad "$c seal $s"; continue; }
    [ $(stat -c %s "$tmp/sealed") -eq $((s + 16)) ] && ok || bad "$c: sealed length for $s bytes"
    if "$hw" enc -$c -d -K $key -iv $nonce -aad $aad -in "$tmp/sealed" -out "$tmp/opened" && cmp -s "$tmp/opened" "$tmp/in.$s"; then ok; else bad "$c open $s"; fi
    # Flip the last byte (the tag): exit 1, no output file, nothing on stdout.
    python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[-1]^=1; open(sys.argv[2],'wb').write(d)" "$tmp/sealed" "$tmp/forged"
    rm -f "$tmp/forged.out"
    "$hw" enc -$c -d -K $key -iv $nonce -aad $aad -in "$tmp/forged" -out "$tmp/forged.out" 2>/dev/null
    rc=$?
    [ $rc -eq 1 ] && [ ! -e "$tmp/forged.out" ] && ok || bad "$c forged $s: exit $rc, output file $( [ -e "$tmp/forged.out" ] && echo present || echo absent)"
    n=$("$hw" enc -$c -d -K $key -iv $nonce -aad $aad -in "$tmp/forged" 2>/dev/null | wc -c)
    [ "$n" -eq 0 ] && ok || bad "$c forged $s: $n bytes on stdout"
    ls "$tmp" | grep -q hwcrypt- && bad "$c: temporary file left behind" || ok
  done
done

# Shorter tags: OCB and CCM fold the tag length into the message, so
# decryption must set it too (-taglen was lost on OCB decryption).
for c in aes-128-gcm aes-128-ocb aes-128-ccm sm4-gcm; do
  key=$(hex 16) nonce=$(hex 12)
  for t in 8 12; do
    "$hw" enc -$c -K $key -iv $nonce -taglen $t -in "$tmp/in.1000" -out "$tmp/sealed" &&
      [ $(stat -c %s "$tmp/sealed") -eq $((1000 + t)) ] &&
      "$hw" enc -$c -d -K $key -iv $nonce -taglen $t -in "$tmp/sealed" -out "$tmp/opened" &&
      cmp -s "$tmp/opened" "$tmp/in.1000" && ok || bad "$c -taglen $t round trip"
  done
done

# XTS (openssl enc has none): round trip and a changed tweak changes the output.
k1=$(hex 16) k2=$(hex 16) tw=$(hex 16)
"$hw" enc -aes-128-xts -K $k1$k2 -iv $tw -in "$tmp/in.1000" -out "$tmp/x1" && "$hw" enc -aes-128-xts -d -K $k1$k2 -iv $tw -in "$tmp/x1" -out "$tmp/x2" && cmp -s "$tmp/x2" "$tmp/in.1000" && ok || bad "aes-128-xts round trip"
"$hw" enc -aes-128-xts -K $k1$k1 -iv $tw -in "$tmp/in.1000" -out "$tmp/x1" 2>/dev/null && bad "XTS equal key halves accepted" || ok
# Key wrap round trip.
head -c 24 /dev/urandom > "$tmp/k24"
kek=$(hex 16)
"$hw" enc -aes-128-wrap -K $kek -in "$tmp/k24" -out "$tmp/w" && [ $(stat -c %s "$tmp/w") -eq 32 ] && "$hw" enc -aes-128-wrap -d -K $kek -in "$tmp/w" -out "$tmp/u" && cmp -s "$tmp/u" "$tmp/k24" && ok || bad "aes-128-wrap round trip"
# MACs against openssl mac.
key=$(hex 16) iv=$(hex 12)
want=$(openssl mac -cipher AES-128-CBC -macopt hexkey:$key -in "$tmp/in.1000" CMAC 2>/dev/null | tr A-F a-f)
got=$("$hw" enc -aes-128-cmac -K $key -in "$tmp/in.1000" | od -An -tx1 -v | tr -d ' \n')
[ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "aes-128-cmac: $got, openssl mac: $want"
want=$(openssl mac -cipher AES-128-GCM -macopt hexkey:$key -macopt hexiv:$iv -in "$tmp/in.1000" GMAC 2>/dev/null | tr A-F a-f)
got=$("$hw" enc -aes-128-gmac -K $key -iv $iv -in "$tmp/in.1000" | od -An -tx1 -v | tr -d ' \n')
[ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "aes-128-gmac: $got, openssl mac: $want"
# Errors: unknown cipher, missing key, bad hex.
"$hw" enc -aes-128-foo -K 00 2>/dev/null && bad "unknown cipher accepted" || ok
"$hw" enc -aes-128-cbc -iv $(hex 16) </dev/null 2>/dev/null && bad "missing -K accepted" || ok
"$hw" enc -aes-128-cbc -K zz -iv $(hex 16) </dev/null 2>/dev/null && bad "bad hex accepted" || ok

echo "test_enc_cli: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
