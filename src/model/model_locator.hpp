// Finds the default model for a geometry when the caller names none.
//
// Search order (docs in README.md, "Models"):
//   1. the environment variable DXTEXT_MODEL (a file path), if set;
//   2. the installed models directory (<prefix>/share/dxtext/models);
//   3. the models/ directory of the source tree the library was built from.
// In a directory the candidates are dxtext-en-euclid-*.dxe (Euclidean) or
// dxtext-wordnet-poincare-*.dxe (Poincare); the last in byte order wins.
#pragma once

#include <string>
#include <vector>

#include "dxtext/dxtext.h"

namespace dxt {

// The directories searched in steps 2 and 3, in order.
std::vector<std::string> default_model_directories();

// The path found, or throws DXT_E_NOT_FOUND listing the places searched.
std::string find_default_model(dxt_geometry geometry);

}  // namespace dxt
