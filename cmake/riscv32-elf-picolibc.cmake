# Cross build for 32-bit RISC-V Linux with Debian's riscv64-unknown-elf-gcc
# and picolibc (Debian has no rv32 Linux C library).
#
#   cmake -S . -B build-rv32 -DCMAKE_TOOLCHAIN_FILE=cmake/riscv32-elf-picolibc.cmake \
#         [-DHWC_QEMU_CPU=rv32,zkne=true,zknd=true]
#
# picolibc is a bare-metal C library; cmake/rv32-shim/ supplies the process
# start-up and the Linux system calls it leaves to the application (files,
# brk, time, exit, mmap), so the programs run under qemu-riscv32 user mode
# (or a real rv32 Linux kernel). Programs are static and non-PIE, linked
# with binutils' default ELF layout, so their addresses match `nm` (the
# instruction-count plugin restricts counts to hwcrypt's code by address).
#
# ISA: compiled and linked for rv32gc/ilp32d, the picolibc multilib. The
# back ends enable their extensions per instruction (.option arch), never
# with -march, because gcc 12 picks no multilib for an -march with Z
# extensions. ctest runs every test through CMAKE_CROSSCOMPILING_EMULATOR,
# qemu-riscv32 with the CPU model HWC_QEMU_CPU (change it with
# `cmake -DHWC_QEMU_CPU=... build-rv32`, no rebuild needed).
#
# picolibc has no POSIX threads: HWC_NO_THREADS builds the tool without
# `speed -multi`.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(HWC_RV32_PREFIX riscv64-unknown-elf- CACHE STRING "Cross tool prefix")
set(CMAKE_C_COMPILER ${HWC_RV32_PREFIX}gcc)
set(CMAKE_ASM_COMPILER ${HWC_RV32_PREFIX}gcc)
set(CMAKE_AR ${HWC_RV32_PREFIX}ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${HWC_RV32_PREFIX}ranlib CACHE FILEPATH "")

set(HWC_PICOLIBC_DIR /usr/lib/picolibc/riscv64-unknown-elf CACHE PATH "picolibc for riscv64-unknown-elf")
set(HWC_RV32_ARCH_FLAGS -march=rv32gc -mabi=ilp32d)
set(HWC_RV32_SHIM_SRC ${CMAKE_CURRENT_LIST_DIR}/rv32-shim)
# picolibc's errno is thread-local: local-exec, which needs no run-time
# support, also in position-independent objects. The shim implements
# clock_gettime with CLOCK_MONOTONIC, which picolibc declares only when the
# system says it has them.
set(HWC_RV32_C_FLAGS -isystem ${HWC_RV32_SHIM_SRC}/include -isystem ${HWC_PICOLIBC_DIR}/include
    -ftls-model=local-exec -D_POSIX_TIMERS=1 -D_POSIX_MONOTONIC_CLOCK=200112L
    # src/cpu/riscv.c: hwprobe and the SIGILL probe as direct Linux calls.
    -DHWC_RV_RAW_LINUX=1)
string(REPLACE ";" " " hwc_flags "${HWC_RV32_ARCH_FLAGS};${HWC_RV32_C_FLAGS}")
set(CMAKE_C_FLAGS_INIT "${hwc_flags}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib -static -no-pie -L${HWC_PICOLIBC_DIR}/lib/release/rv32imafdc/ilp32d")
# The bare-metal linker has no -shared: static library only.
set(HWC_NO_SHARED ON CACHE BOOL "The toolchain cannot build shared libraries")

# Only picolibc's tree: never pick up the host's libcrypto.
set(CMAKE_FIND_ROOT_PATH ${HWC_PICOLIBC_DIR})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Compile checks stop before linking: there is no start-up code to link
# them with until the shim below is built for the project itself.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Build the shim's two objects once per configure of the real project (not
# inside CMake's compile checks) and link them into every executable, with
# picolibc and libgcc after the program's own libraries.
get_property(hwc_in_try_compile GLOBAL PROPERTY IN_TRY_COMPILE)
if(NOT hwc_in_try_compile)
  set(HWC_RV32_SHIM_DIR ${CMAKE_BINARY_DIR}/rv32-shim)
  file(MAKE_DIRECTORY ${HWC_RV32_SHIM_DIR})
  foreach(src start.S linux.c)
    execute_process(
      COMMAND ${CMAKE_C_COMPILER} ${HWC_RV32_ARCH_FLAGS} -O2 -std=c11 -Wall -Wextra -Wshadow
              -Wstrict-prototypes -Wmissing-prototypes -Werror ${HWC_RV32_C_FLAGS} -c ${HWC_RV32_SHIM_SRC}/${src} -o ${HWC_RV32_SHIM_DIR}/${src}.o
      RESULT_VARIABLE hwc_rc ERROR_VARIABLE hwc_err)
    if(NOT hwc_rc EQUAL 0)
      message(FATAL_ERROR "rv32 shim: cannot compile ${src} with ${CMAKE_C_COMPILER}:\n${hwc_err}")
    endif()
  endforeach()
  set(CMAKE_C_LINK_EXECUTABLE
      "<CMAKE_C_COMPILER> <FLAGS> <CMAKE_C_LINK_FLAGS> <LINK_FLAGS> ${HWC_RV32_SHIM_DIR}/start.S.o <OBJECTS> -o <TARGET> <LINK_LIBRARIES> ${HWC_RV32_SHIM_DIR}/linux.c.o -Wl,--start-group -lc -lgcc -Wl,--end-group")
endif()

set(HWC_NO_THREADS ON CACHE BOOL "No POSIX threads in this C library")

# The CPU model QEMU emulates. QEMU 7.2's default rv32 CPU has
# Zba/Zbb/Zbc/Zbs; a model without them says zbb=false,zbc=false.
set(HWC_QEMU_CPU "rv32,zkne=true,zknd=true,zksed=true,zbkb=true,zbkc=true,zbkx=true"
    CACHE STRING "qemu-riscv32 -cpu argument used to run tests")
set(HWC_QEMU "qemu-riscv32" CACHE FILEPATH "QEMU user-mode emulator for riscv32")
set(CMAKE_CROSSCOMPILING_EMULATOR "${HWC_QEMU};-cpu;${HWC_QEMU_CPU}")
