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
#                 to 4 KiB (tests/cross/diff_ct.c; skipped when ct is the
#                 only one);
# and, cross-compiling, the instruction-count plugin for the host
# (tools/qemu-icount, target hwc_icount_plugin, not built by default) for
# bench/a64-icount and tests/arm/icount-check.sh (both from
# tests/cross/cross.cmake).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  set(HWC_A64_EXPECT_SELECTED "" CACHE STRING
      "Back ends `hwcrypt caps` must select under HWC_QEMU_CPU, as \"aes=X sm4=Y ghash=Z\" (empty: no check)")

  include(${CMAKE_CURRENT_SOURCE_DIR}/cross/cross.cmake)
  hwc_cross_diff_ct(a64_diff_ct a64_diff_ct a64)

  if(HWC_A64_EXPECT_SELECTED)
    add_test(NAME a64_caps COMMAND hwcrypt caps)
    string(REPLACE "+" "\\+" expect_re "${HWC_A64_EXPECT_SELECTED}")
    set_tests_properties(a64_caps PROPERTIES PASS_REGULAR_EXPRESSION "selected: ${expect_re}\n" LABELS a64)
  endif()

  if(CMAKE_CROSSCOMPILING)
    hwc_cross_icount_plugin()
  endif()
endif()
