// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the embedding converters (GloVe text, word2vec text and
// binary, fastText .vec) on arbitrary bytes. A parse may fail with a status;
// whatever it accepts must be a model that opens and verifies.
#include <sstream>
#include <string>

#include "errors/error.hpp"
#include "fuzz_support.hpp"
#include "model/converters.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dxt::fuzz;
  Input in(data, size);
  const uint8_t choice = in.u8();
  static const char* const kFormats[] = {"glove", "word2vec", "word2vec-bin", "fasttext"};
  static const dxt_quantization kQuant[] = {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8};
  dxt::ConvertOptions o;
  o.format = dxt::parse_embedding_format(kFormats[choice % 4]);
  o.quantization = kQuant[(choice >> 2) % 3];
  o.lowercase = (choice & 0x10) != 0;
  o.with_covariance = (choice & 0x20) != 0;
  if (choice & 0x40) o.geometry = DXT_GEOMETRY_POINCARE;
  if (choice & 0x80) o.max_words = 3;
  const std::string_view rest = in.rest();

  std::istringstream input{std::string(rest), std::ios::binary};
  std::stringstream output(std::ios::in | std::ios::out | std::ios::binary);
  try {
    dxt::convert_embeddings(input, output, o);
  } catch (const dxt::Error& e) {
    DXT_FUZZ_CHECK(e.status() == DXT_E_PARSE || e.status() == DXT_E_INPUT_TOO_LARGE ||
                   e.status() == DXT_E_UNSUPPORTED || e.status() == DXT_E_INVALID_ARGUMENT);
    DXT_FUZZ_CHECK(std::string_view(e.what()).size() > 0);
    return 0;
  }
  // Accepted: the result is a well-formed model whose digests all match.
  const std::string model = output.str();
  dxt::test::AlignedBytes bytes(model);
  dxt_model_open_options oo;
  dxt_model_open_options_init(&oo);
  oo.flags = DXT_OPEN_VERIFY_DIGESTS;
  dxt_model* m = nullptr;
  const dxt_status s = dxt_model_open_memory(bytes.data(), bytes.size, &oo, &m);
  if (s != DXT_OK) std::fprintf(stderr, "converted model does not open: %s\n", dxt_last_error_message());
  DXT_FUZZ_CHECK(s == DXT_OK);
  dxt_model_info info;
  dxt_model_info_init(&info);
  DXT_FUZZ_CHECK(dxt_model_get_info(m, &info) == DXT_OK);
  for (uint32_t i = 0; i < info.vocabulary_size; ++i) {
    const char* w = nullptr;
    size_t len = 0;
    DXT_FUZZ_CHECK(dxt_model_word(m, i, &w, &len) == DXT_OK);
    uint32_t back = 0;
    DXT_FUZZ_CHECK(dxt_model_lookup(m, w, len, &back) == DXT_OK && back == i);
  }
  dxt_model_close(m);
  return 0;
}
