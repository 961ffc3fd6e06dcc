#!/bin/sh
# Print the address range of libhwcrypt's code inside a static program
# (riscv64, riscv32, aarch64), as the icount plugin's "lo=0x...,hi=0x..."
# options.
#
#   tests/cross/lib-range.sh NM LIBHWCRYPT.a PROGRAM
#
# The range runs from the lowest to the highest end of the functions the
# archive defines. The linker places the archive's members together (the
# program's own objects before them, libc after), so the range holds
# hwcrypt's code and nothing else; the script checks that no symbol of
# another origin falls inside it.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 NM LIBHWCRYPT.a PROGRAM" >&2; exit 2; }
nm=$1 lib=$2 prog=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Function names the archive defines (text symbols, local and global).
"$nm" --defined-only "$lib" | awk 'NF == 3 && ($2 == "t" || $2 == "T") { print $3 }' | sort -u >"$tmp/lib"
"$nm" -S --defined-only "$prog" | awk 'NF == 4 && ($3 == "t" || $3 == "T")' >"$tmp/prog"
awk '
function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
NR == FNR { lib[$1] = 1; next }
{ a = hex($1); e = a + hex($2); name[NR] = $4; start[NR] = a; stop[NR] = e
  if ($4 in lib) { if (lo == "" || a < lo) lo = a; if (e > hi) hi = e } }
END {
  if (lo == "") { print "lib-range: no hwcrypt function in the program" > "/dev/stderr"; exit 1 }
  for (i in name) if (!(name[i] in lib) && start[i] >= lo && start[i] < hi) {
    printf "lib-range: %s lies inside hwcrypt'"'"'s range\n", name[i] > "/dev/stderr"; bad = 1 }
  if (bad) exit 1
  printf "lo=0x%x,hi=0x%x\n", lo, hi
}' "$tmp/lib" "$tmp/prog"
