#!/bin/sh
# Misalignment check: run tests/riscv/misalign_driver (every cipher on every
# available back end, buffers at every offset 0..15) under qemu-riscv64 with
# the icount plugin counting data accesses whose address is not a multiple
# of their size, made by instructions inside libhwcrypt. Passes when the
# driver's round trips all succeed and that count is 0; otherwise lists the
# functions that made misaligned accesses.
#
#   tests/riscv/misalign.sh QEMU CPU PLUGIN NM LIBHWCRYPT.a DRIVER [IMPL...]
set -eu
[ $# -ge 6 ] || { echo "usage: $0 QEMU CPU PLUGIN NM LIBHWCRYPT.a DRIVER [IMPL...]" >&2; exit 2; }
qemu=$1 cpu=$2 plugin=$3 nm=$4 lib=$5 driver=$6
shift 6
here=$(cd "$(dirname "$0")" && pwd)
range=$(sh "$here/../cross/lib-range.sh" "$nm" "$lib" "$driver")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "misalign: $qemu -cpu $cpu, counting inside libhwcrypt ($range)"
status=0
env -i "$qemu" -cpu "$cpu" -plugin "$plugin,$range,misalign=on,where=on,out=$tmp/report" "$driver" "$@" \
  >"$tmp/log" || status=$?
grep -v ' ok$' "$tmp/log" || true
echo "back ends and ciphers checked: $(grep -c ' ok$' "$tmp/log")"
if [ ! -s "$tmp/report" ]; then
  echo "misalign: the plugin wrote no report" >&2
  exit 1
fi
sed -n 's/^\(insns\|mem\|misaligned\): /  &/p' "$tmp/report"
mis=$(sed -n 's/^misaligned: //p' "$tmp/report")
mem=$(sed -n 's/^mem: //p' "$tmp/report")
if [ "${mem:-0}" = 0 ]; then
  echo "misalign: no memory access counted: wrong range?" >&2
  exit 1
fi
if [ "$mis" != 0 ]; then
  echo "misalign: $mis misaligned accesses inside libhwcrypt, by function:"
  "$nm" -n --defined-only "$driver" | awk '$2 == "t" || $2 == "T"' >"$tmp/syms"
  awk '
  function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
  NR == FNR { addr[NR] = hex($1); name[NR] = $3; n = NR; next }
  /^misaligned-at:/ { pc = hex($2); f = "?"; for (i = 1; i <= n && addr[i] <= pc; i++) f = name[i]; count[f] += $3 }
  END { for (f in count) printf "  %-40s %d\n", f, count[f] }' "$tmp/syms" "$tmp/report"
  status=1
fi
[ "$status" = 0 ] && echo "misalign: PASS (0 misaligned accesses)"
exit "$status"
