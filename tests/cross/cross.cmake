# What the RISC-V and 64-bit Arm cross builds share (tests/riscv.cmake and
# tests/arm.cmake include this; it is not one of the globbed tests/*.cmake):
#   hwc_cross_diff_ct(TARGET TEST LABEL)  the program tests/cross/diff_ct.c
#       (every available back end against ct on random inputs up to 4 KiB;
#       the cross builds have no native OpenSSL to compare with) as TARGET,
#       registered as ctest TEST (skipped when ct is the only back end);
#   hwc_cross_icount_plugin([ALL])  target hwc_icount_plugin: the QEMU
#       instruction-count plugin (tools/qemu-icount) built for the host with
#       HWC_HOST_CC, for the plugin API HWC_QEMU_PLUGIN_API (1: QEMU 7/8,
#       4: QEMU 9/10), its path in HWC_ICOUNT_PLUGIN; nothing (and
#       HWC_HOST_CC_PATH false) without a host compiler.
include_guard(GLOBAL)
set(HWC_CROSS_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})

function(hwc_cross_diff_ct target test label)
  add_executable(${target} ${HWC_CROSS_TESTS_DIR}/diff_ct.c)
  target_link_libraries(${target} PRIVATE hwcrypt_static)
  target_compile_options(${target} PRIVATE ${HWC_WARNINGS})
  add_test(NAME ${test} COMMAND ${target})
  set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77 LABELS ${label} TIMEOUT 900)
endfunction()

macro(hwc_cross_icount_plugin)
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
    add_custom_target(hwc_icount_plugin ${ARGN} DEPENDS ${HWC_ICOUNT_PLUGIN})
  endif()
endmacro()
