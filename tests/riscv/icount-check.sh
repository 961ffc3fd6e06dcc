#!/bin/sh
# Instruction counts held to the recorded figures (make check-icount): a
# quick form of bench/riscv-icount (N = 16 KiB, no ct column, no per-message
# table) over the rows of tests/riscv/icount/ARCH.rows, whose last column is
# the figure recorded in the repository (insns/byte inside libhwcrypt).
# Fails when a row is more than 1% above its recorded figure, when a row
# cannot be measured (n/a), or when any run makes a misaligned data access
# inside libhwcrypt.
#
#   tests/riscv/icount-check.sh -a rv64|rv32|rvv [-B BUILD] [-q QEMU] [-j JOBS] [-u]
#
#   -a ARCH   rv64 (scalar crypto model, system qemu-riscv64), rv32
#             (qemu-riscv32), rvv (vector crypto at VLEN=128, the
#             plugin-capable QEMU 10 of bench/build-qemu10-plugins)
#   -B BUILD  cross build to use or make (default: bench/riscv-icount's)
#   -q QEMU   emulator (rvv: default the bench/build-qemu10-plugins one)
#   -u        measure and rewrite the recorded figures (after a change that
#             is meant to move them; the diff shows what moved)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
arch= build= qemu= jobs=2 update=0
while getopts a:B:q:j:u opt; do
  case $opt in
    a) arch=$OPTARG ;;
    B) build=$OPTARG ;;
    q) qemu=$OPTARG ;;
    j) jobs=$OPTARG ;;
    u) update=1 ;;
    *) sed -n '2,/^set -eu$/{/^set -eu$/d;s/^# \{0,1\}//p}' "$0" >&2; exit 2 ;;
  esac
done
rows=$here/icount/$arch.rows
case $arch in
  rv64) set -- ;;
  rv32|rvv) set -- -a "$arch" ;;
  *) echo "icount-check: -a rv64, rv32 or rvv" >&2; exit 2 ;;
esac
[ -f "$rows" ] || { echo "icount-check: no $rows" >&2; exit 1; }
[ -z "$build" ] || set -- "$@" -B "$build"
[ -z "$qemu" ] || set -- "$@" -q "$qemu"
[ "$arch" != rvv ] || set -- "$@" -l 128
out=$(mktemp)
trap 'rm -f "$out" "$out.rows"' EXIT
t0=$(date +%s)
"$root/bench/riscv-icount" "$@" -j "$jobs" -r "$rows" -n 16384 -k -M -P -d 4 -T 1.01 >"$out"
# Table rows: | label | impl | insns/byte | recorded | met |
measured=$(awk -F'|' '/^\| / && $2 !~ /cipher \/ mode/ { gsub(/^ +| +$/, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $4); gsub(/ /, "", $5); print $2 "|" $3 "|" $4 "|" $5 "|" $6 }' "$out")
nrows=$(printf '%s\n' "$measured" | grep -c . || true)
nrecorded=$(grep -v '^ *#' "$rows" | grep -c '|' || true)
mis=$(sed -n 's/^misaligned accesses inside libhwcrypt: //p' "$out")

if [ "$update" = 1 ]; then
  # Keep the comments and the first four columns; the figure is the new one.
  printf '%s\n' "$measured" | awk -F'|' -v rows="$rows" '
    { v[$1 "|" $2] = $3 }
    END {
      while ((getline line < rows) > 0) {
        if (line ~ /^ *#/ || line !~ /\|/) { print line; continue }
        n = split(line, f, "|"); l = f[1]; i = f[4]; gsub(/^ +| +$/, "", l); gsub(/ /, "", i)
        sub(/\|[^|]*$/, "", line)
        print line "| " v[l "|" i]
      }
    }' >"$out.rows"
  mv "$out.rows" "$rows"
  echo "icount-check: $arch: $nrows figures recorded in $rows"
  exit 0
fi

sed -n '/^| /p' "$out"
status=0
if [ "$nrows" -ne "$nrecorded" ] || [ "$nrows" -eq 0 ]; then
  echo "icount-check: $arch: $nrows rows measured, $nrecorded recorded"
  status=1
fi
above=$(printf '%s\n' "$measured" | awk -F'|' '$5 !~ /yes/ { n++ } END { print n + 0 }')
if [ "$above" != 0 ]; then
  echo "icount-check: $arch: $above row(s) more than 1% above the recorded figure (or not measured):"
  printf '%s\n' "$measured" | awk -F'|' '$5 !~ /yes/ { printf "  %s (%s): %s insns/byte, recorded %s\n", $1, $2, $3, $4 }'
  status=1
fi
if [ "${mis:-x}" != 0 ]; then
  echo "icount-check: $arch: ${mis:-no count of} misaligned accesses inside libhwcrypt"
  status=1
fi
below=$(printf '%s\n' "$measured" | awk -F'|' '$3 + 0 < $4 * 0.99 { n++ } END { print n + 0 }')
[ "$below" = 0 ] || echo "icount-check: $arch: $below row(s) more than 1% below the recorded figure: record them (-u)"
if [ "$status" = 0 ]; then
  echo "icount-check: $arch: $nrows rows within 1% of the recorded figures, 0 misaligned accesses ($(($(date +%s) - t0)) s)"
fi
exit $status
