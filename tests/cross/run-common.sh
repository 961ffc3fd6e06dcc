# Sourced by the cross runners (tests/riscv/run-rv64.sh, run-rv32.sh,
# run-rvv.sh through tests/riscv/run-common.sh, and tests/arm/run-a64.sh):
# the steps every runner takes per CPU model. The caller sets build (the
# build directory), jobs (ctest parallelism) and failures (a file collecting
# failed models).

# run_ctest MODEL WHAT CTEST-ARGS...: ctest in $build with the caller's
# environment (HWC_TEST_IMPL, ...), one line of output. A failure, or a
# selection that runs no test, marks MODEL failed; skipped tests are named
# on the line, never counted as passed.
run_ctest() {
  model=$1 what=$2
  shift 2
  s0=$(date +%s)
  if (cd "$build" && ctest -j "$jobs" --timeout 900 --output-on-failure --no-tests=error "$@") >"$build/ctest.log" 2>&1; then
    skipped=$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$build/ctest.log" | tr '\n' ' ')
    printf '   %-44s %4d s  %s%s\n' "$what" $(($(date +%s) - s0)) \
      "$(grep -E 'tests passed' "$build/ctest.log" | tail -1)" "${skipped:+; SKIP: $skipped}"
  else
    echo "$model" >>"$failures"
    printf '   %-44s %4d s  FAILED\n' "$what" $(($(date +%s) - s0))
    grep -E '\*\*\*|FAIL|Failed|failed' "$build/ctest.log" | head -40 | sed 's/^/    /'
  fi
}

# The two SM4 million-block records (a million chained blocks through one
# ECB call each): strided runs leave them out (ctest -E "...|$million") and
# say so with skip_million; the native suite and full (-f) runs keep them.
million='^vec_sm4_million-'
skip_million() {
  echo "      SKIP: vec_sm4_million-enc, vec_sm4_million-dec (strided run; the native suite runs them on ct)"
}

# run_ghash_kernel MODEL EXPECT PATTERN: the GHASH back end the model
# selects (EXPECT ends in "ghash=NAME") on its own against ct, every count
# and input offset, POLYVAL too (test_kernels), when NAME matches PATTERN:
# not only through GCM.
run_ghash_kernel() {
  ghash=${2##*ghash=}
  case $ghash in
    $3) (export HWC_TEST_IMPL="$ghash"; run_ctest "$1" "GHASH kernel $ghash vs ct" -R '^test_kernels$') ;;
  esac
}
