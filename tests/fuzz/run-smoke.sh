#!/bin/sh
# The fuzz smoke run of `make check` (make check-fuzz): builds the libFuzzer
# targets (clang, ASan+UBSan, instrumented library), regenerates the seed
# corpus from the vectors, then runs every target over its seeds and the
# committed regression inputs (tests/fuzz/regress/<target>/) and fuzzes it
# for a short while.  Fails on any crash, mismatch, leak or timeout.
#   tests/fuzz/run-smoke.sh [-B build-dir] [-j jobs] [-t seconds-per-target]
# Targets run $JOBS at a time: all four take about 75 s (-t 35) on 2 idle cores.
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$SRC/build-fuzz
JOBS=2
SECONDS_PER_TARGET=35
while getopts B:j:t: opt; do
    case $opt in
    B) BUILD=$(realpath -m "$OPTARG") ;;
    j) JOBS=$OPTARG ;;
    t) SECONDS_PER_TARGET=$OPTARG ;;
    *) echo "usage: $0 [-B build-dir] [-j jobs] [-t seconds-per-target]" >&2; exit 2 ;;
    esac
done
. "$SRC/tests/fuzz/common.sh"

fuzz_check_toolchain
fuzz_build
fuzz_seeds "$BUILD/fuzz-seeds"
mkdir -p "$BUILD/fuzz-artifacts"

# One target over its seeds and regression inputs, then fuzzing; its verdict
# goes to $BUILD/fuzz-smoke/<target>.result (PASS/FAIL/SKIP lines).
run_target() {
    t=$1
    bin=$BUILD/tests/fuzz/$t
    result=$BUILD/fuzz-smoke/$t.result
    if [ ! -x "$bin" ]; then
        # Only fuzz_openssl_diff is optional (no OpenSSL >= 3.0 found).
        echo "SKIP: $t: not built (see the CMake warning: OpenSSL >= 3.0 not found)" >"$result"
        return 0
    fi
    scratch=$BUILD/fuzz-smoke/$t
    rm -rf "$scratch"
    mkdir -p "$scratch"
    regress=$SRC/tests/fuzz/regress/$t
    [ -d "$regress" ] || regress=
    log=$BUILD/fuzz-smoke/$t.log
    s=$(date +%s)
    if nice "$bin" -max_total_time="$SECONDS_PER_TARGET" -max_len=$FUZZ_MAX_LEN -timeout=60 -rss_limit_mb=3072 \
        -print_final_stats=1 -artifact_prefix="$BUILD/fuzz-artifacts/$t-" \
        "$scratch" "$BUILD/fuzz-seeds/$(fuzz_seed_dir "$t")" $regress >"$log" 2>&1; then
        echo "PASS: $t in $(( $(date +%s) - s )) s: $(fuzz_summary "$log")" >"$result"
    else
        {
            echo "FAIL: $t (log: $log); last lines:"
            grep -A2 -E 'FUZZ CHECK|ERROR: ' "$log" | head -n 12 | sed 's/^/  /'
            grep -E '^SUMMARY|Test unit written' "$log" | sed 's/^/  /'
        } >"$result"
    fi
}

# Each target is one process on one core: run $JOBS of them at a time.
start_all=$(date +%s)
mkdir -p "$BUILD/fuzz-smoke"
running=0
for t in $FUZZ_TARGETS; do
    rm -f "$BUILD/fuzz-smoke/$t.result"
    run_target "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait
        running=0
    fi
done
wait
failed=0
for t in $FUZZ_TARGETS; do
    result=$BUILD/fuzz-smoke/$t.result
    if [ -s "$result" ]; then
        cat "$result"
        grep -q '^FAIL' "$result" && failed=1
    else
        echo "FAIL: $t: no result"
        failed=1
    fi
done
echo "fuzz smoke: $(( $(date +%s) - start_all )) s for all targets"
exit $failed
