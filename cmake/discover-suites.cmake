# Writes one CTest test per suite that the test runner lists (run after each
# build of the runner; the output file is included by CTest). FULLNESS is
# ns-3's --fullness of the runs: QUICK runs a suite's QUICK cases,
# EXTENSIVE those and its long ones (RUDP_TEST_FULLNESS).
execute_process(
  COMMAND ${RUNNER} --list
  OUTPUT_VARIABLE _listing
  RESULT_VARIABLE _status
)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "${RUNNER} --list failed (${_status})")
endif()
string(REPLACE "\n" ";" _lines "${_listing}")
set(_tests "")
foreach(_line ${_lines})
  string(STRIP "${_line}" _suite)
  if(_suite STREQUAL "")
    continue()
  endif()
  string(APPEND _tests
    "add_test([=[suite/${_suite}]=] [==[${RUNNER}]==] [=[--suite=${_suite}]=] [=[--fullness=${FULLNESS}]=])\n"
    "set_tests_properties([=[suite/${_suite}]=] PROPERTIES LABELS suite WORKING_DIRECTORY [==[${WORKDIR}]==])\n")
endforeach()
file(WRITE ${OUTPUT} "${_tests}")
