# Smoke test of the `hwcrypt speed` command line (output formats, options,
# errors); about 10-20 s.  The script gets the tool's path.
add_test(NAME speed_cli
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_speed_cli.sh $<TARGET_FILE:hwcrypt>)
set_tests_properties(speed_cli PROPERTIES TIMEOUT 120 LABELS "cli;speed")
