# The 64-bit Arm back ends (src/arm/*.c), aarch64 only.
#
# They are NEON intrinsics with per-function target attributes, and GCC 12
# allocates NEON registers poorly around AESE (a destructive two-operand
# instruction) and the four-register LD1/ST1: it copies every block before
# its first round, and an 8-way CTR costs 1.72 instructions per byte where
# clang's code costs 1.55 (bench/a64-icount). So, as for the RISC-V vector
# back ends, the files are compiled by clang (clang-19 is in Debian 12 main)
# to objects linked into the gcc-built library: same psABI, PIC, hidden
# visibility. Without a clang that compiles the probe below, the C compiler
# builds them (correct, slower; a message says so).
#
# Phase 1 (before the library targets): sets HWC_A64_SOURCES_FOR_CC (the
# files the C compiler builds: none when clang is used) and, with clang,
# HWC_A64_CLANG_OBJECTS with their rules. Phase 2 is hwc_a64_attach_objects().
# Phase 2, after the library targets exist: one target drives the compiles
# and the libraries wait for it (listing the objects alone would give each
# library its own copy of the rules, which could run at once).
function(hwc_a64_attach_objects)
  if(NOT HWC_A64_CLANG_OBJECTS)
    return()
  endif()
  add_custom_target(hwc_a64_objects DEPENDS ${HWC_A64_CLANG_OBJECTS})
  foreach(lib hwcrypt_static hwcrypt_shared)
    if(TARGET ${lib})
      add_dependencies(${lib} hwc_a64_objects)
      target_sources(${lib} PRIVATE ${HWC_A64_CLANG_OBJECTS})
    endif()
  endforeach()
endfunction()

set(HWC_A64_SOURCES_FOR_CC)
set(HWC_A64_CLANG_OBJECTS)
if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  return()
endif()
set(HWC_A64_SOURCES ${HWC_ARM_SOURCES})
# Assembly (the AES eight-block loops): built by the same rules, with clang
# or else the C compiler (both assemble it to the same code).
set(HWC_A64_ASM_SOURCES ${HWC_ARM_ASM_SOURCES})
set(HWC_A64_CC "" CACHE STRING "clang used for the Arm back ends (empty: search clang-19, clang-20, clang-18, clang; OFF: the C compiler)")

if(HWC_A64_CC STREQUAL "OFF")
  set(HWC_A64_CC_PATH "")
elseif(HWC_A64_CC)
  set(HWC_A64_CC_PATH ${HWC_A64_CC})
else()
  find_program(HWC_A64_CC_PATH NAMES clang-19 clang-20 clang-18 clang)
endif()
set(HWC_A64_FLAGS --target=aarch64-linux-gnu -march=armv8-a -O2 -std=c11 -fPIC -fvisibility=hidden
    -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/src ${HWC_WARNINGS})

set(HWC_A64_CLANG_OK FALSE)
if(HWC_A64_CC_PATH)
  set(probe ${PROJECT_BINARY_DIR}/a64-probe.c)
  file(WRITE ${probe} "#include <arm_neon.h>\n"
    "__attribute__((target(\"arch=armv8.2-a+crypto+sha3+sm4\"))) uint8x16_t p(uint8x16_t a, uint8x16_t k);\n"
    "__attribute__((target(\"arch=armv8.2-a+crypto+sha3+sm4\"))) uint8x16_t p(uint8x16_t a, uint8x16_t k) {\n"
    "  a = vaesmcq_u8(vaeseq_u8(a, k));\n"
    "  a = veor3q_u8(a, k, vreinterpretq_u8_u32(vsm4eq_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(k))));\n"
    "  return veorq_u8(a, vreinterpretq_u8_p128(vmull_high_p64(vreinterpretq_p64_u8(a), vreinterpretq_p64_u8(k))));\n}\n")
  execute_process(COMMAND ${HWC_A64_CC_PATH} ${HWC_A64_FLAGS} -c ${probe} -o ${PROJECT_BINARY_DIR}/a64-probe.o
                  RESULT_VARIABLE probe_rc OUTPUT_QUIET ERROR_QUIET)
  if(probe_rc EQUAL 0)
    set(HWC_A64_CLANG_OK TRUE)
  endif()
endif()

if(HWC_A64_CLANG_OK)
  set(HWC_A64_CUSTOM_SOURCES ${HWC_A64_SOURCES} ${HWC_A64_ASM_SOURCES})
  message(STATUS "hwcrypt: Arm back ends built with ${HWC_A64_CC_PATH}")
else()
  set(HWC_A64_SOURCES_FOR_CC ${HWC_A64_SOURCES})
  set(HWC_A64_CUSTOM_SOURCES ${HWC_A64_ASM_SOURCES})
  set(HWC_A64_CC_PATH ${CMAKE_C_COMPILER})
  set(HWC_A64_FLAGS -march=armv8-a -O2 -fPIC -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/src)
  message(STATUS "hwcrypt: Arm back ends built with the C compiler (HWC_A64_CC=OFF or no usable clang: their code is slower; see cmake/aarch64-clang.cmake)")
endif()

foreach(src ${HWC_A64_CUSTOM_SOURCES})
  get_filename_component(stem ${src} NAME_WE)
  get_filename_component(ext ${src} EXT)
  set(obj ${PROJECT_BINARY_DIR}/a64/${stem}${ext}.o)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/a64
    COMMAND ${HWC_A64_CC_PATH} ${HWC_A64_FLAGS} -MD -MF ${obj}.d -c ${src} -o ${obj}
    DEPENDS ${src}
    DEPFILE ${obj}.d
    COMMENT "Building ${stem}${ext} with ${HWC_A64_CC_PATH} (Arm back ends)"
    VERBATIM)
  list(APPEND HWC_A64_CLANG_OBJECTS ${obj})
endforeach()
