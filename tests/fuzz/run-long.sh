#!/bin/sh
# A long fuzzing run (not part of `make check`):
#   tests/fuzz/run-long.sh [-t seconds-per-target] [-j parallel-targets] [-B build-dir] [-o out-dir] [target...]
# e.g. tests/fuzz/run-long.sh -t 3600 runs each of the four targets for an
# hour, one at a time (-j 2: two at once), niced.  The corpus grows in
# OUT/corpus/<target> (kept between runs; default OUT: build-dir/fuzz-long),
# crashes land in OUT/artifacts/, logs in OUT/logs/; the end prints the
# executions, coverage (cov/ft) and corpus size per target.  A crash input
# reproduces with `build-fuzz/tests/fuzz/<target> <file>`; keep it as a
# regression input in tests/fuzz/regress/<target>/ once fixed.
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$SRC/build-fuzz
JOBS=2
PARALLEL=1
SECONDS_PER_TARGET=3600
OUT=
while getopts B:j:t:o: opt; do
    case $opt in
    B) BUILD=$(realpath -m "$OPTARG") ;;
    j) PARALLEL=$OPTARG ;;
    t) SECONDS_PER_TARGET=$OPTARG ;;
    o) OUT=$(realpath -m "$OPTARG") ;;
    *) echo "usage: $0 [-t seconds-per-target] [-j parallel-targets] [-B build-dir] [-o out-dir] [target...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
. "$SRC/tests/fuzz/common.sh"
[ $# -gt 0 ] && FUZZ_TARGETS="$*"
OUT=${OUT:-$BUILD/fuzz-long}

fuzz_check_toolchain
[ "${FUZZ_NO_BUILD:-}" ] || fuzz_build
fuzz_seeds "$BUILD/fuzz-seeds"
mkdir -p "$OUT/artifacts" "$OUT/logs"

run_one() {
    t=$1
    mkdir -p "$OUT/corpus/$t"
    regress=$SRC/tests/fuzz/regress/$t
    [ -d "$regress" ] || regress=
    nice "$BUILD/tests/fuzz/$t" -max_total_time="$SECONDS_PER_TARGET" -max_len=$FUZZ_MAX_LEN -timeout=60 \
        -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$t-" \
        "$OUT/corpus/$t" "$BUILD/fuzz-seeds/$(fuzz_seed_dir "$t")" $regress >"$OUT/logs/$t.log" 2>&1
}

failed=0
running=0
for t in $FUZZ_TARGETS; do
    echo "fuzzing $t for $SECONDS_PER_TARGET s (log: $OUT/logs/$t.log)"
    if [ "$PARALLEL" -gt 1 ]; then
        ( run_one "$t" || echo "$t" >>"$OUT/failed" ) &
        running=$((running + 1))
        if [ $running -ge "$PARALLEL" ]; then wait; running=0; fi
    else
        run_one "$t" || echo "$t" >>"$OUT/failed"
    fi
done
wait
for t in $FUZZ_TARGETS; do
    files=$(find "$OUT/corpus/$t" -type f | wc -l)
    echo "$t: $(fuzz_summary "$OUT/logs/$t.log"); corpus dir $files files"
done
if [ -s "$OUT/failed" ]; then
    echo "FAILED: $(tr '\n' ' ' <"$OUT/failed") -- inputs in $OUT/artifacts/"
    rm -f "$OUT/failed"
    failed=1
fi
exit $failed
