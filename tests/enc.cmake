# hwcrypt enc against openssl enc / openssl mac (skips, exit 77, without the openssl command).
add_test(NAME enc_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_enc_cli.sh $<TARGET_FILE:hwcrypt>)
set_tests_properties(enc_cli PROPERTIES SKIP_RETURN_CODE 77 LABELS cli TIMEOUT 300)
