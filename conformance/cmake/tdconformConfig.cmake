# tdconform's CMake package (installed to <prefix>/share/tdconform/cmake). A backend's own
# project uses it as conformance/README.md shows:
#   find_package(tdconform REQUIRED)
#   target_link_libraries(mybackend PRIVATE tdconform::abi)    # the C ABI's header
#   tdconform_add_backend_tests(mybackend $<TARGET_FILE:mybackend> [tdconform options...])
# The second registers one ctest, `tdconform:<name>`, labels `tdconform` and
# `backend:<name>`: the whole suite on that library, a JUnit report beside the build.
get_filename_component(_tdconform_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET tdconform::abi)
  add_library(tdconform::abi INTERFACE IMPORTED)
  set_target_properties(tdconform::abi PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_tdconform_prefix}/include/tdconform")
  add_executable(tdconform::tdconform IMPORTED)
  set_target_properties(tdconform::tdconform PROPERTIES IMPORTED_LOCATION "${_tdconform_prefix}/bin/tdconform")
endif()
# The plain-C template backend to start from.
set(tdconform_TEMPLATE "${_tdconform_prefix}/share/tdconform/template.c")

function(tdconform_add_backend_tests name library)
  add_test(NAME tdconform:${name}
           COMMAND tdconform::tdconform --backend "${library}" --jobs 2
                   --junit "${CMAKE_CURRENT_BINARY_DIR}/tdconform-${name}.xml"
                   --out "${CMAKE_CURRENT_BINARY_DIR}/tdconform-${name}" ${ARGN})
  set_tests_properties(tdconform:${name} PROPERTIES LABELS "tdconform;backend:${name}")
endfunction()
