# Sourced by run-rv64.sh, run-rv32.sh and run-rvv.sh: the steps every
# cross runner takes (tests/cross/run-common.sh: run_ctest, run_ghash_kernel)
# and the RISC-V misalignment step. The caller sets root, build, jobs and
# failures.
. "$root/tests/cross/run-common.sh"

# run_misalign MODEL WHAT TEST: the misalignment test (ctest TEST, verbose)
# and its counts.
run_misalign() {
  run_ctest "$1" "$2" -V -R "$3"
  sed -n -e 's/^[0-9]*: *\(misaligned: [0-9]*\)$/      \1 (inside libhwcrypt)/p' \
    -e 's/^[0-9]*: \([0-9]* runs, [0-9]* failed\)$/      \1/p' \
    -e 's/^[0-9]*: \(back ends and ciphers checked: [0-9]*\)$/      \1/p' "$build/ctest.log"
}
