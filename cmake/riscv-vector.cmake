# The RISC-V vector crypto back ends (src/riscv/*zv*.c), rv64 only.
#
# GNU as 2.40 (Debian 12) cannot assemble Zvkned/Zvkg/Zvksed, so these files
# are compiled by clang (clang-19 is in Debian 12 main), to objects linked
# into the gcc-built library: same psABI (lp64d), PIC, hidden visibility.
# Each file gets V plus only the extensions it uses; its code runs only when
# dispatch found them, so the rest of the library stays plain rv64gc.
# Without a clang that compiles the probe below, the back ends are left out
# with a message; the build never fails for it.
#
# Included from CMakeLists.txt after the library targets exist; sets
# HWC_RVV_SOURCES (the files it handles; the main lists do not name them).
set(HWC_RVV_SOURCES
  ${PROJECT_SOURCE_DIR}/src/riscv/aes_zvkned.c
  ${PROJECT_SOURCE_DIR}/src/riscv/ghash_zvbc.c
  ${PROJECT_SOURCE_DIR}/src/riscv/ghash_zvkg.c
  ${PROJECT_SOURCE_DIR}/src/riscv/sm4_zvksed.c)
set(HWC_RVV_CC "" CACHE STRING "clang used for the vector crypto back ends (empty: search clang-19, clang-20, clang-18, clang)")

# march extensions per file (V and Zvkb everywhere).
set(HWC_RVV_EXT_aes_zvkned zvkned_zvkb_zvkg)
set(HWC_RVV_EXT_ghash_zvbc zvbc_zvkb)
set(HWC_RVV_EXT_ghash_zvkg zvkg_zvkb)
set(HWC_RVV_EXT_sm4_zvksed zvksed_zvkb_zvkg)

if(NOT CMAKE_SYSTEM_PROCESSOR STREQUAL "riscv64" OR NOT HWC_RVV_SOURCES)
  return()
endif()

if(HWC_RVV_CC)
  set(HWC_RVV_CC_PATH ${HWC_RVV_CC})
else()
  find_program(HWC_RVV_CC_PATH NAMES clang-19 clang-20 clang-18 clang)
endif()
# Zvk* intrinsics need -menable-experimental-extensions in clang 18/19.
set(HWC_RVV_FLAGS --target=riscv64-linux-gnu -menable-experimental-extensions -mabi=lp64d
    -O2 -std=c11 -fPIC -fvisibility=hidden -DHWC_HAVE_RVV_CRYPTO=1
    -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/src ${HWC_WARNINGS})

set(HWC_RVV_OK FALSE)
if(HWC_RVV_CC_PATH)
  set(probe ${PROJECT_BINARY_DIR}/rvv-probe.c)
  file(WRITE ${probe} "#include <riscv_vector.h>\n#include <string.h>\n"
    "vuint32m4_t p(vuint32m4_t s, vuint32m1_t k, size_t vl);\n"
    "vuint32m4_t p(vuint32m4_t s, vuint32m1_t k, size_t vl) {\n"
    "  s = __riscv_vaesem_vs_u32m1_u32m4(s, k, vl);\n"
    "  s = __riscv_vsm4r_vs_u32m1_u32m4(s, k, vl);\n"
    "  return __riscv_vghsh_vv_u32m4(__riscv_vrev8_v_u32m4(s, vl), s, s, vl);\n}\n"
    "vuint64m4_t c(vuint64m4_t a, size_t vl);\n"
    "vuint64m4_t c(vuint64m4_t a, size_t vl) { return __riscv_vclmulh_vv_u64m4(a, a, vl); }\n")
  execute_process(COMMAND ${HWC_RVV_CC_PATH} ${HWC_RVV_FLAGS} -march=rv64gcv_zvkned_zvksed_zvkg_zvkb_zvbc
                          -c ${probe} -o ${PROJECT_BINARY_DIR}/rvv-probe.o
                  RESULT_VARIABLE probe_rc OUTPUT_QUIET ERROR_VARIABLE probe_err)
  if(probe_rc EQUAL 0)
    set(HWC_RVV_OK TRUE)
  endif()
endif()

if(NOT HWC_RVV_OK)
  if(HWC_RVV_CC_PATH)
    message(STATUS "hwcrypt: ${HWC_RVV_CC_PATH} cannot compile Zvk*/Zvbc intrinsics: RISC-V vector crypto back ends left out")
  else()
    message(STATUS "hwcrypt: no clang (clang-19) found: RISC-V vector crypto back ends (zvkned, zvksed, zvkg, zvbc) left out")
  endif()
  return()
endif()

set(HWC_RVV_OBJECTS)
foreach(src ${HWC_RVV_SOURCES})
  get_filename_component(stem ${src} NAME_WE)
  if(NOT DEFINED HWC_RVV_EXT_${stem})
    message(FATAL_ERROR "cmake/riscv-vector.cmake: no extension list for ${src}")
  endif()
  set(obj ${PROJECT_BINARY_DIR}/rvv/${stem}.o)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/rvv
    COMMAND ${HWC_RVV_CC_PATH} ${HWC_RVV_FLAGS} -march=rv64gcv_${HWC_RVV_EXT_${stem}}
            -MD -MF ${obj}.d -c ${src} -o ${obj}
    DEPENDS ${src}
    DEPFILE ${obj}.d
    COMMENT "Building ${stem}.c with ${HWC_RVV_CC_PATH} (RISC-V vector crypto)"
    VERBATIM)
  list(APPEND HWC_RVV_OBJECTS ${obj})
endforeach()
# One target drives the compiles; the libraries wait for it (listing the
# objects alone would give each library its own copy of the rules, which
# could run at the same time and write the same file).
add_custom_target(hwc_rvv_objects DEPENDS ${HWC_RVV_OBJECTS})
foreach(lib hwcrypt_static hwcrypt_shared)
  if(TARGET ${lib})
    add_dependencies(${lib} hwc_rvv_objects)
    target_sources(${lib} PRIVATE ${HWC_RVV_OBJECTS})
  endif()
endforeach()
target_compile_definitions(hwcrypt_obj PRIVATE HWC_HAVE_RVV_CRYPTO=1)
message(STATUS "hwcrypt: RISC-V vector crypto back ends built with ${HWC_RVV_CC_PATH}")
