# The installed headers, libraries, pkg-config file and CMake package work.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME install COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(install PROPERTIES TIMEOUT 300 LABELS install)
endif()
