// SPDX-License-Identifier: Apache-2.0
// Privatise a sentence with the default model and the readable preset, then
// a bag of words from four threads with the features preset, through the
// header-only C++ wrapper (docs/bindings/cpp.md).
//   Build: c++ -std=c++17 privatize.cpp $(pkg-config --cflags --libs dxtext) -o privatize
//   Run:   ./privatize ["some text"]
#include <dxtext/dxtext.hpp>

#include <iostream>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  const char* text = argc > 1 ? argv[1] : "The president spoke to the nation about the war.";
  try {
    // $DXTEXT_MODEL, else the default model installed with the library; memory-mapped, validated.
    const dxt::Model model = dxt::Model::open_default();
    std::cout << model.info().vocabulary_size << " words\n";

    dxt::Context context(model);  // one per thread; OpenSSL CSPRNG
    dxt::ReleaseRecord record;    // the guarantee: safe to send with the text
    std::cout << context.privatize_text(text, dxt::Options(dxt::Preset::readable), &record) << "\n"
              << record.to_json() << "\n";

    // The model is shared; each thread makes its own Context.
    std::vector<std::thread> threads;
    std::vector<dxt::Bag> bags(4);
    for (size_t t = 0; t < bags.size(); ++t)
      threads.emplace_back([&model, &bags, t] {
        dxt::Context mine(model);
        bags[t] = mine.privatize_bag({{"war", 3}, {"peace", 2}}, dxt::Options(dxt::Preset::features));
      });
    for (auto& thread : threads) thread.join();
    for (const auto& [word, count] : bags[0]) std::cout << word << ' ' << count << "\n";

    // A failed call throws dxt::error, with the status and the library's message.
    try {
      context.privatize_text("hello", dxt::Options(0.0));  // no epsilon and no preset
      std::cerr << "a call without epsilon was not refused\n";
      return 1;
    } catch (const dxt::error& e) {
      if (e.status() != DXT_E_INVALID_EPSILON) throw;
      std::cout << "refused as it should be (status " << e.status() << "): " << e.what() << "\n";
    }
  } catch (const dxt::error& e) {
    std::cerr << "dxtext error " << e.status() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
