# SPDX-License-Identifier: Apache-2.0
# cmake -DCMD=<program> -DARGS=<list> -DEXPECT=<regex> -P expect_failure.cmake
# Passes when CMD fails (a non-zero exit) and its output matches EXPECT: a refusal that
# says why, not a crash or a refusal for some other reason.
execute_process(COMMAND ${CMD} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "expected ${CMD} to fail, but it succeeded:\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${CMD} failed (${rc}) without saying \"${EXPECT}\":\n${out}${err}")
endif()
message(STATUS "refused as expected: ${EXPECT}")
