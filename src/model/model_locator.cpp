#include "model/model_locator.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

#include "errors/error.hpp"

namespace dxt {

namespace {

bool is_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string newest_match(const std::string& dir, const std::string& prefix) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return {};
  std::string best;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() > prefix.size() + 4 && name.compare(0, prefix.size(), prefix) == 0 &&
        name.compare(name.size() - 4, 4, ".dxe") == 0 && is_file(dir + "/" + name))
      best = std::max(best, name);
  }
  closedir(d);
  return best.empty() ? best : dir + "/" + best;
}

}  // namespace

std::vector<std::string> default_model_directories() {
  std::vector<std::string> dirs;
#ifdef DXT_INSTALLED_MODELS_DIR
  dirs.emplace_back(DXT_INSTALLED_MODELS_DIR);
#endif
#ifdef DXT_SOURCE_MODELS_DIR
  dirs.emplace_back(DXT_SOURCE_MODELS_DIR);
#endif
  return dirs;
}

std::string find_default_model(dxt_geometry geometry) {
  if (const char* env = std::getenv("DXTEXT_MODEL"); env != nullptr && *env != '\0') {
    if (!is_file(env)) fail(DXT_E_NOT_FOUND, std::string("DXTEXT_MODEL names '") + env + "', which is not a file");
    return env;
  }
  const std::string prefix = geometry == DXT_GEOMETRY_POINCARE ? "dxtext-wordnet-poincare-" : "dxtext-en-euclid-";
  std::string searched;
  for (const std::string& dir : default_model_directories()) {
    const std::string hit = newest_match(dir, prefix);
    if (!hit.empty()) return hit;
    searched += (searched.empty() ? "" : ", ") + dir;
  }
  fail(DXT_E_NOT_FOUND, "no default " + std::string(geometry == DXT_GEOMETRY_POINCARE ? "Poincare" : "Euclidean") +
                            " model (" + prefix + "*.dxe): DXTEXT_MODEL is not set and none was found in " +
                            (searched.empty() ? std::string("no directories") : searched));
}

}  // namespace dxt
