# SPDX-License-Identifier: Apache-2.0
# Installable packages of the command line, the library and the default
# models, made with CPack from an ordinary build tree:
#
#   cpack --config build/CPackConfig.cmake -B build/packages
#
# gives dxtext_<version>_<arch>.deb (installs under /usr: `sudo apt install
# ./dxtext_*.deb`) and dxtext-<version>-Linux.tar.gz, a relocatable tree
# (bin/ lib/ include/ share/) that may be unpacked anywhere: the program and
# the library find the models of their own tree (src/model/model_locator.hpp),
# and dxtext.pc and the CMake package find their prefix from where they lie.
# tools/ci/66-package-deb.sh installs the .deb in a clean Debian root and the
# tarball in an empty directory.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The docs `dxtext help` and the README point at (docs/guarantees.md, ...),
# in share/doc/dxtext/docs; the evaluation's data files stay in the source tree.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
install(FILES ${PROJECT_SOURCE_DIR}/models/NOTICE-dxtext-en-euclid.md
  DESTINATION ${CMAKE_INSTALL_DATADIR}/dxtext/models OPTIONAL)

set(CPACK_PACKAGE_NAME dxtext)
set(CPACK_PACKAGE_VENDOR "dxtext")
set(CPACK_PACKAGE_CONTACT "dxtext maintainers <dxtext@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Privatise text on the device under metric differential privacy (command line, C library, default models)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)

# Debian: installed under /usr; the library's only run-time needs are
# OpenSSL's libcrypto and the C and C++ runtimes (the command line links the
# library statically and needs the same).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_LICENSE "Apache-2.0")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libssl3, libstdc++6 (>= 12), libgcc-s1")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "dxtext replaces each word of a text by a random nearby word under metric\n differential privacy, before the text leaves the device. This package has\n the dxtext command line, the C library (libdxtext.so.0 and libdxtext.a), its\n header, pkg-config and CMake files, and the default English and WordNet\n models.")
set(CPACK_DEB_COMPONENT_INSTALL OFF)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)  # the .deb
# The tarball: a tree with no prefix of its own, unpacked wherever the user likes.
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/DxtCPackOptions.cmake)
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)

include(CPack)
