# Small helpers so every folder declares its targets the same way (cf. abseil's absl_cc_library).

set(MR_WARNINGS -Wall -Wextra -Wno-unused-parameter)
if(MR_WERROR)
  list(APPEND MR_WARNINGS -Werror)
endif()
set(MR_SAN_FLAGS "")
if(MR_SANITIZE)
  set(MR_SAN_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer)
endif()

# mr_library(NAME name SRCS ... DEPS ...) -> target mr_<name>, alias mr::<name>
function(mr_library)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS" ${ARGN})
  add_library(mr_${A_NAME} STATIC ${A_SRCS})
  add_library(mr::${A_NAME} ALIAS mr_${A_NAME})
  target_include_directories(mr_${A_NAME} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  target_compile_options(mr_${A_NAME} PRIVATE ${MR_WARNINGS} ${MR_SAN_FLAGS})
  target_link_options(mr_${A_NAME} PUBLIC ${MR_SAN_FLAGS})
  target_link_libraries(mr_${A_NAME} PUBLIC ${A_DEPS})
endfunction()

# mr_test(NAME name SRCS ... DEPS ... [LABELS ...] [TIMEOUT s]) -> gtest binary registered with ctest.
# Its main (tests/common/test_main.cc, target mr_test_main) exits 77 when a test was skipped
# and none failed: ctest then reports it as skipped, with the reasons in its output. It runs
# in a scratch directory of its own, build/test-scratch/NAME, which is also its TMPDIR (so
# every TempDir lands there): a test that leaves anything in it fails.
function(mr_test)
  cmake_parse_arguments(A "" "NAME;TIMEOUT" "SRCS;DEPS;LABELS" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  target_compile_options(${A_NAME} PRIVATE ${MR_WARNINGS} ${MR_SAN_FLAGS})
  target_link_options(${A_NAME} PRIVATE ${MR_SAN_FLAGS})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS} mr_test_main GTest::gtest)
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  set(scratch ${PROJECT_BINARY_DIR}/test-scratch/${A_NAME})
  file(MAKE_DIRECTORY ${scratch})
  add_test(NAME ${A_NAME} COMMAND ${A_NAME} WORKING_DIRECTORY ${scratch})
  set_tests_properties(${A_NAME} PROPERTIES TIMEOUT ${A_TIMEOUT} LABELS "${A_LABELS}" SKIP_RETURN_CODE 77
    ENVIRONMENT "MR_BIN=$<TARGET_FILE:mr>;MR_SOURCE_DIR=${PROJECT_SOURCE_DIR};TMPDIR=${scratch};MR_TEST_SCRATCH=${scratch}")
endfunction()
