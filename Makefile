# Thin wrapper over CMake.  `make` builds a release; `make check` installs
# what the tests need (apt-get when root) and runs every part of the test
# suite below; `make speed` builds and runs the benchmark; `make install`
# installs.
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# CI builds with warnings as errors (once: `make check` runs each part in a
# sub-make, which gets CMAKE_FLAGS back from the environment).
ifneq ($(CI),)
ifeq ($(filter -DHWC_WERROR=ON,$(CMAKE_FLAGS)),)
CMAKE_FLAGS += -DHWC_WERROR=ON
endif
endif
# The cross and sanitizer scripts read it from the environment.
export CMAKE_FLAGS
SPEED_CIPHERS ?= aes-128-gcm aes-128-ctr aes-128-cbc aes-256-xts aes-128-ocb aes-128-ccm sm4-ctr sm4-gcm
SPEED_SECONDS ?= 1

# The parts of `make check`. Each is also a target of its own
# (`make check-rv64`), which assumes the packages are installed. Adding a
# part: add it here, write its target below, give it its package list in
# scripts/install-deps (pkgs_check_<name>; a part without one fails), and
# say in CHECK_AFTER whether it must wait for another.
# `make check` runs CHECK_JOBS parts at a time (scripts/run-check): each
# part keeps about one of this 2-core machine's cores busy on average, so
# two side by side take about half the time of one after another.
# CHECK_JOBS=1 runs them one by one in this order, output streamed.
# The order is the order of starting: the long parts and the head of a
# chain early, check-fuzz (a fixed time, both cores) last.
CHECK_PARTS = check-native check-rv32 check-provider-suites check-valgrind check-rv64 check-rvv check-sanitize check-icount check-a64 check-fuzz
CHECK_JOBS ?= 2
# PART:DEP,...: PART starts once its DEPs have ended. check-native,
# check-provider-suites and check-valgrind build and use $(BUILD) (one at a
# time: each runs CMake there); check-icount builds its benchmark in the
# check-rv64, check-rv32 and check-rvv build folders and reads their
# libraries.
CHECK_AFTER = check-provider-suites:check-native check-valgrind:check-provider-suites check-icount:check-rv64,check-rv32,check-rvv

.PHONY: all build check check-deps $(CHECK_PARTS) deps speed install clean

all: build

deps:
	@scripts/install-deps build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

# Installs what every part needs, then runs the parts (scripts/run-check: a
# part runs only when its packages are installed, else it fails naming them;
# a failed part stops no other). One result line per part with its wall and
# CPU seconds (user + sys of all its processes: the figure a busy machine
# does not inflate), every result line again at the end in CHECK_PARTS
# order, the totals (installs included), then the count alone on the last
# line. Each part's output is also in $(BUILD)-check/PART.log.
check:
	@MAKE="$(MAKE)" CHECK_JOBS="$(CHECK_JOBS)" CHECK_AFTER="$(CHECK_AFTER)" CHECK_LOG_DIR="$(BUILD)-check" \
	  scripts/run-check $(CHECK_PARTS)

check-deps:
	@scripts/install-deps $(CHECK_PARTS)

# The native suite: vectors, differential, properties, bad input, CLI.
check-native: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 900

# The provider under its peers' own test suites (issue 15): OpenSSL's
# evp_test (built from Debian's openssl source package, cached) and
# pyca/cryptography's cipher tests, each with the default provider alone and
# with hwcrypt preferred (and strict where it offers every algorithm); fails
# on anything that fails only with hwcrypt.  Sources come through
# scripts/apt-fetch into ~/.cache/hwcrypt.  Then real programs: nginx serving
# and curl downloading over TLS with hwcrypt preferred on either side or
# both; the files must arrive intact and each process's report must show
# the bytes went through hwcrypt.
check-provider-suites: build
	tests/provider/run-evp-test.sh $(BUILD)
	tests/provider/run-pyca.sh $(BUILD)
	tests/provider/run-tls-apps.sh $(BUILD)

# The RISC-V rv64 cross suite (QEMU user mode, every CPU model).
check-rv64:
	tests/riscv/run-rv64.sh -B $(BUILD)-rv64 -j $(JOBS)

# The RISC-V rv32 cross suite (picolibc + Linux shim, QEMU user mode, every CPU model).
check-rv32:
	tests/riscv/run-rv32.sh -B $(BUILD)-rv32 -j $(JOBS)

# The 64-bit Arm cross suite (QEMU 7.2 and 10 user mode, every CPU model;
# Debian's arm64 libssl-dev fetched into the cache by scripts/apt-fetch),
# then the instruction counts held to tests/arm/icount/a64.rows (no row more
# than 1% above; cortex-a72 and max,sve=off; same build, about 10 s).
check-a64:
	tests/arm/run-a64.sh -B $(BUILD)-a64 -j $(JOBS)
	tests/arm/icount-check.sh -B $(BUILD)-a64 -j $(JOBS)

# The native suite under ASan+UBSan, and the threads test under TSan
# (docs/TESTING.md); builds in $(BUILD)-asan and $(BUILD)-tsan.
check-sanitize:
	scripts/check-sanitize $(BUILD) $(JOBS) $(CMAKE_FLAGS)

# The native suite under valgrind memcheck, every 16th vector record.
check-valgrind: build
	scripts/check-valgrind $(BUILD) -j $(JOBS)

# The RISC-V vector crypto back ends (clang-19 build, QEMU 10 from
# bookworm-backports fetched into a cache by scripts/get-qemu10).
check-rvv:
	tests/riscv/run-rvv.sh -B $(BUILD)-rvv -j $(JOBS)

# Instruction counts of the RISC-V kernels held to the figures recorded in
# tests/riscv/icount/ (no row more than 1% above, no misaligned access inside
# libhwcrypt): rv64 and rv32 scalar crypto, the vector back ends at VLEN=128
# (plugin-capable QEMU 10 built once into the cache by
# bench/build-qemu10-plugins). Reuses the check-rv64/rv32/rvv builds.
check-icount:
	tests/riscv/icount-check.sh -a rv64 -B $(BUILD)-rv64 -j $(JOBS)
	tests/riscv/icount-check.sh -a rv32 -B $(BUILD)-rv32 -j $(JOBS)
	tests/riscv/icount-check.sh -a rvv -B $(BUILD)-rvv -j $(JOBS)

# libFuzzer smoke run: every fuzz target over the seeds from the vectors,
# then ~35 s of fuzzing each (clang, ASan+UBSan; docs/TESTING.md "Fuzzing").
check-fuzz:
	FUZZ_CMAKE_FLAGS="$(CMAKE_FLAGS)" tests/fuzz/run-smoke.sh -B $(BUILD)-fuzz -j $(JOBS)

# Encrypt, then decrypt for CBC (its two directions differ most).
speed: deps build
	$(BUILD)/hwcrypt speed -compare -openssl -seconds $(SPEED_SECONDS) $(foreach c,$(SPEED_CIPHERS),-evp $(c))
	$(BUILD)/hwcrypt speed -compare -openssl -seconds $(SPEED_SECONDS) -decrypt -evp aes-128-cbc

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
