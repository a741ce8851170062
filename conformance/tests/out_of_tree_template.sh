#!/usr/bin/env bash
# ctest conformance.out_of_tree_template BUILD_DIR: installs tdconform from BUILD_DIR into a
# temporary prefix, builds the C template as a project of its own against the installed
# package (as conformance/README.md says), and runs the test that package registers.
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > /dev/null
mkdir "$work/project"
cp "$work/prefix/share/tdconform/template.c" "$work/project/mybackend.c"
cat > "$work/project/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(mybackend C)
find_package(tdconform REQUIRED)
add_library(mybackend SHARED mybackend.c)
target_link_libraries(mybackend PRIVATE tdconform::abi m)
enable_testing()
tdconform_add_backend_tests(mybackend $<TARGET_FILE:mybackend>)
EOF
cmake -S "$work/project" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" > /dev/null
cmake --build "$work/build" > /dev/null
cd "$work/build"
ctest --output-on-failure -L backend:mybackend
test -s tdconform-mybackend.xml  # its JUnit report
