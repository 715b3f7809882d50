// SPDX-License-Identifier: Apache-2.0
// Finds the default model for a geometry when the caller names none.
//
// Search order (docs in README.md, "Models"):
//   1. the environment variable DXTEXT_MODEL (a file path), if set;
//   2. beside the library itself: <dir>/models and <dir>/../share/dxtext/models,
//      where <dir> holds the file the library's code was loaded from (the
//      shared libdxtext, or the program or addon it is linked into), so a
//      moved install tree or a package (wheel, jar natives, npm addon)
//      finds the model it carries;
//   3. the installed models directory (<prefix>/share/dxtext/models) and
//   4. the models/ directory of the source tree the library was built from;
//      neither is compiled in with -DDXT_RELOCATABLE=ON (packages), so a
//      packaged library never looks at a build machine's paths.
// In a directory the candidates are dxtext-en-euclid-*.dxe (Euclidean) or
// dxtext-wordnet-poincare-*.dxe (Poincare); the last in byte order wins.
#pragma once

#include <string>
#include <vector>

#include "dxtext/dxtext.h"

namespace dxt {

// The directories searched in steps 2 to 4, in order.
std::vector<std::string> default_model_directories();

// The path found, or throws DXT_E_NOT_FOUND listing the places searched.
std::string find_default_model(dxt_geometry geometry);

}  // namespace dxt
