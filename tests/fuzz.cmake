# The fuzz targets without libFuzzer (tests/fuzz/replay_main.c): the seed
# corpus generated from the vectors and the regression inputs
# (tests/fuzz/regress/<target>/) replay as ordinary ctest tests, with
# whatever compiler and sanitizers this build uses.  Fuzzing itself is
# `make check-fuzz` / tests/fuzz/run-long.sh (clang, HWC_BUILD_FUZZ).
# Native builds only: the RISC-V suites run every ctest test once per CPU
# model under QEMU, which these replays would slow down by minutes (and the
# rv32 picolibc build need not have POSIX directory calls).
if(CMAKE_CROSSCOMPILING)
  return()
endif()
set(HWC_FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
# Each replay writes its own seeds first (no ordering between tests needed).
add_library(hwc_fuzz_replay STATIC ${HWC_FUZZ_DIR}/fuzz_common.c ${HWC_FUZZ_DIR}/replay_main.c
  ${HWC_FUZZ_DIR}/fuzz_seed_corpus.c)
target_link_libraries(hwc_fuzz_replay PUBLIC hwc_testutil)
target_compile_definitions(hwc_fuzz_replay PRIVATE FZ_SEED_CORPUS_EMBEDDED=1)
target_compile_options(hwc_fuzz_replay PRIVATE ${HWC_WARNINGS})

set(HWC_FUZZ_REPLAY fuzz_cipher_diff fuzz_aead_tamper fuzz_api_misuse)
if(OpenSSL_FOUND)
  list(APPEND HWC_FUZZ_REPLAY fuzz_openssl_diff)
endif()
foreach(t ${HWC_FUZZ_REPLAY})
  add_executable(${t}_replay ${HWC_FUZZ_DIR}/${t}.c)
  target_link_libraries(${t}_replay PRIVATE hwc_fuzz_replay)
  target_compile_options(${t}_replay PRIVATE ${HWC_WARNINGS})
  if(t STREQUAL "fuzz_api_misuse")
    set(sub programs)
  else()
    set(sub cases)
  endif()
  set(regress)
  if(EXISTS ${HWC_FUZZ_DIR}/regress/${t})
    set(regress ${HWC_FUZZ_DIR}/regress/${t})
  endif()
  add_test(NAME ${t}_replay COMMAND ${t}_replay --seeds ${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds-${t} ${sub} ${regress})
endforeach()
