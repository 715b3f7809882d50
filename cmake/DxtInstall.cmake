# SPDX-License-Identifier: Apache-2.0
# Installation: header, both libraries, the CLI, a CMake package and pkg-config.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/dxtext DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS dxtext dxtext_static EXPORT dxtextTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT dxtextTargets NAMESPACE dxtext:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dxtext)

# A static link from C also needs the C++ runtime (libdxtext is C++ inside):
# the libraries the C++ compiler links implicitly, minus libc and libgcc.
# dxtextConfig.cmake adds them to dxtext::dxtext_static for projects that do
# not enable CXX; dxtext.pc lists them in Libs.private.
set(DXT_CXX_RUNTIME_LIBS "")
foreach(lib IN LISTS CMAKE_CXX_IMPLICIT_LINK_LIBRARIES)
  if(NOT lib MATCHES "^(c|gcc|gcc_s|gcc_eh)$")
    list(APPEND DXT_CXX_RUNTIME_LIBS ${lib})
  endif()
endforeach()
list(REMOVE_DUPLICATES DXT_CXX_RUNTIME_LIBS)

configure_package_config_file(cmake/dxtextConfig.cmake.in
  ${CMAKE_BINARY_DIR}/dxtextConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dxtext)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dxtextConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dxtextConfig.cmake ${CMAKE_BINARY_DIR}/dxtextConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dxtext)

# dxtext.pc finds the prefix from its own location (${pcfiledir}), so it stays
# right when the tree is installed with `cmake --install --prefix` or moved.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(DXT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(DXT_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(DXT_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH DXT_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" DXT_PC_UP "${DXT_PC_UP}")
  set(DXT_PC_PREFIX "\${pcfiledir}/${DXT_PC_UP}")
  set(DXT_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(DXT_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
list(TRANSFORM DXT_CXX_RUNTIME_LIBS PREPEND " -l" OUTPUT_VARIABLE DXT_PC_CXX_LIBS)
string(REPLACE ";" "" DXT_PC_CXX_LIBS "${DXT_PC_CXX_LIBS}")
set(DXT_PC_CRYPTO_LIBS "")  # what the DXT_CRYPTO backend needs for a static link
if(DXT_CRYPTO STREQUAL "openssl")
  set(DXT_PC_CRYPTO_LIBS "-lcrypto ")
endif()
if(APPLE)
  string(APPEND DXT_PC_CRYPTO_LIBS "-framework Security ")
endif()
configure_file(cmake/dxtext.pc.in ${CMAKE_BINARY_DIR}/dxtext.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/dxtext.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The default models, found at run time by dxt_default_model_path().
file(GLOB DXT_DEFAULT_MODELS ${PROJECT_SOURCE_DIR}/models/dxtext-*.dxe)
install(FILES ${DXT_DEFAULT_MODELS} ${PROJECT_SOURCE_DIR}/models/README.md
  DESTINATION ${CMAKE_INSTALL_DATADIR}/dxtext/models OPTIONAL)
