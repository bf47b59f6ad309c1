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

# mr_test(NAME name SRCS ... DEPS ... [LABELS ...] [TIMEOUT s]) -> gtest binary registered with ctest
function(mr_test)
  cmake_parse_arguments(A "" "NAME;TIMEOUT" "SRCS;DEPS;LABELS" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  target_compile_options(${A_NAME} PRIVATE ${MR_WARNINGS} ${MR_SAN_FLAGS})
  target_link_options(${A_NAME} PRIVATE ${MR_SAN_FLAGS})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS} GTest::gtest GTest::gtest_main)
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  add_test(NAME ${A_NAME} COMMAND ${A_NAME})
  set_tests_properties(${A_NAME} PROPERTIES TIMEOUT ${A_TIMEOUT} LABELS "${A_LABELS}"
    ENVIRONMENT "MR_BIN=$<TARGET_FILE:mr>;MR_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()
