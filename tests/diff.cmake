# test_diff_openssl compares against OpenSSL's EVP; built without OpenSSL it
# prints SKIP and exits 77, which ctest then reports as skipped (not passed).
if(TARGET test_diff_openssl)
  add_test(NAME test_diff_openssl COMMAND test_diff_openssl)
  set_tests_properties(test_diff_openssl PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
  set(HWC_TEST_test_diff_openssl_REGISTERED ON)
endif()
