#!/bin/sh
# Instruction counts held to the recorded figures (part of make check-a64):
# a quick form of bench/a64-icount (N = 16 KiB, 50 against 100 messages, no
# OpenSSL column) on cortex-a72 (AES + PMULL) and max,sve=off (SHA3, SM4E)
# over the rows of tests/arm/icount/a64.rows, whose last two columns are the
# figures recorded in the repository (instructions per byte inside
# libhwcrypt; per message for the gcm-message rows). Fails when a row is
# more than 1% above its recorded figure on either model, or cannot be
# measured (n/a).
#
#   tests/arm/icount-check.sh [-B BUILD] [-q QEMU] [-j JOBS] [-u]
#
#   -B BUILD  aarch64 cross build to use (default build-a64, the one
#             tests/arm/run-a64.sh makes; configured here when missing);
#             bench_run and the counting plugin are (re)built first
#   -q QEMU   qemu-aarch64 with plugin support (default: Debian 12's 7.2)
#   -u        measure and rewrite the recorded figures (after a change that
#             is meant to move them; the diff shows what moved)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build-a64 qemu=qemu-aarch64 jobs=2 update=0
while getopts B:q:j:u opt; do
  case $opt in
    B) build=$OPTARG ;;
    q) qemu=$OPTARG ;;
    j) jobs=$OPTARG ;;
    u) update=1 ;;
    *) sed -n '2,/^set -eu$/{/^set -eu$/d;s/^# \{0,1\}//p}' "$0" >&2; exit 2 ;;
  esac
done
rows=$here/icount/a64.rows
[ -f "$rows" ] || { echo "icount-check: no $rows" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out" "$out.rows"' EXIT
t0=$(date +%s)
"$root/bench/a64-icount" -B "$build" -q "$qemu" -j "$jobs" -O -P -n 16384 -m 50 -d 4 -T 1.01 \
  -c "cortex-a72 max,sve=off" -r "$rows" >"$out"
# Table rows: | label | figure | recorded | met | figure | recorded | met |
measured=$(awk -F'|' '/^\| / && $2 !~ /cipher \/ mode/ {
    for (i = 2; i <= 8; i++) gsub(/^ +| +$/, "", $i)
    print $2 "|" $3 "|" $4 "|" $5 "|" $6 "|" $7 "|" $8 }' "$out")
nrows=$(printf '%s\n' "$measured" | grep -c . || true)
nrecorded=$(grep -v '^ *#' "$rows" | grep -c '|' || true)

if [ "$update" = 1 ]; then
  # Keep the comments and the first three columns; the figures are the new ones.
  printf '%s\n' "$measured" | awk -F'|' -v rows="$rows" '
    { a72[$1] = $2; max[$1] = $5 }
    END {
      while ((getline line < rows) > 0) {
        if (line ~ /^ *#/ || line !~ /\|/) { print line; continue }
        split(line, f, "|"); l = f[1]; gsub(/^ +| +$/, "", l)
        sub(/\|[^|]*\|[^|]*$/, "", line)
        print line "| " a72[l] " | " max[l]
      }
    }' >"$out.rows"
  mv "$out.rows" "$rows"
  echo "icount-check: a64: $nrows rows recorded in $rows"
  exit 0
fi

sed -n '/^| /p' "$out"
status=0
if [ "$nrows" -ne "$nrecorded" ] || [ "$nrows" -eq 0 ]; then
  echo "icount-check: a64: $nrows rows measured, $nrecorded recorded"
  status=1
fi
above=$(printf '%s\n' "$measured" | awk -F'|' '$4 != "yes" || $7 != "yes" { n++ } END { print n + 0 }')
if [ "$above" != 0 ]; then
  echo "icount-check: a64: $above row(s) more than 1% above the recorded figure (or not measured):"
  printf '%s\n' "$measured" | awk -F'|' '
    $4 != "yes" { printf "  %s (cortex-a72): %s, recorded %s\n", $1, $2, $3 }
    $7 != "yes" { printf "  %s (max,sve=off): %s, recorded %s\n", $1, $5, $6 }'
  status=1
fi
below=$(printf '%s\n' "$measured" | awk -F'|' '$2 + 0 < $3 * 0.99 || $5 + 0 < $6 * 0.99 { n++ } END { print n + 0 }')
[ "$below" = 0 ] || echo "icount-check: a64: $below row(s) more than 1% below the recorded figure: record them (-u)"
if [ "$status" = 0 ]; then
  echo "icount-check: a64: $nrows rows within 1% of the recorded figures on cortex-a72 and max,sve=off ($(($(date +%s) - t0)) s)"
fi
exit $status
