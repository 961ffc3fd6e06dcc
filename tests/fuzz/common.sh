# Shared by run-smoke.sh and run-long.sh (sourced, not run).
# Needs: SRC (repository root), BUILD (build directory), JOBS.

FUZZ_TARGETS="fuzz_cipher_diff fuzz_openssl_diff fuzz_aead_tamper fuzz_api_misuse"
# Case inputs: header (<= 60 bytes) + key + IV + 1 KiB AAD + 4 KiB data.
FUZZ_MAX_LEN=6000
# The whole build is instrumented so coverage (and ASan) reach the library
# (UBSan all but the x86 AES kernels: see CMakeLists.txt). UBSan stays
# non-recovering: recoverable checks compiled faster, but their extra edges
# made libFuzzer 4.5 times slower (fuzz_openssl_diff 2435 -> 540 exec/s).
FUZZ_CFLAGS="-g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

# clang and its libFuzzer runtime must be installed (Debian: clang,
# libclang-rt-14-dev, which apt only recommends): fail with the command.
fuzz_check_toolchain() {
    tmp=$(mktemp -d)
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$tmp/t.c"
    if ! command -v clang >/dev/null 2>&1 ||
        ! clang -fsanitize=fuzzer,address,undefined "$tmp/t.c" -o "$tmp/t" >"$tmp/log" 2>&1; then
        echo "FAIL: clang with libFuzzer (-fsanitize=fuzzer) is not usable here:" >&2
        sed 's/^/  /' "$tmp/log" >&2 2>/dev/null
        echo "install it with:  scripts/install-deps test   (as root; or: apt-get install clang libclang-rt-14-dev)" >&2
        rm -rf "$tmp"
        return 1
    fi
    rm -rf "$tmp"
}

fuzz_build() {
    CC=clang cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWC_BUILD_FUZZ=ON \
        -DHWC_BUILD_TESTS=OFF ${FUZZ_CMAKE_FLAGS:-} "-DCMAKE_C_FLAGS=$FUZZ_CFLAGS" >"$BUILD.configure.log" 2>&1 ||
        { cat "$BUILD.configure.log" >&2; return 1; }
    cmake --build "$BUILD" --target fuzz_all -j "$JOBS"
}

# Seeds from the vectors into $1 (regenerated each time: cheap, and never stale).
fuzz_seeds() {
    rm -rf "$1"
    "$BUILD/tests/fuzz/fuzz_seed_corpus" "$1"
}

# The seed subdirectory a target reads.
fuzz_seed_dir() {
    case $1 in
    fuzz_api_misuse) echo programs ;;
    *) echo cases ;;
    esac
}

# "cov: N ft: N corp: N/size" and the executions from a libFuzzer log.
fuzz_summary() {
    log=$1
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(printf '%s\n' "$last" | sed -n 's/.*\(cov: [0-9]*\).*/\1/p')
    ft=$(printf '%s\n' "$last" | sed -n 's/.*\(ft: [0-9]*\).*/\1/p')
    corp=$(printf '%s\n' "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p')
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    echo "executions ${execs:-?} (${speed:-?}/s), ${cov:-cov: ?}, ${ft:-ft: ?}, corpus ${corp:-?}"
}
