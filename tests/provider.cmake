# The OpenSSL provider (provider/, issue 8): real OpenSSL tools and libssl
# driving hwcrypt.so from the build directory.
if(TARGET hwcrypt_provider AND NOT CMAKE_CROSSCOMPILING)
  find_package(OpenSSL 3.0 COMPONENTS Crypto SSL QUIET)
  set(HWC_PROV_DIR ${PROJECT_BINARY_DIR})

  add_executable(prov_evp ${CMAKE_CURRENT_SOURCE_DIR}/provider/prov_evp.c)
  target_link_libraries(prov_evp PRIVATE hwcrypt_static OpenSSL::Crypto)
  target_compile_options(prov_evp PRIVATE ${HWC_WARNINGS})
  add_dependencies(prov_evp hwcrypt_provider)
  add_test(NAME provider_evp COMMAND prov_evp ${HWC_PROV_DIR} 20)

  add_executable(prov_tls ${CMAKE_CURRENT_SOURCE_DIR}/provider/prov_tls.c)
  target_link_libraries(prov_tls PRIVATE OpenSSL::SSL OpenSSL::Crypto Threads::Threads)
  target_compile_options(prov_tls PRIVATE ${HWC_WARNINGS})
  add_dependencies(prov_tls hwcrypt_provider)
  add_test(NAME provider_tls COMMAND prov_tls ${HWC_PROV_DIR} 64)

  # Regression tests of issues 15 and 14: one ctest per item, each comparing
  # hwcrypt with the default provider (tests/provider/prov_compat.c).
  add_executable(prov_compat ${CMAKE_CURRENT_SOURCE_DIR}/provider/prov_compat.c)
  target_link_libraries(prov_compat PRIVATE OpenSSL::Crypto)
  target_compile_options(prov_compat PRIVATE ${HWC_WARNINGS})
  add_dependencies(prov_compat hwcrypt_provider)
  foreach(t updated_iv inplace_pieces ccm_tag_late errors fallback copy gcm_tag_len ccm_no_length after_final
            keylen_param length_wrap param_lists)
    add_test(NAME provider_compat_${t} COMMAND prov_compat ${HWC_PROV_DIR} ${t})
    set_tests_properties(provider_compat_${t} PROPERTIES TIMEOUT 60 LABELS provider)
  endforeach()

  add_test(NAME provider_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/provider/test_prov_cli.sh
    ${HWC_PROV_DIR} $<TARGET_FILE:hwcrypt>)

  # About 20 s of CPU in all on this 2-core machine (provider_cli: ~500
  # short openssl runs); the timeouts leave room for a busy machine.
  set_tests_properties(provider_evp provider_tls PROPERTIES TIMEOUT 120 LABELS provider)
  set_tests_properties(provider_cli PROPERTIES TIMEOUT 300 LABELS provider SKIP_RETURN_CODE 77)
  if(CMAKE_C_FLAGS MATCHES "-fsanitize")
    # The system's openssl command cannot load a sanitizer-instrumented module.
    set_tests_properties(provider_cli PROPERTIES ENVIRONMENT HWC_PROV_SANITIZED=1)
  endif()
endif()
