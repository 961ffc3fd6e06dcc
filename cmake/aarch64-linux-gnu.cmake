# Cross build for 64-bit Arm Linux with Debian's aarch64-linux-gnu-gcc.
#
#   cmake -S . -B build-a64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         [-DHWC_QEMU_CPU=neoverse-n1] [-DHWC_A64_OPENSSL_ROOT=DIR]
#
# Programs are linked statically so qemu-aarch64 runs them without an arm64
# sysroot, and non-PIE so their addresses match `nm` (the instruction-count
# plugin restricts counts to one library's code by address range).  ctest
# runs every test through CMAKE_CROSSCOMPILING_EMULATOR, i.e. under
# qemu-aarch64 with the CPU model in HWC_QEMU_CPU; change it with
# `cmake -DHWC_QEMU_CPU=... build-a64` (no rebuild needed) to run the same
# binaries on another model.  The base ISA is Armv8.0-A: the back ends
# enable the Crypto Extensions, SHA3 (EOR3) and SM4 per function
# (target attributes), so the library runs on any AArch64 core.
#
# HWC_A64_OPENSSL_ROOT: Debian's arm64 libssl-dev unpacked (not installed:
# `scripts/apt-fetch -a arm64 unpack libssl-dev` prints the folder); the
# build then links its libcrypto.a statically, for `hwcrypt speed -openssl`
# and the differential tests against OpenSSL under qemu. Without it, this
# build has no OpenSSL. The OpenSSL provider module is not built here.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(HWC_A64_PREFIX aarch64-linux-gnu- CACHE STRING "Cross tool prefix")
set(CMAKE_C_COMPILER ${HWC_A64_PREFIX}gcc)
set(CMAKE_ASM_COMPILER ${HWC_A64_PREFIX}gcc)
set(CMAKE_AR ${HWC_A64_PREFIX}ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${HWC_A64_PREFIX}ranlib CACHE FILEPATH "")

set(CMAKE_C_FLAGS_INIT "-march=armv8-a")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -no-pie")

# Only the cross toolchain's own sysroot (and the unpacked arm64 OpenSSL, when
# given): never pick up the host's libcrypto.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(HWC_A64_OPENSSL_ROOT "" CACHE PATH "Unpacked Debian arm64 libssl-dev (usr/ inside)")
if(HWC_A64_OPENSSL_ROOT)
  # configuration.h sits in the multiarch folder, which the cross compiler
  # does not search on its own.
  set(OPENSSL_INCLUDE_DIR ${HWC_A64_OPENSSL_ROOT}/usr/include CACHE PATH "" FORCE)
  set(OPENSSL_CRYPTO_LIBRARY ${HWC_A64_OPENSSL_ROOT}/usr/lib/aarch64-linux-gnu/libcrypto.a CACHE FILEPATH "" FORCE)
  set(OPENSSL_SSL_LIBRARY ${HWC_A64_OPENSSL_ROOT}/usr/lib/aarch64-linux-gnu/libssl.a CACHE FILEPATH "" FORCE)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
  # Not CMAKE_C_FLAGS_INIT: that is read only when a build folder is first
  # configured, so a folder first configured without OpenSSL (bench/a64-icount
  # -O) never got the folder and later failed on openssl/configuration.h.
  list(APPEND CMAKE_C_STANDARD_INCLUDE_DIRECTORIES ${HWC_A64_OPENSSL_ROOT}/usr/include/aarch64-linux-gnu)
  set(HWC_BUILD_PROVIDER OFF CACHE BOOL "" FORCE)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The CPU model QEMU emulates (QEMU 7.2: cortex-a53/a57/a72/a76, neoverse-n1,
# a64fx, max; QEMU 10 adds neoverse-v1 and neoverse-n2).
set(HWC_QEMU_CPU "max,sve=off" CACHE STRING "qemu-aarch64 -cpu argument used to run tests")
set(HWC_QEMU "qemu-aarch64" CACHE FILEPATH "QEMU user-mode emulator for aarch64")
set(CMAKE_CROSSCOMPILING_EMULATOR "${HWC_QEMU};-cpu;${HWC_QEMU_CPU}")
