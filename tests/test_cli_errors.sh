#!/bin/sh
# The exit codes and messages of `hwcrypt enc` for each kind of failure
# (docs/ERRORS.md, "The command line"): 1 for an input that fails, 2 for an
# invocation the cipher cannot honour; one line on stderr; nothing written
# when authentication fails.
#   test_cli_errors.sh HWCRYPT
set -u
hw=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 failn=0
k16=000102030405060708090a0b0c0d0e0f
k32=${k16}${k16}
iv=00112233445566778899aabbccddeeff
printf 'attack at dawn, attack at dawn!!' >"$tmp/msg"

# expect EXIT 'stderr pattern' hwcrypt-args... (stdin from $tmp/in if present)
expect() {
  want=$1 pattern=$2
  shift 2
  "$hw" "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq "$want" ] && grep -q -- "$pattern" "$tmp/err"; then
    pass=$((pass + 1))
  else
    failn=$((failn + 1))
    echo "FAIL: hwcrypt $* -> exit $rc (want $want), stderr: $(cat "$tmp/err") (want /$pattern/)"
  fi
}

cp "$tmp/msg" "$tmp/in"
# 2: the invocation is wrong.
expect 2 "unknown option or cipher" enc -aes-128-nope -K $k16
expect 2 "invalid IV or nonce length" enc -aes-128-ccm -K $k16 -iv 0011
expect 2 "invalid tag length" enc -aes-128-gcm -K $k16 -iv 00112233445566778899aabb -taglen 3
expect 2 "XTS key halves are equal" enc -aes-128-xts -K $k32 -iv $iv
expect 2 "back end 'no-such'" enc -aes-128-cbc -K $k16 -iv $iv -impl no-such
expect 2 "not supported" enc -aes-128-ctr -K $k16 -iv $iv -nopad
expect 2 "iv undefined" enc -aes-128-cbc -K $k16
expect 2 "not a hex string" enc -aes-128-cbc -K zz -iv $iv
# An empty nonce is an IV-length error, not a state error (issue 14, D8).
expect 2 "invalid IV or nonce length: -iv is empty" enc -aes-128-gcm -K $k16 -iv ""
expect 2 "invalid IV or nonce length: -iv is empty" enc -aes-128-gmac -K $k16 -iv ""
expect 2 "invalid IV or nonce length: -iv is empty" enc -aes-128-ccm -K $k16 -iv ""
HWCRYPT_CAPS=nonsense "$hw" enc -aes-128-cbc -K $k16 -iv $iv <"$tmp/in" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "unknown capability" "$tmp/err"; then
  pass=$((pass + 1))
else
  failn=$((failn + 1)); echo "FAIL: HWCRYPT_CAPS=nonsense: exit $rc, stderr: $(cat "$tmp/err")"
fi
# 1: this input fails, or reading or writing does (issue 14, D7).
expect 1 "-in $tmp/missing: No such file or directory" enc -aes-128-cbc -K $k16 -iv $iv -in "$tmp/missing"
expect 1 "-in $tmp: Is a directory" enc -aes-128-cbc -K $k16 -iv $iv -in "$tmp"
expect 1 "-out $tmp/nodir/out: directory $tmp/nodir: No such file or directory" enc -aes-128-cbc -K $k16 -iv $iv -out "$tmp/nodir/out"
expect 1 "-out $tmp: Is a directory" enc -aes-128-cbc -K $k16 -iv $iv -out "$tmp"
if [ -e "$tmp/nodir" ]; then failn=$((failn + 1)); echo "FAIL: -out in a missing directory created it"; else pass=$((pass + 1)); fi
printf 'abc' >"$tmp/in"
expect 1 "data length" enc -aes-128-cbc -nopad -K $k16 -iv $iv
"$hw" enc -aes-128-cbc -nopad -K $k16 -iv $iv -in "$tmp/msg" -out "$tmp/ct" 2>/dev/null
cp "$tmp/ct" "$tmp/in"
expect 1 "bad decrypt" enc -d -aes-128-cbc -K $k16 -iv $iv
# Authentication: exit 1, the message says so, nothing on stdout or in -out.
for c in aes-128-gcm aes-128-ccm aes-128-ocb aes-128-siv aes-128-gcm-siv sm4-gcm; do
  nonce=00112233445566778899aabb
  [ $c = aes-128-siv ] && key=$k32 || key=$k16
  "$hw" enc -$c -K $key -iv $nonce -in "$tmp/msg" -out "$tmp/sealed" 2>/dev/null
  python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[3]^=1; open(sys.argv[2],'wb').write(d)" \
    "$tmp/sealed" "$tmp/in"
  expect 1 "authentication failed" enc -d -$c -K $key -iv $nonce
  if [ -s "$tmp/out" ]; then
    failn=$((failn + 1)); echo "FAIL: $c forged: $(wc -c <"$tmp/out") bytes on stdout"
  else
    pass=$((pass + 1))
  fi
  rm -f "$tmp/plain"
  expect 1 "authentication failed" enc -d -$c -K $key -iv $nonce -out "$tmp/plain"
  if [ -e "$tmp/plain" ] || ls "$tmp"/plain.hwcrypt-* >/dev/null 2>&1; then
    failn=$((failn + 1)); echo "FAIL: $c forged: an output file was left behind"
  else
    pass=$((pass + 1))
  fi
done
k=000102030405060708090a0b0c0d0e0f
"$hw" enc -aes-128-wrap -K $k -in "$tmp/msg" -out "$tmp/wrapped" 2>/dev/null
python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[9]^=1; open(sys.argv[2],'wb').write(d)" \
  "$tmp/wrapped" "$tmp/in"
expect 1 "authentication failed" enc -d -aes-128-wrap -K $k
echo "test_cli_errors: $pass passed, $failn failed"
[ $failn -eq 0 ] && [ $pass -gt 0 ]
