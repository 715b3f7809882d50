// SPDX-License-Identifier: Apache-2.0
#include "model/model_locator.hpp"

#include <dirent.h>
#include <sys/stat.h>
#if !defined(_WIN32) && !defined(__EMSCRIPTEN__)
#include <dlfcn.h>
#define DXT_HAVE_DLADDR 1
#endif
#if defined(__linux__) && defined(__GLIBC__)
#include <link.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdlib>

#include "errors/error.hpp"

namespace dxt {

namespace {

// A function of this file, whose address dladdr maps to the file loaded.
void loaded_from_directory_marker() {}

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

// The file this code was loaded from: libdxtext.so, or the executable or
// addon libdxtext.a is linked into. Empty when unknown. (For the main
// program glibc's dladdr gives argv[0], which may be relative to another
// directory or a bare name found on PATH: its link map has an empty name,
// and /proc/self/exe names it instead.) `in_program` is set when that file
// is the main program: libdxtext.a linked into it.
std::string loaded_from_file(bool* in_program = nullptr) {
#if defined(__linux__) && defined(__GLIBC__)
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&loaded_from_directory_marker), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0)
    return {};
  if (map != nullptr && map->l_name != nullptr && map->l_name[0] != '\0') return map->l_name;
  if (in_program != nullptr) *in_program = true;
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  return n > 0 ? std::string(exe, static_cast<size_t>(n)) : std::string();
#elif defined(DXT_HAVE_DLADDR)
  (void)in_program;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&loaded_from_directory_marker), &info) == 0 || info.dli_fname == nullptr)
    return {};
  return info.dli_fname;
#else
  (void)in_program;
  return {};
#endif
}

// The directory of loaded_from_file(), as an absolute path; empty when unknown.
std::string loaded_from_directory(bool* in_program) {
  const std::string file = loaded_from_file(in_program);
  if (file.empty()) return {};
  char* resolved = realpath(file.c_str(), nullptr);
  if (resolved == nullptr) return {};
  const std::string path = resolved;
  std::free(resolved);
  const size_t slash = path.rfind('/');
  if (path.empty() || path[0] != '/' || slash == std::string::npos) return {};
  return path.substr(0, slash == 0 ? 1 : slash);
}

// The system's data directories, as the XDG Base Directory specification
// defines them: $XDG_DATA_DIRS, else /usr/local/share:/usr/share. Only
// absolute entries count.
std::vector<std::string> system_data_directories() {
  const char* env = std::getenv("XDG_DATA_DIRS");
  const std::string list = env != nullptr && *env != '\0' ? env : "/usr/local/share:/usr/share";
  std::vector<std::string> dirs;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    std::string dir = list.substr(start, end - start);
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (!dir.empty() && dir[0] == '/') dirs.push_back(dir);
    start = end + 1;
  }
  return dirs;
}

}  // namespace

std::vector<std::string> default_model_directories() {
  std::vector<std::string> dirs;
  bool in_program = false;
  if (const std::string here = loaded_from_directory(&in_program); !here.empty()) {
    dirs.push_back(here + "/models");
    dirs.push_back(here + "/../share/dxtext/models");
#ifdef DXT_LIBDIR_TO_MODELS
    // The installed models directory as seen from the installed library
    // directory (e.g. "../../share/dxtext/models" from lib/x86_64-linux-gnu):
    // a relative path, so a moved tree still finds its own models.
    if (std::string(DXT_LIBDIR_TO_MODELS) != "../share/dxtext/models")
      dirs.push_back(here + "/" + DXT_LIBDIR_TO_MODELS);
#endif
  }
  // libdxtext.a linked into a program: the program lies anywhere, not in
  // the tree the library was installed into, so the models installed with
  // it (the Debian package's /usr/share/dxtext/models, or those of
  // `cmake --install --prefix /usr/local`) are looked for where the system
  // keeps installed data. A shared libdxtext finds its own tree's above.
  if (in_program)
    for (const std::string& data : system_data_directories()) dirs.push_back(data + "/dxtext/models");
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
