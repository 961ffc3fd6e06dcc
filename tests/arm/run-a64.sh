#!/bin/sh
# Cross-build hwcrypt for 64-bit Arm and run its tests under qemu-aarch64,
# once per CPU model, asserting which back ends `hwcrypt caps` selects in
# each (detection through getauxval(AT_HWCAP), as on a real kernel).
#
#   tests/arm/run-a64.sh [-B BUILD] [-j JOBS] [-m "MODEL..."] [-f] [-n]
#
#   -B BUILD   build directory (default build-a64)
#   -j JOBS    ctest parallelism (default: number of CPUs)
#   -m MODELS  only these models (names below)
#   -f         the whole suite, unthinned, for every back end in every
#              model (default: whole for the back ends selected on max,
#              thinned with the stride knobs elsewhere, below)
#   -n         no OpenSSL: do not fetch Debian's arm64 libssl-dev (the
#              differential test against OpenSSL then reports SKIP)
#
# Models: QEMU 7.2 (Debian 12's qemu-user) runs cortex-a53, neoverse-n1,
# a64fx and max; QEMU 10 (bookworm-backports, fetched into the cache by
# scripts/get-qemu10 -a aarch64) adds neoverse-v1 and neoverse-n2. No model
# lacks AES and PMULL, so the portable back end runs with HWCRYPT_CAPS=none.
#
# Each model runs `hwcrypt caps` against its expected selection, every
# hardware back end it enables against ct on random inputs (a64_diff_ct),
# and the suite (vectors, properties with every buffer offset and in place,
# test_kernels with counters at the 2^32/2^64/2^128 carries, short AEAD
# messages, bad input, the error table, guard pages, threads, the ABI
# trampoline, and the differential test against Debian's arm64 OpenSSL 3.0,
# linked statically) restricted with HWC_TEST_IMPL to each back end named in
# its list. IMPL:full runs the suite whole; plain IMPL thins it with the
# stride knobs of docs/TESTING.md: HWC_VEC_STRIDE=16 (every 16th vector
# record of every file), HWC_TEST_STRIDE=16 (every 16th offset pair, block
# count and message length; the corners always) and HWC_GUARD_LEN_STEP=15
# (guard pages: every length to 33, then every 15th), and leaves out the
# two SM4 million-iteration records (a million chained blocks through the
# ECB kernel the KAT group runs; reported as SKIP). The back ends selected on
# max,sve=off run whole there. The ct unit tests and the portable back end
# run in model "none" only: the same code everywhere. Tests that run the CLI
# through a shell script (*_cli) need a native binary and are left out.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=build-a64
jobs=$(nproc 2>/dev/null || echo 2)
only=
full=0
with_openssl=1
while getopts B:j:m:fn opt; do
  case $opt in
    B) build=$OPTARG ;;
    j) jobs=$OPTARG ;;
    m) only=$OPTARG ;;
    f) full=1 ;;
    n) with_openssl=0 ;;
    *) sed -n '2,/^set -eu$/{/^set -eu$/d;s/^# \{0,1\}//p}' "$0" >&2; exit 2 ;;
  esac
done
case $build in /*) ;; *) build=$root/$build ;; esac

# ------------------------------------------------------------------ models
# name | QEMU (7 or 10) | -cpu | HWCRYPT_CAPS | selected (aes sm4 ghash) | HWC_TEST_IMPL runs
ce='aes=armv8ce sm4=sm4-armv8ce ghash=pmull'
ce3='aes=armv8ce-eor3 sm4=sm4e ghash=pmull'
models="
none|7|max,sve=off|none|aes=ct sm4=ct ghash=ct|ct
cortex-a53|7|cortex-a53||$ce|armv8ce sm4-armv8ce
neoverse-n1|7|neoverse-n1||$ce|
a64fx|7|a64fx||$ce|
max|7|max,sve=off||$ce3|armv8ce-eor3:full sm4e:full pmull
neoverse-v1|10|neoverse-v1||$ce3|armv8ce-eor3 sm4e
neoverse-n2|10|neoverse-n2||$ce3|
"
# Model notes: cortex-a53, neoverse-n1 and a64fx (SVE 512, no SVE2) have AES
# and PMULL only: armv8ce, and SM4 through AESE; max has SHA3 (EOR3) and
# SM4E, so do neoverse-v1 (SVE 256) and neoverse-n2 (SVE2). "pmull" is the
# GHASH back end on its own against ct (test_kernels); every GHASH user in
# the suite runs it too. A model with no back end listed checks its
# selection and diff_ct only: the suite on the same back ends under the same
# QEMU (cortex-a53's for neoverse-n1 and a64fx, neoverse-v1's for
# neoverse-n2) runs the same instructions. -f runs every listed back end
# whole, and in those models the selected AES and SM4 back ends.

# ------------------------------------------------------------- toolchain
need() { command -v "$1" >/dev/null 2>&1; }
# Missing tools: scripts/install-deps installs the part's list (as root,
# without Recommends), else prints the apt-get command and fails.
if ! need aarch64-linux-gnu-gcc || ! need qemu-aarch64; then
  "$root/scripts/install-deps" check-a64 || { echo "run-a64: needs the packages above" >&2; exit 1; }
fi
qemu7=$(command -v qemu-aarch64)
qemu10=$("$root/scripts/get-qemu10" -a aarch64) || { echo "run-a64: no QEMU 10 (scripts/get-qemu10 failed)" >&2; exit 1; }
openssl_flag=
if [ "$with_openssl" = 1 ]; then
  ossl=$("$root/scripts/apt-fetch" -a arm64 unpack libssl-dev | tail -1) ||
    { echo "run-a64: could not fetch Debian's arm64 libssl-dev (scripts/apt-fetch; -n runs without OpenSSL)" >&2; exit 1; }
  openssl_flag=-DHWC_A64_OPENSSL_ROOT=$ossl
fi

t0=$(date +%s)
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release $openssl_flag ${CMAKE_FLAGS:-} >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
grep -E 'hwcrypt: Arm back ends' "$build.configure.log" | sed 's/^-- /run-a64: /'
cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1 || { tail -40 "$build/build.log"; exit 1; }
echo "run-a64: built in $(($(date +%s) - t0)) s ($build; $($qemu7 --version | head -1); $($qemu10 --version | head -1))"

# Per back end: the C test programs, not the CLI scripts, the ct unit tests
# (model "none" only) or the a64_* tests (run on their own).
suite_re='^(vec_|test_)'
skip='^test_ct_'
# Tests that ignore HWC_TEST_IMPL (dispatch, threads, the error table, the
# ABI trampoline over every back end): once per model.
once='^test_(errors|errors_caps_none|threads|abi)$'
failures=$build/failed-models
rm -f "$failures"
. "$root/tests/cross/run-common.sh" # run_ctest, run_ghash_kernel

echo "$models" | while IFS='|' read -r name qv cpu caps expect impls; do
  [ -n "$name" ] || continue
  if [ -n "$only" ]; then
    case " $only " in *" $name "*) ;; *) continue ;; esac
  fi
  m0=$(date +%s)
  if [ "$qv" = 10 ]; then qemu=$qemu10; else qemu=$qemu7; fi
  cmake "$build" -DHWC_QEMU="$qemu" -DHWC_QEMU_CPU="$cpu" -DHWC_A64_EXPECT_SELECTED="$expect" >/dev/null
  if [ -n "$caps" ]; then export HWCRYPT_CAPS="$caps"; else unset HWCRYPT_CAPS; fi
  echo "== model $name: QEMU $qv -cpu $cpu${caps:+, HWCRYPT_CAPS=$caps}"
  echo "   $("$qemu" -cpu "$cpu" "$build/hwcrypt" caps | grep -E '^(caps|selected):' | tr '\n' ' ')"
  run_ctest "$name" "caps selects $expect" -R '^a64_caps$'
  [ "$impls" = ct ] || run_ctest "$name" "back ends = ct on random inputs" -R '^a64_diff_ct$'
  if [ -z "$impls" ] && [ "$full" = 1 ]; then
    impls=$(echo "$expect" | sed 's/^aes=\([^ ]*\) sm4=\([^ ]*\) .*/\1 \2/')
  fi
  first=1
  for spec in $impls; do
    impl=${spec%:full}
    exclude=$skip
    [ "$impl" != ct ] || exclude='^$'
    [ "$first" = 1 ] || exclude="$exclude|$once"
    [ "$impl" = pmull ] || first=0
    if [ "$spec" != "$impl" ] || [ "$full" = 1 ]; then
      unset HWC_VEC_STRIDE HWC_TEST_STRIDE HWC_GUARD_LEN_STEP
      what=suite
    else
      export HWC_VEC_STRIDE=16 HWC_TEST_STRIDE=16 HWC_GUARD_LEN_STEP=15
      what='suite (strided)'
      exclude="$exclude|$million"
    fi
    case $impl in
      pmull) run_ghash_kernel "$name" "$expect" 'pmull' ;;
      *)
        (export HWC_TEST_IMPL="$impl"; run_ctest "$name" "$what on $impl" -R "$suite_re" -E "$exclude")
        case $exclude in *million*) skip_million ;; esac ;;
    esac
  done
  unset HWC_VEC_STRIDE HWC_TEST_STRIDE HWC_GUARD_LEN_STEP HWCRYPT_CAPS
  echo "   model $name: $(($(date +%s) - m0)) s"
done

total=$(($(date +%s) - t0))
if [ -s "$failures" ]; then
  echo "run-a64: FAILED in model(s): $(sort -u "$failures" | tr '\n' ' ')(${total} s)"
  exit 1
fi
echo "run-a64: all models passed (${total} s)"
