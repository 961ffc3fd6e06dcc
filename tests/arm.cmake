# 64-bit Arm cross-build tests, for builds with the toolchain file
# cmake/aarch64-linux-gnu.cmake. Nothing here is defined in a native build
# (unless that build is itself aarch64: then a64_caps checks the host).
#
# The cross build runs every test under qemu-aarch64 -cpu ${HWC_QEMU_CPU}
# (CMAKE_CROSSCOMPILING_EMULATOR). tests/arm/run-a64.sh configures one build
# and reconfigures it per CPU model; this file adds:
#   a64_caps      `hwcrypt caps` must select HWC_A64_EXPECT_SELECTED
#                 (e.g. "aes=armv8ce sm4=sm4-armv8ce ghash=pmull"), when set;
#   a64_diff_ct   every available back end against ct on random inputs up
#                 to 4 KiB (tests/riscv/diff_ct.c; skipped when ct is the
#                 only one);
# and builds the instruction-count plugin for the host (tools/qemu-icount,
# target hwc_icount_plugin) for bench/a64-icount.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  set(HWC_A64_EXPECT_SELECTED "" CACHE STRING
      "Back ends `hwcrypt caps` must select under HWC_QEMU_CPU, as \"aes=X sm4=Y ghash=Z\" (empty: no check)")

  add_executable(a64_diff_ct ${CMAKE_CURRENT_SOURCE_DIR}/riscv/diff_ct.c)
  target_link_libraries(a64_diff_ct PRIVATE hwcrypt_static)
  target_compile_options(a64_diff_ct PRIVATE ${HWC_WARNINGS})
  add_test(NAME a64_diff_ct COMMAND a64_diff_ct)
  set_tests_properties(a64_diff_ct PROPERTIES SKIP_RETURN_CODE 77 LABELS a64 TIMEOUT 900)

  if(HWC_A64_EXPECT_SELECTED)
    add_test(NAME a64_caps COMMAND hwcrypt caps)
    string(REPLACE "+" "\\+" expect_re "${HWC_A64_EXPECT_SELECTED}")
    set_tests_properties(a64_caps PROPERTIES PASS_REGULAR_EXPRESSION "selected: ${expect_re}\n" LABELS a64)
  endif()

  if(CMAKE_CROSSCOMPILING)
    set(HWC_HOST_CC cc CACHE STRING "Host C compiler for the QEMU plugin")
    set(HWC_QEMU_PLUGIN_API 1 CACHE STRING "QEMU plugin API version: 1 for QEMU 7.x/8.x, 4 for 9.x/10.x")
    find_program(HWC_HOST_CC_PATH NAMES ${HWC_HOST_CC})
    if(HWC_HOST_CC_PATH)
      set(HWC_ICOUNT_PLUGIN ${PROJECT_BINARY_DIR}/tools/qemu-icount/icount.so)
      add_custom_command(OUTPUT ${HWC_ICOUNT_PLUGIN}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/tools/qemu-icount
        COMMAND ${HWC_HOST_CC_PATH} -O2 -shared -fPIC -DPLUGIN_API=${HWC_QEMU_PLUGIN_API}
                -o ${HWC_ICOUNT_PLUGIN} ${PROJECT_SOURCE_DIR}/tools/qemu-icount/icount.c
        DEPENDS ${PROJECT_SOURCE_DIR}/tools/qemu-icount/icount.c
        COMMENT "Building the QEMU instruction-count plugin for the host")
      add_custom_target(hwc_icount_plugin DEPENDS ${HWC_ICOUNT_PLUGIN})
    endif()
  endif()
endif()
