#!/bin/sh
# Guest instructions per byte of hwcrypt's code, per cipher and back end,
# under qemu-riscv64 with the icount plugin (tools/qemu-icount).
#
#   tests/riscv/icount-per-byte.sh [-B BUILD] [-p PLUGIN] [-c CPU] [-n BYTES] CIPHER@IMPL[:dec]...
#
# Runs bench/bench_run on N and 2N bytes (default N = 1 MiB, issue 5's
# method) and prints (count(2N) - count(N)) / N,
# counting only instructions inside libhwcrypt (tests/cross/lib-range.sh), so
# neither start-up, key setup nor bench_run's own loops over the buffer count.
# AEAD and MAC ciphers are measured sealing / computing the tag; AEAD
# decryption runs the data path only. The whole issue 5 table, with the
# portable back end and the per-message cost: bench/riscv-icount.
# QEMU=path/to/qemu-riscv64 picks the emulator (default: qemu-riscv64 on PATH;
# vector code needs a plugin-capable QEMU 10, bench/build-qemu10-plugins).
# Example:
#   tests/riscv/icount-per-byte.sh aes-128-ctr@zkn64 aes-128-cbc@zkn64:dec sm4-ctr@zksed64
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=build-rv64
plugin=
cpu="rv64,zkne=true,zknd=true,zksed=true,zbkb=true,zbkc=true,zbkx=true"
n=1048576
while getopts B:p:c:n: opt; do
  case $opt in
    B) build=$OPTARG ;;
    p) plugin=$OPTARG ;;
    c) cpu=$OPTARG ;;
    n) n=$OPTARG ;;
    *) sed -n '2,17s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,17s/^# \{0,1\}//p' "$0" >&2; exit 2; }
[ -n "$plugin" ] || plugin=$build/tools/qemu-icount/icount.so
run=$build/bench/bench_run
[ -x "$run" ] || { echo "icount-per-byte: no $run (build $build first)" >&2; exit 1; }
[ -f "$plugin" ] || { echo "icount-per-byte: no plugin $plugin (build target hwc_icount_plugin)" >&2; exit 1; }
nm=${NM:-riscv64-linux-gnu-nm}
qemu=$(command -v "${QEMU:-qemu-riscv64}")
range=$(sh "$here/../cross/lib-range.sh" "$nm" "$build/libhwcrypt.a" "$run")
out=$(mktemp)
trap 'rm -f "$out"' EXIT

count() { # cipher impl bytes dir
  env -i "$qemu" -cpu "$cpu" -plugin "$plugin,$range,out=$out" "$run" "$1" "$2" "$3" "$4" >/dev/null || return 1
  sed -n 's/^insns: //p' "$out"
}

printf '%-16s %-9s %-4s %8s\n' cipher impl dir insn/B
for spec in "$@"; do
  dir=enc
  case $spec in *:dec) dir=dec; spec=${spec%:dec} ;; esac
  cipher=${spec%@*} impl=${spec#*@}
  a=$(count "$cipher" "$impl" "$n" "$dir") && b=$(count "$cipher" "$impl" $((2 * n)) "$dir") || {
    echo "icount-per-byte: $cipher@$impl $dir failed" >&2; continue; }
  awk -v a="$a" -v b="$b" -v n="$n" -v c="$cipher" -v i="$impl" -v d="$dir" \
    'BEGIN { printf "%-16s %-9s %-4s %8.2f\n", c, i, d, (b - a) / n }'
done
