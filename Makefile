# Thin wrapper over CMake.  `make` builds a release; `make check` installs
# what the tests need (apt-get when root) and runs every part of the test
# suite below; `make speed` builds and runs the benchmark; `make install`
# installs.
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# CI builds with warnings as errors.
ifneq ($(CI),)
CMAKE_FLAGS += -DHWC_WERROR=ON
endif
SPEED_CIPHERS ?= aes-128-gcm aes-128-ctr aes-128-cbc aes-256-xts aes-128-ocb aes-128-ccm sm4-ctr sm4-gcm
SPEED_SECONDS ?= 1

# The parts of `make check`, run in this order. Each is also a target of its
# own (`make check-rv64`), which assumes the packages are installed.
CHECK_PARTS = check-native check-rv64

.PHONY: all build check check-deps $(CHECK_PARTS) deps speed install clean

all: build

deps:
	@scripts/install-deps build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

check: check-deps
	@set -e; for part in $(CHECK_PARTS); do \
	  echo "=== make $$part"; s=$$(date +%s); \
	  $(MAKE) --no-print-directory $$part; \
	  echo "=== make $$part: passed in $$(( $$(date +%s) - s )) s"; \
	done

check-deps:
	@scripts/install-deps test

# The native suite: vectors, differential, properties, bad input, CLI.
check-native: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 900

# The RISC-V rv64 cross suite (QEMU user mode, every CPU model).
check-rv64:
	tests/riscv/run-rv64.sh -B $(BUILD)-rv64 -j $(JOBS)

# Encrypt, then decrypt for CBC (its two directions differ most).
speed: deps build
	$(BUILD)/hwcrypt speed -compare -openssl -seconds $(SPEED_SECONDS) $(foreach c,$(SPEED_CIPHERS),-evp $(c))
	$(BUILD)/hwcrypt speed -compare -openssl -seconds $(SPEED_SECONDS) -decrypt -evp aes-128-cbc

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
