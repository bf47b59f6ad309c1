# Installing mrlab (docs/packaging.md): `cmake --install` puts `mr`, the job and policy
# headers, YARN's schemas, the example plug-in's sources and a CMake package config
# (find_package(mrlab) -> mrlab::policy, to build a plug-in policy against); `cpack -G DEB`
# makes a Debian package of the same tree.
# Installing does not first build every target (the tests, the benches): build `mr` (and
# what you need), then install or package what is built.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MR_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/mrlab)
set(MR_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/mrlab)

install(TARGETS mr RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The headers: a policy's (scheduler/ and what it includes of common/) and a job's (jobs/,
# with the wire messages it names).
foreach(dir common scheduler jobs)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${MR_INSTALL_INCLUDEDIR}/${dir}
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/proto/mr.pb.h DESTINATION ${MR_INSTALL_INCLUDEDIR} OPTIONAL)

target_include_directories(mrlab_policy INTERFACE $<INSTALL_INTERFACE:${MR_INSTALL_INCLUDEDIR}>)
set_target_properties(mrlab_policy PROPERTIES EXPORT_NAME policy)
install(TARGETS mrlab_policy EXPORT mrlabTargets)
install(EXPORT mrlabTargets NAMESPACE mrlab:: DESTINATION ${MR_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mrlabConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mrlabConfig.cmake INSTALL_DESTINATION ${MR_INSTALL_CMAKEDIR}
  PATH_VARS MR_INSTALL_INCLUDEDIR)
# A plug-in must be built against the headers of the mr that loads it (the loader checks).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mrlabConfigVersion.cmake COMPATIBILITY ExactVersion)
install(FILES ${PROJECT_BINARY_DIR}/mrlabConfig.cmake ${PROJECT_BINARY_DIR}/mrlabConfigVersion.cmake
        DESTINATION ${MR_INSTALL_CMAKEDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/yarn/schema/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mrlab/yarn)
install(FILES ${PROJECT_SOURCE_DIR}/examples/plugin/CMakeLists.txt ${PROJECT_SOURCE_DIR}/examples/plugin/fewest_maps.cc
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mrlab/examples/plugin)
# The labs (docs/labs/) without their reference solutions.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/labs/policy/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mrlab/labs/policy
        USE_SOURCE_PERMISSIONS PATTERN solution EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/labs/streaming/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mrlab/labs/streaming
        USE_SOURCE_PERMISSIONS PATTERN solution EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/docs/labs/policy-lab.md ${PROJECT_SOURCE_DIR}/docs/labs/streaming-lab.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package.
set(CPACK_PACKAGE_NAME mrlab)
set(CPACK_PACKAGE_VENDOR "mrlab")
set(CPACK_PACKAGE_CONTACT "mrlab maintainers <mrlab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "MapReduce runtime with research scheduling policies (mr)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The shared libraries mr links (RocksDB, protobuf, ...) become Depends by dpkg-shlibdeps; a
# plug-in build needs the compiler, CMake and Boost's headers.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, cmake, libboost-dev, libxml2-utils")
set(CPACK_STRIP_FILES ON)
include(CPack)
