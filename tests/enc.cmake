# hwcrypt enc against openssl enc / openssl mac (skips, exit 77, without the openssl command).
add_test(NAME enc_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_enc_cli.sh $<TARGET_FILE:hwcrypt>)
set_tests_properties(enc_cli PROPERTIES SKIP_RETURN_CODE 77 LABELS cli TIMEOUT 300)
# What -out receives on success, failure and signals, for every kind of
# target, and the memory a withheld AEAD decryption takes
# (tests/test_enc_out.py).  The shim makes O_TMPFILE fail, for the fallback
# paths; native Linux builds only.
if(NOT CMAKE_CROSSCOMPILING AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  add_library(no_tmpfile MODULE ${CMAKE_CURRENT_SOURCE_DIR}/cli/no_tmpfile.c)
  target_link_libraries(no_tmpfile PRIVATE ${CMAKE_DL_LIBS})
  # Peak RSS of a program, measured from a small parent.
  add_executable(maxrss ${CMAKE_CURRENT_SOURCE_DIR}/cli/maxrss.c)
  add_test(NAME enc_out_cli COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_enc_out.py $<TARGET_FILE:hwcrypt>
    $<TARGET_FILE:no_tmpfile> $<TARGET_FILE:maxrss>)
  set_tests_properties(enc_out_cli PROPERTIES LABELS cli TIMEOUT 300)
  # Under a sanitizer the peak RSS is mostly its shadow memory: that part skips.
  if(CMAKE_C_FLAGS MATCHES "-fsanitize")
    set_tests_properties(enc_out_cli PROPERTIES ENVIRONMENT HWC_SANITIZED=1)
  endif()
endif()
