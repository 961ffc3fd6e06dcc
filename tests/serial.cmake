# test_serial_modes runs twice: with the capabilities as probed, and with
# AVX-512 masked (HWCRYPT_CAPS=-avx512), so that on an AVX-512 machine the
# AVX2 variant of sm4-aesni's low-latency kernel (chosen at key setup from
# the capabilities) is checked as well.
if(TARGET test_serial_modes)
  add_test(NAME test_serial_modes COMMAND test_serial_modes)
  add_test(NAME test_serial_modes_no_avx512 COMMAND test_serial_modes)
  set_tests_properties(test_serial_modes_no_avx512 PROPERTIES ENVIRONMENT "HWCRYPT_CAPS=-avx512")
  set(HWC_TEST_test_serial_modes_REGISTERED ON)
endif()
