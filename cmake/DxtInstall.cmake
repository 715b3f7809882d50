# Installation: header, both libraries, the CLI, a CMake package and pkg-config.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/dxtext DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS dxtext dxtext_static EXPORT dxtextTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT dxtextTargets NAMESPACE dxtext:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dxtext)

configure_package_config_file(cmake/dxtextConfig.cmake.in
  ${CMAKE_BINARY_DIR}/dxtextConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dxtext)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dxtextConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dxtextConfig.cmake ${CMAKE_BINARY_DIR}/dxtextConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dxtext)

configure_file(cmake/dxtext.pc.in ${CMAKE_BINARY_DIR}/dxtext.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/dxtext.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The default models, found at run time by dxt_default_model_path().
file(GLOB DXT_DEFAULT_MODELS ${PROJECT_SOURCE_DIR}/models/dxtext-*.dxe)
install(FILES ${DXT_DEFAULT_MODELS} ${PROJECT_SOURCE_DIR}/models/README.md
  DESTINATION ${CMAKE_INSTALL_DATADIR}/dxtext/models OPTIONAL)
