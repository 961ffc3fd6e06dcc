#!/bin/sh
# Smoke test of `hwcrypt speed`: the OpenSSL-compatible text and -mr formats,
# csv/json, -compare, -openssl, -gcrypt/-peers, the option errors.  Runs in well under 30 s:
# every measurement uses -seconds 0.1 (or less) and few sizes.
#
# usage: tests/test_speed_cli.sh path/to/hwcrypt
# Prints one line per check and a final "N passed, N failed"; exits non-zero
# when a check failed.

HWC=${1:?usage: test_speed_cli.sh path/to/hwcrypt}
T=$(mktemp -d "${TMPDIR:-/tmp}/speedcli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1"
    # Show what the command printed, to see why.
    for f in "$T/out" "$T/err"; do
        [ -s "$f" ] && sed -n '1,40s/^/     | /p' "$f"
    done
}
# check NAME COMMAND...: passes when COMMAND exits 0.
check() {
    name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
# run ARGS...: hwcrypt speed ARGS, stdout in $T/out, stderr in $T/err, status in $rc.
run() {
    "$HWC" speed "$@" >"$T/out" 2>"$T/err"
    rc=$?
}
has_out() { grep -q -e "$1" "$T/out"; }
has_err() { grep -q -e "$1" "$T/err"; }

# A row in OpenSSL's column format: %-13s name, then per size " %11.2fk"
# (" %11.2f " under 10000 bytes/s).  $1: row name, $2: number of sizes.
row_ok() {
    awk -v name="$1" -v n="$2" '
        BEGIN { found = 0; good = 1 }
        substr($0, 1, length(name) + 1) == name " " || $0 == name {
            found = 1
            w = length(name) > 13 ? length(name) : 13
            if (substr($0, 1, w) != sprintf("%-13s", name)) good = 0
            for (i = 0; i < n; i++) {
                cell = substr($0, w + 1 + 13 * i, 13)
                if (cell !~ /^ +[0-9]+\.[0-9][0-9][k ]$/ || length(cell) != 13) good = 0
            }
        }
        END { exit !(found && good) }' "$T/out"
}

# ------------------------------------------------------------------- help
run -h
check "-h exits 0 and prints usage" test "$rc" -eq 0
check "-h lists -evp, -compare, -openssl" sh -c "grep -q -- '-evp' '$T/out' && grep -q -- '-compare' '$T/out' && grep -q -- '-openssl' '$T/out'"

# ------------------------------------------------- OpenSSL-compatible text
run -evp aes-128-cbc -seconds 0.1
check "text: exit 0" test "$rc" -eq 0
check "text: version line" has_out '^version: hwcrypt '
check "text: compiler line" has_out '^compiler: '
check "text: CPUINFO line names caps and back end" has_out '^CPUINFO: caps=.* impl='
check "text: numbers line" has_out "^The 'numbers' are in 1000s of bytes per second processed\.\$"
check "text: type header" has_out '^type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes$'
check "text: row in OpenSSL's column format" row_ok AES-128-CBC 6
check "text: the seeds' pipeline (grep -i aes | grep k) finds the row" \
    sh -c "grep -i aes '$T/out' | grep k | grep -q '^AES-128-CBC '"
check "text: 6 progress lines on stderr" test "$(grep -c '^Doing AES-128-CBC ops for 0.1s on [0-9]* size blocks: [0-9]* AES-128-CBC ops in [0-9]*\.[0-9][0-9]s$' "$T/err")" -eq 6
check "text: nothing but the table on stdout" sh -c "! grep -q '^Doing' '$T/out'"

run -evp AES-128-CTR -bytes 100 -seconds 0.05
check "-bytes 100: one column" has_out '^type            100 bytes$'
check "upper-case -evp name: row" row_ok AES-128-CTR 1

# ------------------------------------------------------- machine readable
run -mr -evp aes-128-ctr -evp sm4-ctr -bytes 64 -seconds 0.05
check "-mr: exit 0" test "$rc" -eq 0
check "-mr: +H line" has_out '^+H:64$'
check "-mr: +F lines with index, name, value" \
    sh -c "grep -q '^+F:0:AES-128-CTR:[0-9]*\.[0-9][0-9]\$' '$T/out' && grep -q '^+F:1:SM4-CTR:[0-9]*\.[0-9][0-9]\$' '$T/out'"
check "-mr: no human lines on stdout" sh -c "! grep -q -e '^version' -e '^type' -e numbers '$T/out'"
check "-mr: +DT and +R on stderr" \
    sh -c "grep -q '^+DT:AES-128-CTR:0.05:64\$' '$T/err' && grep -q '^+R:[0-9]*:AES-128-CTR:[0-9.]*\$' '$T/err'"
# The way OpenSSL's -multi parent reads a child's +F line.
check "-mr: +F parses like OpenSSL's" awk -F: '
    /^\+F:/ { n++; if (NF != 4 || $2 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+\.[0-9][0-9]$/) bad = 1 }
    END { exit !(n == 2 && !bad) }' "$T/out"

# ------------------------------------------------------------- -aead sizes
run -evp aes-128-gcm -aead -seconds 0.05
check "-aead: sizes 2 31 136 1024 8192 16384" has_out '^type              2 bytes     31 bytes    136 bytes   1024 bytes   8192 bytes  16384 bytes$'
check "-aead: row" row_ok AES-128-GCM 6

# --------------------------------------------------- modes, directions, ...
run -evp aes-128-xts -evp aes-128-wrap -evp aes-128-ccm -evp aes-128-cmac -bytes 8 -seconds 0.05
check "XTS under 16 bytes: skipped, printed as 0.00" sh -c "grep -q '^AES-128-XTS          0.00 \$' '$T/out'"
check "KW of 8 bytes: skipped, printed as 0.00" sh -c "grep -q '^AES-128-WRAP         0.00 \$' '$T/out'"
check "skips are reported on stderr" has_err 'skipped'
run -evp aes-128-cbc -evp aes-128-siv -evp aes-128-wrap-pad -decrypt -misalign 3 -multi 2 -bytes 1024 -seconds 0.05
check "-decrypt -misalign 3 -multi 2: exit 0" test "$rc" -eq 0
check "-decrypt: rows" sh -c "grep -q '^AES-128-CBC ' '$T/out' && grep -q '^AES-128-SIV ' '$T/out' && grep -q '^AES-128-WRAP-PAD ' '$T/out'"

# ---------------------------------------------------------------- csv/json
run -evp aes-128-ctr -evp aes-128-gcm -bytes 256 -seconds 0.05 -format csv
check "csv: header" sh -c "head -1 '$T/out' | grep -q '^name,cipher,impl,op,bytes,ops,seconds,bytes_per_second,speedup\$'"
check "csv: one line per row and size, 9 fields" awk -F, 'NR > 1 { n++; if (NF != 9 || $5 != 256 || $8 !~ /^[0-9.]+$/) bad = 1 } END { exit !(n == 2 && !bad) }' "$T/out"
if command -v python3 >/dev/null 2>&1; then
    check "csv: parses (python3 csv)" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 and float(rows[0]["bytes_per_second"]) > 0, rows' "$T/out"
    run -evp aes-128-ctr -evp sm4-ctr -seconds 0.05 -bytes 64 -compare -format json
    check "json: parses (python3 json.load) with the expected shape" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["sizes"] == [64] and d["baseline"] == "ct", d
names = [r["name"] for r in d["results"]]
assert "AES-128-CTR@ct" in names and "SM4-CTR@ct" in names, names
for r in d["results"]:
    assert len(r["bytes_per_second"]) == 1 and r["bytes_per_second"][0] > 0, r
    assert r["speedup"] is not None
' "$T/out"
else
    echo "skip json/csv parse checks: no python3"
fi

# ---------------------------------------------------------------- -compare
run -evp aes-128-ctr -compare -bytes 1024 -seconds 0.05
check "-compare: exit 0" test "$rc" -eq 0
check "-compare: speed-up column header" has_out '^type           1024 bytes      vs ct$'
check "-compare: ct row with 1.00x" sh -c "grep -q '^AES-128-CTR@ct .* 1\.00x\$' '$T/out'"
# Every AES back end `hwcrypt list` calls available has a row.
"$HWC" list >"$T/list" 2>/dev/null
missing=$(awk '$1 == "aes" && $3 == "available" { print $2 }' "$T/list" | while read -r impl; do
    grep -q "^AES-128-CTR@$impl " "$T/out" || echo "$impl"
done)
check "-compare: a row for every available AES back end${missing:+ (missing: $missing)}" test -z "$missing"
run -evp aes-128-ctr -compare -impl ct -seconds 0.05
check "-compare with -impl: refused" test "$rc" -ne 0

# ------------------------------------------------------------------ -impl
run -evp aes-128-ctr -impl ct -bytes 64 -seconds 0.05
check "-impl ct: row, CPUINFO says forced" sh -c "grep -q '^AES-128-CTR ' '$T/out' && grep -q 'impl=ct (forced)' '$T/out'"
run -evp aes-128-ctr -impl no-such-impl -seconds 0.05
check "-impl unknown: non-zero exit with a message" sh -c "test $rc -ne 0 && grep -q \"unknown back end 'no-such-impl'\" '$T/err'"

# ---------------------------------------------------------------- -openssl
run -evp aes-128-ctr -openssl -bytes 1024 -seconds 0.05
if has_err 'built without OpenSSL'; then
    check "-openssl without OpenSSL: clear message, still measures" row_ok AES-128-CTR 1
else
    check "-openssl: exit 0" test "$rc" -eq 0
    check "-openssl: NAME@openssl row" row_ok AES-128-CTR@openssl 1
    check "-openssl: ratio column over OpenSSL" sh -c "grep -q '^AES-128-CTR@openssl .* 1\.00x\$' '$T/out'"
    run -evp aes-128-gcm-siv -openssl -bytes 1024 -seconds 0.05
    if has_err 'has no'; then
        check "-openssl, cipher OpenSSL lacks: message, hwcrypt row still there" row_ok AES-128-GCM-SIV 1
    else
        check "-openssl aes-128-gcm-siv: row" row_ok AES-128-GCM-SIV@openssl 1
    fi
fi

# ------------------------------------------------------- -gcrypt, -peers
# libgcrypt is opened at run time; -aead -decrypt makes it open messages
# hwcrypt sealed, so a measured row also shows the two agree (a refused tag
# leaves the size unmeasured: 0.00 and a message).
run -evp aes-128-gcm -gcrypt -aead -decrypt -bytes 1024 -seconds 0.05
if has_err 'no @gcrypt rows'; then
    echo "SKIP -gcrypt rows: $(cat "$T/err")"
    check "-gcrypt without libgcrypt: reason given, hwcrypt row still measured" row_ok AES-128-GCM 1
else
    check "-gcrypt: exit 0" test "$rc" -eq 0
    check "-gcrypt: NAME@gcrypt row, ratio over it" sh -c "grep -q '^AES-128-GCM@gcrypt .* 1\.00x\$' '$T/out'"
    check "-gcrypt -aead -decrypt: libgcrypt opened hwcrypt's messages" \
        sh -c "! grep -q '^AES-128-GCM@gcrypt  *0\.00' '$T/out' && ! grep -q '^speed: AES-128-GCM@gcrypt' '$T/err'"
    check "-gcrypt: version line" has_out '^gcrypt: libgcrypt '
    run -evp aes-128-ctr -peers -bytes 1024 -seconds 0.05
    check "-peers: NAME@gcrypt row" row_ok AES-128-CTR@gcrypt 1
    if ! has_err 'built without OpenSSL'; then
        check "-peers: NAME@openssl row, ratios over OpenSSL" sh -c "grep -q '^AES-128-CTR@openssl .* 1\.00x\$' '$T/out'"
    fi
    run -evp aes-128-wrap -gcrypt -bytes 1024 -seconds 0.05
    check "-gcrypt, a cipher not measured there: message, hwcrypt row still there" \
        sh -c "test $rc -eq 0 && grep -q 'not measured against libgcrypt' '$T/err' && ! grep -q '@gcrypt' '$T/out'"
fi

# ------------------------------------------------------------------ errors
run -evp no-such-cipher
check "unknown cipher: non-zero exit" test "$rc" -ne 0
check "unknown cipher: message" has_err "unknown cipher 'no-such-cipher'"
run -no-such-option
check "unknown option: non-zero exit with a message" sh -c "test $rc -ne 0 && grep -q \"unknown option '-no-such-option'\" '$T/err'"
run -evp aes-128-cbc -aead
check "-aead with a non-AEAD cipher: refused" sh -c "test $rc -ne 0 && grep -q 'only with an AEAD' '$T/err'"
run -evp aes-128-cbc -misalign 64
check "-misalign 64: refused" test "$rc" -ne 0
run -evp aes-128-cbc -seconds 0
check "-seconds 0: refused" test "$rc" -ne 0
run -evp aes-128-cbc -format xml
check "-format xml: refused" test "$rc" -ne 0

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
