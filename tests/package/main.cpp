// SPDX-License-Identifier: Apache-2.0
// Consumer of an installed dxtext through the C++ interface.
#include <dxtext/dxtext.hpp>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " MODEL.dxe\n";
    return 2;
  }
  try {
    const dxt::Model model = dxt::Model::open(argv[1]);
    dxt::Context context(model);
    dxt::ReleaseRecord record;
    std::cout << context.privatize_text("Alpha, beta and gamma.", dxt::Options(2.0), &record) << "\n"
              << record.to_json() << "\n";
    try {
      context.privatize_text("alpha", dxt::Options(-1.0));
      return 1;
    } catch (const dxt::error& e) {
      if (e.status() != DXT_E_INVALID_EPSILON) return 1;
    }
    return 0;
  } catch (const dxt::error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
