# Standalone host for the rudp module.
#
# Inside an ns-3 tree (contrib/rudp) ns-3 itself provides build_lib and
# build_lib_example. Configured as a top-level project, this file provides the
# same two functions on top of the pinned PyPI wheel ns3==3.44.post0, so that
# the module's own CMake files are written once for both hosts.
#
# Inputs (cache variables):
#   NS3_WHEEL_DIR      the wheel's package folder (site-packages/ns3); found
#                      through Python3_EXECUTABLE when not given.
#   RUDP_ENABLE_EXAMPLES / RUDP_ENABLE_TESTS (ON by default).
#   RUDP_PRECOMPILE_HEADERS (ON): the standard and ns-3 headers every unit
#                      includes, parsed once (rudp_precompile_headers).
#   RUDP_CCACHE (ON):  compile through ccache when the machine has it.
#
# Outputs: build/lib/lib<name>.so, build/lib/lib<name>-test.so,
# build/bin/<example>, build/bin/test-runner, build/bin/<scratch program>,
# build/include/ns3/*.h, and one CTest test per test suite and per example
# listed in test/examples-to-run.py.

include_guard(GLOBAL)

option(RUDP_ENABLE_EXAMPLES "Build the module's examples" ON)
option(RUDP_ENABLE_TESTS "Build the module's test suites and the test runner" ON)
option(RUDP_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer (make test-sanitize)" OFF)
option(RUDP_FUZZ "Build the libFuzzer targets of test/fuzz with clang (make fuzz)" OFF)
option(RUDP_PRECOMPILE_HEADERS "Precompile the standard and ns-3 headers the module's units include" ON)
option(RUDP_CCACHE "Compile through ccache when the machine has it (never required)" ON)
option(RUDP_UNITY_BUILD "Compile the module's libraries as unity builds (a few large units)" ON)
set(RUDP_TEST_FULLNESS "EXTENSIVE" CACHE STRING
    "The test cases CTest runs: QUICK, or EXTENSIVE (QUICK and EXTENSIVE ones, ns-3's --fullness)")
set_property(CACHE RUDP_TEST_FULLNESS PROPERTY STRINGS QUICK EXTENSIVE TAKES_FOREVER)
if(NOT RUDP_TEST_FULLNESS MATCHES "^(QUICK|EXTENSIVE|TAKES_FOREVER)$")
  message(FATAL_ERROR "rudp: RUDP_TEST_FULLNESS is '${RUDP_TEST_FULLNESS}'; allowed: QUICK, EXTENSIVE, TAKES_FOREVER")
endif()

# --- ccache ---------------------------------------------------------------------
# A second build directory, a fresh clone (CI) or a rebuilt tree compiles only
# what changed since any earlier build on the machine. ccache caches units
# built with a precompiled header only with this sloppiness (its manual,
# "Precompiled headers"); set for these compilations alone, not in the
# user's ccache configuration.
if(RUDP_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(RUDP_CCACHE_PROGRAM ccache)
  if(RUDP_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        env CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${RUDP_CCACHE_PROGRAM})
    message(STATUS "rudp: compiling through ${RUDP_CCACHE_PROGRAM}")
  endif()
endif()

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

# --- Instrumented builds (each in a build directory of its own) ------------------
# Only what this project compiles is instrumented: the module, its tests,
# examples and fuzz targets. The wheel's libraries stay as they are.
if(RUDP_SANITIZE AND RUDP_FUZZ)
  message(FATAL_ERROR "rudp: RUDP_SANITIZE and RUDP_FUZZ are separate builds; enable one")
endif()
# float-cast-overflow is not part of GCC's "undefined" group: named as well.
set(_rudp_sanitizers address,undefined,float-cast-overflow)
if(RUDP_SANITIZE)
  # UBSan stops at the first error as ASan does, so that a test cannot pass
  # with undefined behaviour reported on its way.
  add_compile_options(-fsanitize=${_rudp_sanitizers} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${_rudp_sanitizers})
endif()
if(RUDP_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "rudp: RUDP_FUZZ needs clang (libFuzzer): configure with CXX=clang++")
  endif()
  # Coverage feedback for every source of the module; libFuzzer's main is
  # linked into the fuzz targets only (test/fuzz/CMakeLists.txt).
  add_compile_options(
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
    -fsanitize-coverage-ignorelist=${CMAKE_CURRENT_SOURCE_DIR}/test/fuzz/coverage-ignorelist.txt)
  add_link_options(-fsanitize=address,undefined)
endif()

set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(RUDP_HEADER_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/include/ns3)
file(MAKE_DIRECTORY ${RUDP_HEADER_OUTPUT_DIRECTORY})

# --- Locate the wheel ---------------------------------------------------------
if(NOT NS3_WHEEL_DIR)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  execute_process(
    COMMAND
      ${Python3_EXECUTABLE} -c
      "import importlib.util; print(list(importlib.util.find_spec('ns3').submodule_search_locations)[0])"
    OUTPUT_VARIABLE _rudp_wheel_dir
    OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _rudp_wheel_status
  )
  if(NOT _rudp_wheel_status EQUAL 0 OR NOT IS_DIRECTORY "${_rudp_wheel_dir}")
    message(
      FATAL_ERROR
        "rudp: the ns-3 wheel was not found by ${Python3_EXECUTABLE}. "
        "Run 'make setup' (it installs ns3==3.44.post0 into .venv) or pass -DNS3_WHEEL_DIR=<site-packages>/ns3."
    )
  endif()
  set(NS3_WHEEL_DIR "${_rudp_wheel_dir}" CACHE PATH "The ns-3 wheel's package folder")
endif()
set(NS3_WHEEL_INCLUDE_DIR ${NS3_WHEEL_DIR}/include)

find_package(ns3 3.44 EXACT REQUIRED CONFIG PATHS ${NS3_WHEEL_DIR}/lib64/cmake/ns3 NO_DEFAULT_PATH)
set(NS3_VER ${ns3_VERSION})

# --- Repair the wheel's exported targets ----------------------------------------
# They carry include and link paths of the machine that built the wheel. Keep
# the wheel's include folder, and in link interfaces only ns3:: targets and
# linker flags: the wheel's libraries find their bundled dependencies by $ORIGIN.
get_property(_rudp_imported DIRECTORY PROPERTY IMPORTED_TARGETS)
set(RUDP_NS3_LIBRARIES)
foreach(_target ${_rudp_imported})
  if(NOT _target MATCHES "^ns3::(.+)$")
    continue()
  endif()
  set(_module ${CMAKE_MATCH_1})
  set_target_properties(${_target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${NS3_WHEEL_INCLUDE_DIR})
  get_target_property(_links ${_target} INTERFACE_LINK_LIBRARIES)
  set(_kept)
  foreach(_link ${_links})
    if(_link MATCHES "^ns3::" OR _link MATCHES "^-")
      list(APPEND _kept ${_link})
    endif()
  endforeach()
  set_target_properties(${_target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_kept}")
  # ns-3's own variables: ${libcore} names the core module's library.
  set(lib${_module} ${_target})
  get_target_property(_type ${_target} TYPE)
  if(_type STREQUAL "SHARED_LIBRARY")
    list(APPEND RUDP_NS3_LIBRARIES ${_target})
  endif()
endforeach()

# --- Precompiled headers ----------------------------------------------------------
# Most of a unit's compile time is spent parsing the same headers: the
# standard library's and ns-3's (two thirds of a small unit, a fifth of the
# largest, by g++ -ftime-report). They are parsed once, into one precompiled
# header that every target of the build reuses (REUSE_FROM), as ns-3's own
# NS3_PRECOMPILE_HEADERS does for the standard headers. GCC takes a
# precompiled header only into units compiled with the same -fPIC/-fPIE:
# programs are compiled with -fPIC as the libraries are (valid in a PIE).
# Module aggregator headers (ns3/core-module.h) stay out: the library is
# compiled with NS3_MODULE_COMPILATION, under which they refuse to be read.
# The module's own headers stay out too: they change, and a change would
# rebuild everything. In-tree, ns-3's build takes its own.
set(RUDP_PRECOMPILED_HEADERS
    <algorithm>
    <cmath>
    <cstdint>
    <deque>
    <fstream>
    <functional>
    <iostream>
    <limits>
    <map>
    <memory>
    <optional>
    <set>
    <sstream>
    <string>
    <vector>
    <ns3/application-container.h>
    <ns3/application.h>
    <ns3/boolean.h>
    <ns3/callback.h>
    <ns3/config.h>
    <ns3/data-rate.h>
    <ns3/double.h>
    <ns3/enum.h>
    <ns3/error-model.h>
    <ns3/event-id.h>
    <ns3/inet-socket-address.h>
    <ns3/internet-stack-helper.h>
    <ns3/ipv4-address-helper.h>
    <ns3/ipv4-global-routing-helper.h>
    <ns3/log.h>
    <ns3/net-device-container.h>
    <ns3/node-container.h>
    <ns3/node.h>
    <ns3/nstime.h>
    <ns3/object-factory.h>
    <ns3/packet.h>
    <ns3/point-to-point-helper.h>
    <ns3/pointer.h>
    <ns3/queue-size.h>
    <ns3/random-variable-stream.h>
    <ns3/simulator.h>
    <ns3/socket.h>
    <ns3/string.h>
    <ns3/tcp-congestion-ops.h>
    <ns3/tcp-socket-base.h>
    <ns3/test.h>
    <ns3/trace-source-accessor.h>
    <ns3/traced-callback.h>
    <ns3/traced-value.h>
    <ns3/traffic-control-helper.h>
    <ns3/udp-socket-factory.h>
    <ns3/uinteger.h>
)

# rudp_precompile_headers(TARGET): TARGET's units start from the build's one
# precompiled header, unless RUDP_PRECOMPILE_HEADERS is OFF. The header is
# made with the ns-3 libraries the module links (build_lib's
# LIBRARIES_TO_LINK), which every target links through it: GCC refuses a
# precompiled header made with a macro a unit does not define, and ns-3's
# libraries define some of their own (fd-net-device's HAVE_PACKET_H).
function(rudp_precompile_headers target)
  if(NOT RUDP_PRECOMPILE_HEADERS)
    return()
  endif()
  if(NOT TARGET rudp-pch)
    file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/rudp-pch.cc
         CONTENT "// The unit that carries the build's precompiled header (cmake/standalone.cmake).\n")
    add_library(rudp-pch OBJECT ${CMAKE_BINARY_DIR}/rudp-pch.cc)
    target_link_libraries(rudp-pch PRIVATE ${RUDP_PCH_LIBRARIES})
    target_precompile_headers(rudp-pch PRIVATE ${RUDP_PRECOMPILED_HEADERS})
    # clang stamps a precompiled header with its time, which ccache would
    # take for a change (ccache's manual; ns-3 does the same).
    target_compile_options(rudp-pch PRIVATE "$<$<CXX_COMPILER_ID:Clang>:SHELL:-Xclang -fno-pch-timestamp>")
  endif()
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "EXECUTABLE")
    target_compile_options(${target} PRIVATE -fPIC)
  endif()
  # A precompiled header GCC cannot take is a warning, not a slow build unseen.
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Winvalid-pch>)
  target_precompile_headers(${target} REUSE_FROM rudp-pch)
endfunction()

# --- Unity builds ------------------------------------------------------------------
# The module's sources instantiate the same ns-3 templates (callbacks, traced
# values, attribute accessors); compiled as a few large units each is
# generated once per unit instead of once per file: a third less compile
# time for the library (g++ 12). Safe for the libraries' sources, which keep
# their helpers in their classes: the one name every file defines, the
# NS_LOG_COMPONENT_DEFINE's static g_log, is renamed in each file to the
# unit's unique id. The test suites are not built so: each keeps file-local
# constants and helpers of the same names (PORT, MSS). In-tree, ns-3's build
# compiles file by file.
function(rudp_unity_build target)
  if(RUDP_UNITY_BUILD)
    set_target_properties(
      ${target}
      PROPERTIES UNITY_BUILD ON
                 UNITY_BUILD_BATCH_SIZE 8
                 UNITY_BUILD_UNIQUE_ID RUDP_UNITY_ID
                 UNITY_BUILD_CODE_BEFORE_INCLUDE "#define g_log RUDP_UNITY_ID"
                 UNITY_BUILD_CODE_AFTER_INCLUDE "#undef g_log")
  endif()
endfunction()

# The test-runner library must stay linked though nothing references it: its
# suites register themselves from static constructors.
set(LIB_AS_NEEDED_PRE -Wl,--no-as-needed)
set(LIB_AS_NEEDED_POST -Wl,--as-needed)

enable_testing()

# Writes ns3/<name>-module.h, which includes every public header of the module.
function(_rudp_write_module_header name headers)
  set(_contents "// Generated by cmake/standalone.cmake: every public header of ${name}.\n")
  string(APPEND _contents "#ifndef NS3_MODULE_${name}\n#define NS3_MODULE_${name}\n")
  foreach(_header ${headers})
    get_filename_component(_base ${_header} NAME)
    string(APPEND _contents "#include \"ns3/${_base}\"\n")
  endforeach()
  string(APPEND _contents "#endif\n")
  file(CONFIGURE OUTPUT ${RUDP_HEADER_OUTPUT_DIRECTORY}/${name}-module.h CONTENT "${_contents}")
endfunction()

# Registers with CTest every example line of test/examples-to-run.py that is
# marked to run: the same list ns-3's test.py runs in-tree.
function(_rudp_add_example_tests examples_file)
  if(NOT EXISTS ${examples_file})
    return()
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${examples_file})
  file(READ ${examples_file} _text)
  # Only cpp_examples: python_examples run through pytest (make test).
  string(FIND "${_text}" "\npython_examples" _python_examples)
  if(_python_examples GREATER -1)
    string(SUBSTRING "${_text}" 0 ${_python_examples} _text)
  endif()
  string(REGEX MATCHALL "\\(\"[^\"]+\", *\"True\"" _entries "${_text}")
  foreach(_entry ${_entries})
    string(REGEX REPLACE "^\\(\"([^\"]+)\".*$" "\\1" _command "${_entry}")
    separate_arguments(_argv UNIX_COMMAND "${_command}")
    list(POP_FRONT _argv _program)
    string(MD5 _hash "${_command}")
    string(SUBSTRING ${_hash} 0 6 _hash)
    add_test(NAME example/${_program}/${_hash} COMMAND ${_program} ${_argv}
             WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/example-runs)
    set_tests_properties(example/${_program}/${_hash} PROPERTIES LABELS example)
  endforeach()
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/example-runs)
endfunction()

# Same signature as ns-3's build_lib (the arguments this module uses).
function(build_lib)
  cmake_parse_arguments(
    "BLIB" "IGNORE_PCH" "LIBNAME"
    "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES;DEPRECATED_HEADER_FILES;PRIVATE_HEADER_FILES"
    ${ARGN}
  )
  set(_lib ${lib${BLIB_LIBNAME}})

  foreach(_header ${BLIB_HEADER_FILES} ${BLIB_PRIVATE_HEADER_FILES})
    get_filename_component(_base ${_header} NAME)
    configure_file(${_header} ${RUDP_HEADER_OUTPUT_DIRECTORY}/${_base} COPYONLY)
  endforeach()
  _rudp_write_module_header(${BLIB_LIBNAME} "${BLIB_HEADER_FILES}")

  add_library(${_lib} SHARED ${BLIB_SOURCE_FILES} ${BLIB_HEADER_FILES})
  set_target_properties(${_lib} PROPERTIES OUTPUT_NAME ${BLIB_LIBNAME})
  target_include_directories(${_lib} PUBLIC ${CMAKE_BINARY_DIR}/include)
  target_compile_definitions(${_lib} PRIVATE NS3_MODULE_COMPILATION)
  target_link_libraries(${_lib} PUBLIC ${BLIB_LIBRARIES_TO_LINK})
  set(RUDP_PCH_LIBRARIES ${BLIB_LIBRARIES_TO_LINK}) # the precompiled header's, made here
  rudp_precompile_headers(${_lib})
  rudp_unity_build(${_lib})

  if(RUDP_ENABLE_EXAMPLES AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    add_subdirectory(examples)
  endif()

  if(RUDP_ENABLE_TESTS AND BLIB_TEST_SOURCES)
    add_library(${_lib}-test SHARED ${BLIB_TEST_SOURCES})
    set_target_properties(${_lib}-test PROPERTIES OUTPUT_NAME ${BLIB_LIBNAME}-test)
    target_compile_definitions(${_lib}-test PRIVATE NS_TEST_SOURCEDIR="test")
    target_link_libraries(${_lib}-test PUBLIC ${_lib} ${BLIB_LIBRARIES_TO_LINK})
    rudp_precompile_headers(${_lib}-test)

    add_executable(test-runner ${PROJECT_SOURCE_DIR}/cmake/test-runner.cc)
    target_link_libraries(test-runner PRIVATE ${LIB_AS_NEEDED_PRE} ${_lib}-test ${LIB_AS_NEEDED_POST} ${libcore})
    rudp_precompile_headers(test-runner)

    # Every suite becomes one CTest test, discovered from the runner itself
    # after each build, as gtest_discover_tests does.
    set(_suites_file ${CMAKE_BINARY_DIR}/test-suites.cmake)
    add_custom_command(
      TARGET test-runner POST_BUILD
      COMMAND ${CMAKE_COMMAND} -DRUNNER=$<TARGET_FILE:test-runner> -DOUTPUT=${_suites_file}
              -DWORKDIR=${CMAKE_BINARY_DIR} -DFULLNESS=${RUDP_TEST_FULLNESS}
              -P ${PROJECT_SOURCE_DIR}/cmake/discover-suites.cmake
      VERBATIM
    )
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY TEST_INCLUDE_FILES ${_suites_file})
  endif()

  if(RUDP_ENABLE_EXAMPLES)
    _rudp_add_example_tests(${CMAKE_CURRENT_SOURCE_DIR}/test/examples-to-run.py)
  endif()

  # Fuzz targets: libFuzzer binaries (RUDP_FUZZ), or replay drivers of their
  # committed corpus, one CTest test each (with the tests).
  if((RUDP_FUZZ OR RUDP_ENABLE_TESTS) AND EXISTS ${PROJECT_SOURCE_DIR}/test/fuzz/CMakeLists.txt)
    add_subdirectory(${PROJECT_SOURCE_DIR}/test/fuzz ${CMAKE_BINARY_DIR}/fuzz)
  endif()

  # As ns-3's scratch folder: every scratch/*.cc is a program of its own.
  file(GLOB _scratch_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scratch/*.cc)
  foreach(_source ${_scratch_sources})
    get_filename_component(_name ${_source} NAME_WE)
    add_executable(${_name} ${_source})
    # As in ns-3, a scratch program may use any module; and the module's
    # scenario plumbing (CMakeLists.txt), as the examples do.
    target_link_libraries(${_name} PRIVATE ${_lib} ${RUDP_NS3_LIBRARIES})
    if(TARGET rudp-scenario)
      target_link_libraries(${_name} PRIVATE rudp-scenario)
    endif()
    rudp_precompile_headers(${_name})
  endforeach()
endfunction()

# Same signature as ns-3's build_lib_example; called from examples/CMakeLists.txt
# within build_lib, so BLIB_LIBNAME names the module.
function(build_lib_example)
  cmake_parse_arguments("BLIB_EXAMPLE" "IGNORE_PCH" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK" ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES} ${BLIB_EXAMPLE_HEADER_FILES})
  target_link_libraries(${BLIB_EXAMPLE_NAME} PRIVATE ${lib${BLIB_LIBNAME}} ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
  rudp_precompile_headers(${BLIB_EXAMPLE_NAME})
endfunction()

# The module's library target: the same variable name ns-3 defines in-tree.
set(lib${PROJECT_NAME} ${PROJECT_NAME})
