# Hardening tests (docs/TESTING.md): guard pages, threads, the error table,
# constant time under valgrind, the ABI of the back-end kernels.
# test_guard_pages and test_errors run as registered by default.
if(TARGET test_threads)
  target_link_libraries(test_threads PRIVATE Threads::Threads)
endif()

# Constant time under valgrind memcheck (tests/ct/): native builds only.
# Without valgrind/memcheck.h, or with the hooks off (sanitizer builds, where
# valgrind cannot run), the test reports a skip.
if(NOT CMAKE_CROSSCOMPILING)
  if(HWC_HAVE_MEMCHECK_H)
    add_executable(ct_valgrind ${CMAKE_CURRENT_SOURCE_DIR}/ct/ct_valgrind.c)
    target_link_libraries(ct_valgrind PRIVATE hwc_testutil)
    target_compile_options(ct_valgrind PRIVATE ${HWC_WARNINGS})
    if(HWC_CT_VALGRIND)
      target_compile_definitions(ct_valgrind PRIVATE HWC_CT_VALGRIND=1)
    endif()
    add_test(NAME ct_valgrind COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ct/run-ct-valgrind.sh $<TARGET_FILE:ct_valgrind>)
  else()
    add_test(NAME ct_valgrind COMMAND sh -c "echo 'SKIP: valgrind/memcheck.h was not found at configure time'; exit 77")
  endif()
  set_tests_properties(ct_valgrind PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "valgrind;ct")
endif()

# The error table: docs/ERRORS.md and hwcrypt.h are read at run time.  The
# allocator is replaced (for HWC_ERR_NO_MEM) only in dynamically linked
# builds: the static cross builds report those rows as skipped.
if(TARGET test_errors)
  target_compile_definitions(test_errors PRIVATE HWC_ERRORS_MD="${PROJECT_SOURCE_DIR}/docs/ERRORS.md"
    HWC_HEADER="${PROJECT_SOURCE_DIR}/include/hwcrypt/hwcrypt.h")
  if(NOT CMAKE_CROSSCOMPILING)
    target_compile_definitions(test_errors PRIVATE HWC_TEST_INTERPOSE_ALLOC=1)
  endif()
endif()
if(TARGET test_errors)
  add_test(NAME test_errors COMMAND test_errors)
  add_test(NAME test_errors_caps_none COMMAND test_errors)
  set_tests_properties(test_errors_caps_none PROPERTIES ENVIRONMENT HWCRYPT_CAPS=none)
  set(HWC_TEST_test_errors_REGISTERED ON)
endif()
# Exit codes and messages of `hwcrypt enc` (docs/ERRORS.md).  Named *_cli:
# the rv64 runner leaves command-line tests to the native suite.
add_test(NAME errors_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_errors.sh $<TARGET_FILE:hwcrypt>)
set_tests_properties(errors_cli PROPERTIES LABELS cli TIMEOUT 120)
# ABI harness (tests/test_abi.c): x86-64, rv64 and aarch64 trampolines; other
# architectures report a skip.
if(TARGET test_abi)
  add_test(NAME test_abi COMMAND test_abi)
  set_tests_properties(test_abi PROPERTIES SKIP_RETURN_CODE 77)
  set(HWC_TEST_test_abi_REGISTERED ON)
endif()
# Cross builds run under QEMU: the guard-page test takes every 5th length
# (and all of 0..33) there unless HWC_GUARD_LEN_STEP says otherwise.
if(TARGET test_guard_pages AND CMAKE_CROSSCOMPILING)
  target_compile_definitions(test_guard_pages PRIVATE HWC_GUARD_DEFAULT_STEP=5)
endif()
# Kernel contracts below the API (tests/test_kernels.c): skips when
# HWC_TEST_IMPL names no block back end (a GHASH-only run).
if(TARGET test_kernels)
  add_test(NAME test_kernels COMMAND test_kernels)
  set_tests_properties(test_kernels PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  # Again with AVX-512 masked: on an AVX-512 machine the AVX2 path (vaes,
  # sm4-gfni, sm4-aesni's AVX2 cores, chosen at key setup) is what most
  # machines run; well under a second.
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    add_test(NAME test_kernels_no_avx512 COMMAND test_kernels)
    set_tests_properties(test_kernels_no_avx512 PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
      ENVIRONMENT "HWCRYPT_CAPS=-avx512")
  endif()
  set(HWC_TEST_test_kernels_REGISTERED ON)
endif()
if(TARGET test_threads)
  add_test(NAME test_threads COMMAND test_threads)
  set_tests_properties(test_threads PROPERTIES SKIP_RETURN_CODE 77)
  set(HWC_TEST_test_threads_REGISTERED ON)
endif()
