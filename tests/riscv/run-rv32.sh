#!/bin/sh
# Cross-build hwcrypt for rv32 (riscv64-unknown-elf-gcc, picolibc and the
# Linux shim in cmake/rv32-shim/) and run its tests under qemu-riscv32, once
# per CPU model, asserting which back ends `hwcrypt caps` selects in each.
#
#   tests/riscv/run-rv32.sh [-B BUILD] [-j JOBS] [-m "MODEL..."] [-f]
#
#   -B BUILD   build directory (default build-rv32)
#   -j JOBS    ctest parallelism (default: number of CPUs)
#   -m MODELS  only these models (names below)
#   -f         full suite: every test on every back end in every model, the
#              guard-page test at every length, ct in the misalignment test
#              (tens of minutes)
#
# Default plan, chosen to stay near three minutes on 2 idle cores: every
# model checks what `hwcrypt caps` selects and compares every back end it
# enables with ct on random inputs (diff_ct); each back end runs the whole
# suite (vectors, properties, bad input, error table, serial modes, short
# AEAD) once, restricted to it with HWC_TEST_IMPL, in the model named in
# the "suite" column; the portable ct runs it in model "none", thinned to
# every 4th vector record, offset pair, block count and message length
# (HWC_VEC_STRIDE=4, HWC_TEST_STRIDE=4; every file and the corners always:
# this is the only 32-bit build of that C code, so it is thinned less than
# rv64's 16), the two SM4 million-block records left out (a million
# one-block calls, 40 s; test_ct_sm4 still chains 250,000 blocks against
# its reference SM4); the guard-page test
# (every 25th length) runs on every back end in models "none" and "all"
# (it covers all ciphers, so it runs unrestricted); the
# misalignment test runs the hardware back ends at offsets 0..15 where the
# last column says. Tests that run the CLI through a shell script (*_cli)
# need a native binary and are left out. Needs riscv64-unknown-elf-gcc,
# picolibc and qemu-riscv32 (`scripts/install-deps check-rv32` installs its
# list when run as root).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=build-rv32
jobs=$(nproc 2>/dev/null || echo 2)
only=
full=0
while getopts B:j:m:f opt; do
  case $opt in
    B) build=$OPTARG ;;
    j) jobs=$OPTARG ;;
    m) only=$OPTARG ;;
    f) full=1 ;;
    *) sed -n '2,/^set -eu$/{/^set -eu$/d;s/^# \{0,1\}//p}' "$0" >&2; exit 2 ;;
  esac
done
case $build in /*) ;; *) build=$root/$build ;; esac

# ------------------------------------------------------------------ models
# name | qemu -cpu | selected back ends (aes sm4 ghash) | suite (HWC_TEST_IMPL) | misalignment test
# QEMU 7.2's default rv32 CPU has Zba/Zbb/Zbc/Zbs: models without them say so.
models='
none|rv32,zbb=false,zbc=false|aes=ct sm4=ct ghash=ct|*|-
zkn|rv32,zbb=false,zbc=false,zkne=true,zknd=true|aes=zkn32 sm4=ct ghash=ct|zkn32|-
zkn-zbc|rv32,zbb=false,zbc=true,zkne=true,zknd=true|aes=zkn32 sm4=ct ghash=clmul32|-|zkn32
zksed-zbkb|rv32,zbb=false,zbc=false,zksed=true,zbkb=true|aes=ct sm4=zksed32 ghash=ct|zksed32|-
all|rv32,zkne=true,zknd=true,zksed=true,zbkb=true,zbkc=true,zbkx=true|aes=zkn32 sm4=zksed32 ghash=clmul32|clmul32|zkn32 zkne32 zksed32
zkne|rv32,zbb=false,zbc=false,zkne=true|aes=zkne32 sm4=ct ghash=ct|zkne32|-
zksed-zbkc|rv32,zbb=false,zbc=false,zksed=true,zbkc=true|aes=ct sm4=zksed32 ghash=clmul32|-|zksed32
'
# Model notes: zkn-zbc runs GHASH without rev8 (no Zbb/Zbkb), zksed-zbkc
# takes clmul from Zbkc, again without rev8; all has rev8 from both. The
# suite "clmul32" in model all is the AEAD vectors (GCM, GMAC, GCM-SIV) on
# zkn32 and zksed32, i.e. through the clmul32 GHASH they pair with.

# ------------------------------------------------------------- toolchain
need() { command -v "$1" >/dev/null 2>&1; }
# Missing tools: scripts/install-deps installs the part's list (as root,
# without Recommends), else prints the apt-get command and fails.
if ! need riscv64-unknown-elf-gcc || ! need qemu-riscv32 ||
   [ ! -d /usr/lib/picolibc/riscv64-unknown-elf ]; then
  "$root/scripts/install-deps" check-rv32 || { echo "run-rv32: needs the packages above" >&2; exit 1; }
fi

t0=$(date +%s)
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/riscv32-elf-picolibc.cmake" \
  -DCMAKE_BUILD_TYPE=Release ${CMAKE_FLAGS:-} >/dev/null
cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1 || { tail -40 "$build/build.log"; exit 1; }
echo "run-rv32: built in $(($(date +%s) - t0)) s ($build)"

# Tests that are not C programs under the emulator: the CLI scripts.
script_tests='_cli$'
[ "$full" = 1 ] || export HWC_GUARD_LEN_STEP=25

failures=$build/failed-models
rm -f "$failures"
. "$root/tests/riscv/run-common.sh" # run_ctest, run_ghash_kernel, run_misalign

echo "$models" | while IFS='|' read -r name cpu expect impls misalign; do
  [ -n "$name" ] || continue
  if [ -n "$only" ]; then
    case " $only " in *" $name "*) ;; *) continue ;; esac
  fi
  m0=$(date +%s)
  misalign_impls=$misalign
  if [ "$full" = 1 ]; then
    impls='*'
    [ "$misalign" = - ] || misalign_impls=
  fi
  cmake "$build" -DHWC_QEMU_CPU="$cpu" -DHWC_RV_EXPECT_SELECTED="$expect" \
    -DHWC_RV_MISALIGN_IMPLS="$misalign_impls" >/dev/null
  echo "== model $name: -cpu $cpu"
  echo "   $(qemu-riscv32 -cpu "$cpu" "$build/hwcrypt" caps | grep -E '^(caps|selected):' | tr '\n' ' ')"
  run_ctest "$name" "caps selects $expect" -R '^rv32_caps$'
  if [ "$expect" != "aes=ct sm4=ct ghash=ct" ]; then
    run_ctest "$name" "back ends = ct on random inputs" -R '^rv32_diff_ct$'
  fi
  case $impls in
    -) ;;
    '*')
      if [ "$full" = 1 ]; then
        run_ctest "$name" "suite, every available back end" -E "$script_tests|^rv32_"
      else
        (export HWC_VEC_STRIDE=4 HWC_TEST_STRIDE=4
          run_ctest "$name" "suite (strided by 4), every available back end" -E "$script_tests|^rv32_|$million")
        skip_million
      fi ;;
    clmul32)
      for impl in zkn32 zksed32; do
        (export HWC_TEST_IMPL="$impl"; run_ctest "$name" "AEAD vectors on $impl + clmul32" -R '^vec_aead_')
      done
      run_ctest "$name" "guard pages, every back end" -R '^test_guard_pages$' ;;
    *)
      for impl in $impls; do
        (export HWC_TEST_IMPL="$impl"; run_ctest "$name" "suite on $impl" -E "$script_tests|^test_ct_|^rv32_|^test_guard_pages$")
      done ;;
  esac
  run_ghash_kernel "$name" "$expect" 'clmul*'
  if [ "$misalign" != "-" ]; then
    run_misalign "$name" "misalignment, ${misalign_impls:-every back end}" '^rv32_misalign$'
  fi
  echo "   model $name: $(($(date +%s) - m0)) s"
done

total=$(($(date +%s) - t0))
if [ -s "$failures" ]; then
  echo "run-rv32: FAILED in model(s): $(sort -u "$failures" | tr '\n' ' ')(${total} s)"
  exit 1
fi
echo "run-rv32: all models passed (${total} s)"
