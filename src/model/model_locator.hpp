// SPDX-License-Identifier: Apache-2.0
// Finds the default model for a geometry when the caller names none.
//
// Search order (docs in README.md, "Models"):
//   1. the environment variable DXTEXT_MODEL (a file path), if set;
//   2. beside the library itself: <dir>/models, <dir>/../share/dxtext/models
//      and, when the library directory is deeper (lib/x86_64-linux-gnu),
//      <dir>/<the way up to the prefix>/share/dxtext/models, where <dir>
//      holds the file the library's code was loaded from (the shared
//      libdxtext, or the program or addon it is linked into). An install
//      tree (cmake --install, the Debian package, the tarball) and a
//      package (wheel, jar natives, npm addon) find the model they carry,
//      wherever they are moved; a build tree finds the source tree's models
//      through build/share/dxtext/models, a link CMake makes there;
//   3. when libdxtext.a is linked into the program (which then lies
//      anywhere, not in the tree the library was installed into): the
//      system's data directories, $XDG_DATA_DIRS (else /usr/local/share and
//      /usr/share), each + /dxtext/models, where the Debian package and
//      `cmake --install` put the models.
// No absolute path is compiled in: a program copied out of its tree finds
// no model (unless DXTEXT_MODEL names one, or one is installed on the
// system), never a build machine's.
// In a directory the candidates are dxtext-en-euclid-*.dxe (Euclidean) or
// dxtext-wordnet-poincare-*.dxe (Poincare); the last in byte order wins.
#pragma once

#include <string>
#include <vector>

#include "dxtext/dxtext.h"

namespace dxt {

// The directories searched in step 2, in order.
std::vector<std::string> default_model_directories();

// The path found, or throws DXT_E_NOT_FOUND listing the places searched.
std::string find_default_model(dxt_geometry geometry);

}  // namespace dxt
