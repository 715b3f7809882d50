# SPDX-License-Identifier: Apache-2.0
# Per-generator CPack settings (read by cpack, not cmake): the .deb installs
# under /usr; the tarball is a relocatable tree rooted at its top directory.
if(CPACK_GENERATOR STREQUAL "TGZ")
  set(CPACK_PACKAGING_INSTALL_PREFIX "")
  set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
elseif(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
endif()
