#!/bin/sh
# Cross-build hwcrypt for rv64 and run its tests under qemu-riscv64, once
# per CPU model, asserting which back ends `hwcrypt caps` selects in each.
#
#   tests/riscv/run-rv64.sh [-B BUILD] [-j JOBS] [-m "MODEL..."] [-f]
#
#   -B BUILD   build directory (default build-rv64)
#   -j JOBS    ctest parallelism (default: number of CPUs)
#   -m MODELS  only these models (names below)
#   -f         full suite: every test on every back end in every model,
#              unthinned (about 2 minutes per model; the default takes the
#              subset below)
#
# Default subset, chosen to keep the whole run to a few minutes on 2 cores:
# the portable back end ("ct") is the same code in every model and by far
# the slowest under QEMU, so it runs the suite once, in model "none",
# thinned as run-a64.sh thins it (HWC_VEC_STRIDE=16, HWC_TEST_STRIDE=16,
# HWC_GUARD_LEN_STEP=15, the two SM4 million-block records left out): it is
# the same 64-bit C that the native suite runs whole on ct. Every other
# model runs the whole suite restricted (HWC_TEST_IMPL) to each hardware
# back end it enables, which is what changes between models. The
# misalignment test runs every back end in model "all", and the GHASH and
# SM4 variants without rev8 in the models that select them. Tests that run
# the CLI through a shell script (*_cli) need a native binary and are left
# out. Needs riscv64-linux-gnu-gcc and qemu-riscv64 (`scripts/install-deps
# check-rv64` installs its list when run as root).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=build-rv64
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
# name | qemu -cpu | selected back ends (aes sm4 ghash) | HWC_TEST_IMPL runs | misalignment test
# QEMU 7.2's default rv64 CPU has Zba/Zbb/Zbc/Zbs: models without them say so.
models='
none|rv64,zbb=false,zbc=false|aes=ct sm4=ct ghash=ct|*|-
zkn|rv64,zbb=false,zbc=false,zkne=true,zknd=true|aes=zkn64 sm4=ct ghash=ct|zkn64|-
zkn-zbc|rv64,zbb=false,zbc=true,zkne=true,zknd=true|aes=zkn64 sm4=ct ghash=clmul64|zkn64|zkn64
zksed-zbkb|rv64,zbb=false,zbc=false,zksed=true,zbkb=true|aes=ct sm4=zksed64 ghash=ct|zksed64|-
all|rv64,zkne=true,zknd=true,zksed=true,zbkb=true,zbkc=true,zbkx=true|aes=zkn64 sm4=zksed64 ghash=clmul64|zkn64 zkne64 zksed64|*
zkne|rv64,zbb=false,zbc=false,zkne=true|aes=zkne64 sm4=ct ghash=ct|zkne64|-
zksed-zbkc|rv64,zbb=false,zbc=false,zksed=true,zbkc=true|aes=ct sm4=zksed64 ghash=clmul64|zksed64|zksed64
'
# Model notes: zkn-zbc runs GHASH without rev8 (no Zbb/Zbkb); zksed-zbkc
# takes clmul from Zbkc, again without rev8; all has rev8 from both.

# ------------------------------------------------------------- toolchain
need() { command -v "$1" >/dev/null 2>&1; }
# Missing tools: scripts/install-deps installs the part's list (as root,
# without Recommends), else prints the apt-get command and fails.
if ! need riscv64-linux-gnu-gcc || ! need qemu-riscv64; then
  "$root/scripts/install-deps" check-rv64 || { echo "run-rv64: needs the packages above" >&2; exit 1; }
fi

t0=$(date +%s)
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/riscv64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release ${CMAKE_FLAGS:-} >/dev/null
cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1 || { tail -40 "$build/build.log"; exit 1; }
echo "run-rv64: built in $(($(date +%s) - t0)) s ($build)"

# Tests that are not C programs under the emulator: the CLI scripts.
script_tests='_cli$'

failures=$build/failed-models
rm -f "$failures"
. "$root/tests/riscv/run-common.sh" # run_ctest, run_ghash_kernel, run_misalign

echo "$models" | while IFS='|' read -r name cpu expect impls misalign; do
  [ -n "$name" ] || continue
  if [ -n "$only" ]; then
    case " $only " in *" $name "*) ;; *) continue ;; esac
  fi
  m0=$(date +%s)
  [ "$misalign" = "*" ] && misalign_impls= || misalign_impls=$misalign
  cmake "$build" -DHWC_QEMU_CPU="$cpu" -DHWC_RV_EXPECT_SELECTED="$expect" \
    -DHWC_RV_MISALIGN_IMPLS="$misalign_impls" >/dev/null
  echo "== model $name: -cpu $cpu"
  echo "   $(qemu-riscv64 -cpu "$cpu" "$build/hwcrypt" caps | grep -E '^(caps|selected):' | tr '\n' ' ')"
  run_ctest "$name" "caps selects $expect" -R '^rv64_caps$'
  run_ctest "$name" "back ends = ct on random inputs" -R '^rv64_diff_ct$'
  if [ "$full" = 1 ]; then
    run_ctest "$name" "suite, every available back end" -E "$script_tests|^rv64_"
  elif [ "$impls" = "*" ]; then
    (export HWC_VEC_STRIDE=16 HWC_TEST_STRIDE=16 HWC_GUARD_LEN_STEP=15
      run_ctest "$name" "suite (strided), every available back end" -E "$script_tests|^rv64_|$million")
    skip_million
  else
    for impl in $impls; do
      (export HWC_TEST_IMPL="$impl"; run_ctest "$name" "suite on $impl" -E "$script_tests|^test_ct_|^rv64_")
    done
  fi
  run_ghash_kernel "$name" "$expect" 'clmul*'
  if [ "$misalign" != "-" ]; then
    run_misalign "$name" "misalignment, ${misalign_impls:-every back end}" '^rv64_misalign$'
  fi
  echo "   model $name: $(($(date +%s) - m0)) s"
done

total=$(($(date +%s) - t0))
if [ -s "$failures" ]; then
  echo "run-rv64: FAILED in model(s): $(sort -u "$failures" | tr '\n' ' ')(${total} s)"
  exit 1
fi
echo "run-rv64: all models passed (${total} s)"
