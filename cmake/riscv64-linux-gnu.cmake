# Cross build for 64-bit RISC-V Linux with Debian's riscv64-linux-gnu-gcc.
#
#   cmake -S . -B build-rv64 -DCMAKE_TOOLCHAIN_FILE=cmake/riscv64-linux-gnu.cmake \
#         [-DHWC_QEMU_CPU=rv64,zkne=true,zknd=true]
#
# Programs are linked statically so qemu-riscv64 runs them without a riscv64
# sysroot, and non-PIE so their addresses match `nm` (the instruction-count
# plugin restricts counts to hwcrypt's kernels by address range).  ctest runs
# every test through CMAKE_CROSSCOMPILING_EMULATOR, i.e. under qemu-riscv64
# with the CPU model in HWC_QEMU_CPU; change it with
# `cmake -DHWC_QEMU_CPU=... build-rv64` (no rebuild needed) to run the same
# binaries on another model.  The base ISA is rv64gc: the back ends enable
# their extensions per instruction, so the library runs on any rv64gc core.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(HWC_RV64_PREFIX riscv64-linux-gnu- CACHE STRING "Cross tool prefix")
set(CMAKE_C_COMPILER ${HWC_RV64_PREFIX}gcc)
set(CMAKE_ASM_COMPILER ${HWC_RV64_PREFIX}gcc)
set(CMAKE_AR ${HWC_RV64_PREFIX}ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${HWC_RV64_PREFIX}ranlib CACHE FILEPATH "")

set(CMAKE_C_FLAGS_INIT "-march=rv64gc -mabi=lp64d")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -no-pie")

# Only the cross toolchain's own sysroot: never pick up the host's libcrypto.
set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The CPU model QEMU emulates.  QEMU 7.2's default rv64 CPU already has
# Zba/Zbb/Zbc/Zbs; a model without them says zbb=false,zbc=false.
set(HWC_QEMU_CPU "rv64,zkne=true,zknd=true,zksed=true,zbkb=true,zbkc=true,zbkx=true"
    CACHE STRING "qemu-riscv64 -cpu argument used to run tests")
set(HWC_QEMU "qemu-riscv64" CACHE FILEPATH "QEMU user-mode emulator for riscv64")
set(CMAKE_CROSSCOMPILING_EMULATOR "${HWC_QEMU};-cpu;${HWC_QEMU_CPU}")
