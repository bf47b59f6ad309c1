# Reference programs for bench/throughput.sh. Each is built only when its dependencies are
# found; a missing optional dependency prints a status line and never fails the build.
#
#   mr_gen_data         deterministic inputs (word corpus, 100-byte records); no deps
#   mr_ref_wordcount    hand-written 2-thread C++ word count, the performance target; no deps
#   mr_mrmpi_wordcount  the same word count on MapReduce-MPI (libmrmpi-dev + MPI C++)

set(_mr_bench_dir ${CMAKE_CURRENT_LIST_DIR})

function(mr_bench_program name)
  add_executable(${name} ${ARGN})
  target_compile_options(${name} PRIVATE ${MR_WARNINGS})
  target_include_directories(${name} PRIVATE ${_mr_bench_dir})
endfunction()

mr_bench_program(mr_gen_data ${_mr_bench_dir}/gen_data.cc)
target_link_libraries(mr_gen_data PRIVATE Threads::Threads)
mr_bench_program(mr_ref_wordcount ${_mr_bench_dir}/ref_wordcount.cc)
target_link_libraries(mr_ref_wordcount PRIVATE Threads::Threads)

# MR-MPI: Debian ships headers in /usr/include/mrmpi and libMapReduceMPI.so, no CMake or
# pkg-config files, so look for both by hand.
find_package(MPI QUIET COMPONENTS CXX)
find_path(MRMPI_INCLUDE_DIR mrmpi/mapreduce.h)
find_library(MRMPI_LIBRARY NAMES MapReduceMPI mrmpi)
if(MPI_CXX_FOUND AND MRMPI_INCLUDE_DIR AND MRMPI_LIBRARY)
  mr_bench_program(mr_mrmpi_wordcount ${_mr_bench_dir}/mrmpi_wordcount.cc)
  target_include_directories(mr_mrmpi_wordcount SYSTEM PRIVATE ${MRMPI_INCLUDE_DIR} ${MRMPI_INCLUDE_DIR}/mrmpi)
  target_link_libraries(mr_mrmpi_wordcount PRIVATE ${MRMPI_LIBRARY} MPI::MPI_CXX)
  message(STATUS "bench: building mr_mrmpi_wordcount (MR-MPI ${MRMPI_LIBRARY})")
else()
  message(STATUS "bench: MR-MPI or MPI not found, skipping mr_mrmpi_wordcount "
                 "(MR_INSTALL_BENCH=1 scripts/install-deps.sh installs them)")
endif()
