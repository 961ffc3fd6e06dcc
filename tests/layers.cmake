# The layering rule (docs/ARCHITECTURE.md): no #include of a higher layer's
# header and no use of a higher layer's hwc_* function anywhere in src/,
# plus the check's own self-test (an injected upward include and call must
# fail it). Source-only, so it runs once, in the native build.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME layers COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check-layers.sh --self-test)
  set_tests_properties(layers PROPERTIES LABELS "layers")
endif()
