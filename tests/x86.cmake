# x86-64 back-end selection (tests/test_x86_dispatch.sh): HWCRYPT_CAPS=none
# natively, and the qemu64 / qemu64+AES-NI CPU models under qemu-x86_64.
# Only on x86-64 hosts. Without qemu-x86_64 the script runs the native
# checks, then reports a skip (77) naming what is missing.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64" AND NOT CMAKE_CROSSCOMPILING)
  find_program(HWC_QEMU_X86_64 qemu-x86_64)
  # Not found now: the script looks in PATH again when it runs.
  set(hwc_qemu_arg "")
  if(HWC_QEMU_X86_64)
    set(hwc_qemu_arg ${HWC_QEMU_X86_64})
  endif()
  add_test(NAME x86_dispatch
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_x86_dispatch.sh $<TARGET_FILE:hwcrypt> ${hwc_qemu_arg})
  set_tests_properties(x86_dispatch PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "x86;dispatch")
endif()
