# Warnings and sanitizers shared by every target (DESIGN.md: Tests and measurements).
add_library(tdc_options INTERFACE)
target_compile_options(tdc_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                       -Wno-unused-parameter)

# Switches over enums have no `default` (DESIGN.md: Style): every enumerator is listed, so
# a new enumerator is a compile error in each switch that has not decided what it means.
# For every C and C++ target of this directory tree, including those that do not link
# tdc_options (the program model in fuzz/, the plain-C template backends); the third-party
# libraries are found prebuilt, so only our own sources see it.
add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-Werror=switch-enum>)

# gold links the ~40 executables and shared libraries of a build in about 60% of GNU ld's
# time (bin/tdconform: 1.9 s against 3.3 s); binutils ships it beside ld.
include(CheckLinkerFlag)
check_linker_flag(CXX -fuse-ld=gold TDC_HAVE_GOLD)
if(TDC_HAVE_GOLD)
  add_link_options($<$<LINK_LANGUAGE:C,CXX>:-fuse-ld=gold>)
endif()

if(TDC_SANITIZE)
  # No recovery: the first finding fails the test.
  set(_tdc_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_compile_options(tdc_options INTERFACE ${_tdc_san})
  target_link_options(tdc_options INTERFACE ${_tdc_san})
endif()

if(TDC_BUILD_FUZZ)
  # Coverage instrumentation for every library, so libFuzzer sees the parser's branches
  # and not only the fuzz target's own file (which links libFuzzer with -fsanitize=fuzzer).
  target_compile_options(tdc_options INTERFACE -fsanitize=fuzzer-no-link)
endif()

# tdc_add_test(NAME name SOURCES a_test.cc ... LIBS lib ...): one GoogleTest executable,
# registered with ctest under the label "unit".
function(tdc_add_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} tdc_options GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${T_NAME} PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
endfunction()

# tdc_add_fuzzer(NAME name SOURCE file.cc LIBS lib ...): a libFuzzer target (TDC_BUILD_FUZZ
# only; ci/fuzz runs it), its libraries instrumented through tdc_options.
function(tdc_add_fuzzer)
  cmake_parse_arguments(F "" "NAME;SOURCE" "LIBS" ${ARGN})
  if(NOT TDC_BUILD_FUZZ)
    return()
  endif()
  add_executable(${F_NAME} ${F_SOURCE})
  target_link_libraries(${F_NAME} PRIVATE ${F_LIBS})
  target_compile_options(${F_NAME} PRIVATE -fsanitize=fuzzer)
  target_link_options(${F_NAME} PRIVATE -fsanitize=fuzzer)
endfunction()
