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
#
# ALSO NAME2=PATTERN registers a second ctest test, NAME2, that runs only the gtest cases
# matching PATTERN, which the first then leaves out. For cases that skip on some machines
# (e.g. unreadable files, when root reads every file): ctest counts skips per test, so without
# this one skipped case would show its whole binary as skipped.
function(mr_test)
  cmake_parse_arguments(A "" "NAME;TIMEOUT;ALSO" "SRCS;DEPS;LABELS" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  target_compile_options(${A_NAME} PRIVATE ${MR_WARNINGS} ${MR_SAN_FLAGS})
  target_link_options(${A_NAME} PRIVATE ${MR_SAN_FLAGS})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS} mr_test_main GTest::gtest)
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  set(filter "")
  if(A_ALSO)
    string(REPLACE "=" ";" also "${A_ALSO}")
    list(GET also 0 also_name)
    list(GET also 1 also_pattern)
    set(filter "--gtest_filter=-${also_pattern}")
    mr_register_test(${also_name} ${A_NAME} "--gtest_filter=${also_pattern}" ${A_TIMEOUT} "${A_LABELS}")
  endif()
  mr_register_test(${A_NAME} ${A_NAME} "${filter}" ${A_TIMEOUT} "${A_LABELS}")
endfunction()

# One ctest test of gtest binary BINARY, with its own scratch directory (see mr_test).
function(mr_register_test name binary filter timeout labels)
  set(scratch ${PROJECT_BINARY_DIR}/test-scratch/${name})
  file(MAKE_DIRECTORY ${scratch})
  add_test(NAME ${name} COMMAND ${binary} ${filter} WORKING_DIRECTORY ${scratch})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout} LABELS "${labels}" SKIP_RETURN_CODE 77
    ENVIRONMENT "MR_BIN=$<TARGET_FILE:mr>;MR_SOURCE_DIR=${PROJECT_SOURCE_DIR};TMPDIR=${scratch};MR_TEST_SCRATCH=${scratch}")
endfunction()
