# Known-answer vector tests (tests/test_vec_*.c), split into several ctest
# entries by group (argv[1]) so that `ctest -j2` keeps both cores busy.
# Every entry's name starts with "vec_": `ctest -R vec` runs them all.
set(HWC_VEC_GROUPS_test_vec_blockmodes kat mct)
set(HWC_VEC_GROUPS_test_vec_aead gcm-enc gcm-dec other)
set(HWC_VEC_GROUPS_test_vec_misc xts cmac gmac kw kwp)
set(HWC_VEC_GROUPS_test_vec_sm4 kat million-enc million-dec)
foreach(prog test_vec_blockmodes test_vec_aead test_vec_misc test_vec_sm4)
  if(TARGET ${prog})
    string(REPLACE "test_vec_" "" short ${prog})
    foreach(group ${HWC_VEC_GROUPS_${prog}})
      add_test(NAME vec_${short}_${group} COMMAND ${prog} ${group})
      set_tests_properties(vec_${short}_${group} PROPERTIES LABELS vec TIMEOUT 600)
    endforeach()
    set(HWC_TEST_${prog}_REGISTERED ON)
  endif()
endforeach()
