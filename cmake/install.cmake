# install.cmake - what `cmake --install` puts under the prefix, and the .deb.
#   bin/exgc, bin/exgc-lsp             the compiler and the language server
#   share/exgc/stdlib/                 found by exgc without flags (support/install_paths.h)
#   include/exgc/exg/runtime.h         `exgc --print-include-dir`
# exgc finds the first two from its own place (<prefix>/bin), so the tree can move.
#   lib/cmake/exgc/                    find_package(exgc), exgc_add_library()
#   share/doc/exgc/copyright           the license (LICENSE, MIT)
# EXGC_INSTALL_STDLIB_DIR and EXGC_INSTALL_RUNTIME_INCLUDE_DIR come from the top CMakeLists.txt.
include(CMakePackageConfigHelpers)

set(EXGC_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/exgc)

install(TARGETS exgc exgc-lsp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/stdlib/ DESTINATION ${EXGC_INSTALL_STDLIB_DIR}
        FILES_MATCHING PATTERN "*.exg")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/runtime/include/ DESTINATION ${EXGC_INSTALL_RUNTIME_INCLUDE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/exgcConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/exgcConfig.cmake INSTALL_DESTINATION ${EXGC_INSTALL_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/exgcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/exgcConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/exgcConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/exgcAddLibrary.cmake
        DESTINATION ${EXGC_INSTALL_CMAKE_DIR})

# The license, where Debian packages keep it (the .deb's copyright file).
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/exgc
        RENAME copyright)

# cpack -G DEB (run in the build folder) -> exgc_<version>_amd64.deb.
set(CPACK_PACKAGE_NAME exgc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Compiler for GPU kernels written as sequential procs plus schedules")
set(CPACK_PACKAGE_CONTACT "exgc maintainers")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
# Shared libraries exgc links at run time (LLVM is linked statically).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libz3-4, libantlr4-runtime4.9, libtinfo6")
include(CPack)
