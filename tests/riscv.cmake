# RISC-V cross-build tests, for builds with the toolchain file
# cmake/riscv64-linux-gnu.cmake (rv64) or cmake/riscv32-elf-picolibc.cmake
# (rv32). Nothing here is defined in a native build. Test names start with
# the architecture: rv64_* or rv32_* (below, rv64_ stands for either).
#
# The cross build runs every test under qemu-riscv64/32 -cpu ${HWC_QEMU_CPU}
# (CMAKE_CROSSCOMPILING_EMULATOR). tests/riscv/run-rv64.sh (run-rv32.sh)
# configures one build and reconfigures it per CPU model; this file adds:
#   rv64_caps      `hwcrypt caps` must select HWC_RV_EXPECT_SELECTED
#                  (e.g. "aes=zkne64 sm4=ct ghash=ct"), when that is set;
#   rv64_diff_ct   every available back end against ct on random inputs up
#                  to 4 KiB (tests/cross/diff_ct.c; skipped when ct is the
#                  only one): the cross build has no OpenSSL to compare with;
#   rv64_misalign  tests/riscv/misalign.sh: every cipher on every back end
#                  (or HWC_RV_MISALIGN_IMPLS) at offsets 0..15, no misaligned
#                  access inside libhwcrypt;
# and builds the instruction-count plugin for the host
# (tools/qemu-icount, target hwc_icount_plugin; both from tests/cross/cross.cmake).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "riscv(32|64)")
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "riscv32")
    set(rv rv32)
    set(rv_prefix ${HWC_RV32_PREFIX})
  else()
    set(rv rv64)
    set(rv_prefix ${HWC_RV64_PREFIX})
  endif()
  set(HWC_RV_EXPECT_SELECTED "" CACHE STRING
      "Back ends `hwcrypt caps` must select under HWC_QEMU_CPU, as \"aes=X sm4=Y ghash=Z\" (empty: no check)")
  set(HWC_RV_MISALIGN_IMPLS "" CACHE STRING "Back ends the misalignment test runs (empty: every available one)")
  include(${CMAKE_CURRENT_SOURCE_DIR}/cross/cross.cmake)

  add_executable(misalign_driver ${CMAKE_CURRENT_SOURCE_DIR}/riscv/misalign_driver.c)
  target_link_libraries(misalign_driver PRIVATE hwcrypt_static)
  target_compile_options(misalign_driver PRIVATE ${HWC_WARNINGS})

  hwc_cross_diff_ct(diff_ct ${rv}_diff_ct ${rv})

  # The plugin and the test that needs it only when a host compiler is there.
  hwc_cross_icount_plugin(ALL)
  if(NOT HWC_HOST_CC_PATH)
    message(STATUS "hwcrypt: no host C compiler '${HWC_HOST_CC}': no instruction-count plugin, no ${rv}_misalign test")
  endif()

  if(HWC_RV_EXPECT_SELECTED)
    add_test(NAME ${rv}_caps COMMAND hwcrypt caps)
    string(REPLACE "+" "\\+" expect_re "${HWC_RV_EXPECT_SELECTED}")
    set_tests_properties(${rv}_caps PROPERTIES PASS_REGULAR_EXPRESSION "selected: ${expect_re}\n" LABELS ${rv})
  endif()

  if(HWC_HOST_CC_PATH)
    separate_arguments(misalign_impls UNIX_COMMAND "${HWC_RV_MISALIGN_IMPLS}")
    find_program(HWC_RV_NM NAMES ${rv_prefix}nm riscv64-linux-gnu-nm nm)
    add_test(NAME ${rv}_misalign
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/riscv/misalign.sh ${HWC_QEMU} ${HWC_QEMU_CPU} ${HWC_ICOUNT_PLUGIN}
              ${HWC_RV_NM} $<TARGET_FILE:hwcrypt_static> $<TARGET_FILE:misalign_driver> ${misalign_impls})
    set_tests_properties(${rv}_misalign PROPERTIES LABELS "${rv};misalign" TIMEOUT 1200)
  endif()
endif()
