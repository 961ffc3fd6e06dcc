#!/bin/sh
# Cross-build hwcrypt for rv64 with the vector crypto back ends (zvkned,
# zvksed, zvkg, zvbc; built with clang-19) and test them under QEMU 10 user mode,
# once per CPU model, asserting what `hwcrypt caps` selects in each.
#
#   tests/riscv/run-rvv.sh [-B BUILD] [-j JOBS] [-m "MODEL..."] [-f] [-q QEMU] [-p QEMU_WITH_PLUGINS]
#
#   -B BUILD   build directory (default build-rvv)
#   -j JOBS    ctest parallelism (default: number of CPUs)
#   -m MODELS  only these models (names below)
#   -f         the whole suite at every VLEN (default: whole at 128; at 256,
#              512 and 1024 without the four largest vector files, below)
#   -q QEMU    qemu-riscv64 10.x to use (default: scripts/get-qemu10, which
#              fetches bookworm-backports' static qemu-user into a cache)
#   -p QEMU    a plugin-capable QEMU 10 (bench/build-qemu10-plugins): also run
#              the misalignment test (every vector back end, every buffer
#              offset, no misaligned access inside libhwcrypt) per model
#
# QEMU 7.2 runs neither Zvk* nor riscv_hwprobe; QEMU 10 runs both, so
# detection here goes through the real hwprobe path with HWCRYPT_CAPS unset.
# Each model runs the foundation suite (vectors, properties, bad input,
# differential against ct) restricted with HWC_TEST_IMPL to each vector back
# end it enables; models without Zvk* check the selection and run the
# back ends they select against ct on random inputs.
#
# Time: the whole suite per back end takes about a minute under QEMU here.
# At VLEN 256, 512 and 1024 the default leaves out the NIST GCM files, the AES
# Monte Carlo test and the KW/KWP files: they run the same kernels (ECB,
# CTR32 + GHASH, CBC) that the known-answer vectors, the property tests
# (all lengths, splits and offsets), short AEAD messages and the random
# differential test against ct already cover at those lengths.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=build-rvv
jobs=$(nproc 2>/dev/null || echo 2)
only=
qemu=
qemu_plugins=
full=0
while getopts B:j:m:fq:p: opt; do
  case $opt in
    B) build=$OPTARG ;;
    j) jobs=$OPTARG ;;
    m) only=$OPTARG ;;
    f) full=1 ;;
    q) qemu=$OPTARG ;;
    p) qemu_plugins=$OPTARG ;;
    *) sed -n '2,28s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
  esac
done
case $build in /*) ;; *) build=$root/$build ;; esac

# ------------------------------------------------------------------ models
# name | qemu -cpu | selected back ends (aes sm4 ghash) | HWC_TEST_IMPL runs | suite (all / quick / ghash)
# QEMU 10's rv64 CPU has Zbb/Zbc but no V: models say v=true and vlen=.
zvk='zvkned=true,zvksed=true,zvkg=true,zvkb=true,zvbb=true'
models="
vlen128|rv64,v=true,vlen=128,$zvk|aes=zvkned sm4=zvksed ghash=zvkg|zvkned zvksed|all
vlen256|rv64,v=true,vlen=256,$zvk|aes=zvkned sm4=zvksed ghash=zvkg|zvkned zvksed|quick
vlen512|rv64,v=true,vlen=512,$zvk|aes=zvkned sm4=zvksed ghash=zvkg|zvkned zvksed|quick
vlen1024|rv64,v=true,vlen=1024,$zvk|aes=zvkned sm4=zvksed ghash=zvkg|zvkned zvksed|quick
zvkned-only|rv64,v=true,vlen=128,zvkned=true,zvkb=true|aes=zvkned sm4=ct ghash=clmul64|zvkned|quick
zvbc|rv64,v=true,vlen=128,zvkned=true,zvbc=true,zvkb=true|aes=zvkned sm4=ct ghash=zvbc|zvkned|ghash
v-scalar|rv64,v=true,vlen=256,zkne=true,zknd=true,zksed=true|aes=zkn64 sm4=zksed64 ghash=clmul64|-|-
v-only|rv64,v=true,vlen=128|aes=ct sm4=ct ghash=clmul64|-|-
"
# Model notes: zvkned-only has no Zvkg, so XTS steps its tweaks through the
# generic kernel and GCM runs unfused with clmul64; zvbc (Zvbc, no Zvkg)
# runs GCM unfused with the zvbc GHASH, and its suite is what hashes: the
# NIST GCM encryption and GMAC records, GCM-SIV's vectors, the test_*
# programs (properties, short AEAD, bad input); the AES kernels are the
# ones zvkned-only runs, and GCM decryption differs from encryption only
# in the mode's code. v-scalar and v-only have
# V but no Zvk*: the vector back ends must not be chosen (v-only selects
# only ct and clmul64, whose suites check-rv64 runs: just the selection).

# ------------------------------------------------------------- toolchain
need() { command -v "$1" >/dev/null 2>&1; }
# Missing tools: scripts/install-deps installs the part's list (as root,
# without Recommends), else prints the apt-get command and fails.
if ! need riscv64-linux-gnu-gcc || ! need clang-19; then
  "$root/scripts/install-deps" check-rvv || { echo "run-rvv: needs the packages above" >&2; exit 1; }
fi
if [ -z "$qemu" ]; then
  qemu=$("$root/scripts/get-qemu10") || { echo "run-rvv: no QEMU 10 (scripts/get-qemu10 failed)" >&2; exit 1; }
fi
echo "run-rvv: $("$qemu" --version | head -1)"

t0=$(date +%s)
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/riscv64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DHWC_QEMU="$qemu" -DHWC_QEMU_PLUGIN_API=4 ${CMAKE_FLAGS:-} >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
if ! grep -q 'vector crypto back ends built with' "$build.configure.log"; then
  # The back ends are optional in a build, but this test exists for them.
  grep 'vector crypto' "$build.configure.log" >&2 || true
  echo "run-rvv: the vector crypto back ends were not configured (see above)" >&2
  exit 1
fi
cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1 || { tail -40 "$build/build.log"; exit 1; }
echo "run-rvv: built in $(($(date +%s) - t0)) s ($build)"

# Per back end: the C test programs (vec_*, test_*), not the CLI scripts
# (they need a native binary), the ct unit tests (ct is the same code as in
# check-rv64), the rv64_* tests (run on their own below) or tests that
# require every cipher family to run (a back end is one family).
suite_re='^(vec_|test_)'
skip='^test_ct_|^test_guard_pages$'
slow='|^vec_aead_gcm-|^vec_blockmodes_mct$|^vec_misc_kwp?$'
ghash_re='^(vec_aead_gcm-enc$|vec_aead_other$|vec_misc_gmac$|test_)' # what hashes (suite "ghash")

failures=$build/failed-models
rm -f "$failures"
. "$root/tests/riscv/run-common.sh" # run_ctest, run_ghash_kernel, run_misalign

unset HWCRYPT_CAPS # detection through riscv_hwprobe, as on a real kernel
echo "$models" | while IFS='|' read -r name cpu expect impls suite; do
  [ -n "$name" ] || continue
  if [ -n "$only" ]; then
    case " $only " in *" $name "*) ;; *) continue ;; esac
  fi
  m0=$(date +%s)
  cmake "$build" -DHWC_QEMU_CPU="$cpu" -DHWC_RV_EXPECT_SELECTED="$expect" -DHWC_RV_MISALIGN_IMPLS="" >/dev/null
  echo "== model $name: -cpu $cpu"
  echo "   $("$qemu" -cpu "$cpu" "$build/hwcrypt" caps | grep -E '^(caps|selected):' | tr '\n' ' ')"
  run_ctest "$name" "caps selects $expect (hwprobe)" -R '^rv64_caps$'
  case $expect in # diff_ct skips when ct is the only block back end
    *aes=ct\ sm4=ct*) ;;
    *) run_ctest "$name" "back ends = ct on random inputs" -R '^rv64_diff_ct$' ;;
  esac
  if [ "$impls" != "-" ]; then
    select=$suite_re
    if [ "$suite" = all ] || [ "$full" = 1 ]; then exclude=$skip; what=suite
    elif [ "$suite" = ghash ]; then select=$ghash_re exclude=$skip what='suite (GHASH users)'
    else exclude=$skip$slow; what='suite (quick)'; fi
    for impl in $impls; do
      (export HWC_TEST_IMPL="$impl"; run_ctest "$name" "$what on $impl" -R "$select" -E "$exclude")
    done
  fi
  run_ghash_kernel "$name" "$expect" 'zv*'
  if [ -n "$qemu_plugins" ] && [ "$impls" != "-" ]; then
    cmake "$build" -DHWC_QEMU="$qemu_plugins" -DHWC_RV_MISALIGN_IMPLS="$impls" >/dev/null
    run_misalign "$name" "misalignment, $impls" '^rv64_misalign$'
    cmake "$build" -DHWC_QEMU="$qemu" >/dev/null
  fi
  echo "   model $name: $(($(date +%s) - m0)) s"
done

total=$(($(date +%s) - t0))
if [ -s "$failures" ]; then
  echo "run-rvv: FAILED in model(s): $(sort -u "$failures" | tr '\n' ' ')(${total} s)"
  exit 1
fi
[ -n "$qemu_plugins" ] || echo "run-rvv: SKIP: misalignment count (needs a plugin-capable QEMU 10: -p, see bench/build-qemu10-plugins)"
echo "run-rvv: all models passed (${total} s)"
