// SPDX-License-Identifier: Apache-2.0
// Builds small models in memory for tests, through the real writer.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "model/context_prior.hpp"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "model/ordering_builder.hpp"
#include "model/section_append_writer.hpp"
#include "model/typed_lists.hpp"

namespace dxt::test {

// Bytes with 8-byte alignment, as dxt_model_open_memory requires.
struct AlignedBytes {
  std::vector<uint64_t> storage;
  size_t size = 0;
  AlignedBytes() = default;
  explicit AlignedBytes(const std::string& s) : storage(s.size() / 8 + 1, 0), size(s.size()) {
    std::memcpy(storage.data(), s.data(), s.size());
  }
  uint8_t* data() { return reinterpret_cast<uint8_t*>(storage.data()); }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(storage.data()); }
};

struct ToyModelSpec {
  std::vector<std::string> words;
  std::vector<std::vector<float>> vectors;
  dxt_quantization quantization = DXT_QUANT_F32;
  dxt_geometry geometry = DXT_GEOMETRY_EUCLIDEAN;
  bool lowercase = true;
  bool with_frequencies = false;
  bool with_covariance = false;
  // Two public orderings (the ordering mechanism, which the presets use).
  bool with_orderings = false;
  // A typed classes section with two members in each list class
  // (toy_typed_lists; the presets type names, places, organizations and
  // health terms and are refused on a model without one).
  bool with_typed_lists = false;
  // A context prior section (each word followed by the next, lift 4; the
  // readable preset's prior needs one); with the orderings only.
  bool with_context_prior = false;
};

inline TypedLists toy_typed_lists() {
  TypedLists l;
  l.members[DXT_TYPED_FIRST_NAME] = {{"tom", false}, {"maria", false}};
  l.members[DXT_TYPED_SURNAME] = {{"smith", false}, {"okafor", false}};
  l.members[DXT_TYPED_CITY] = {{"paris", false}, {"lagos", false}};
  l.members[DXT_TYPED_REGION] = {{"ohio", false}, {"bavaria", false}};
  l.members[DXT_TYPED_COUNTRY] = {{"peru", false}, {"chad", false}};
  l.members[DXT_TYPED_ORGANIZATION] = {{"unicef", false}, {"oxfam", false}};
  l.members[DXT_TYPED_CONDITION] = {{"asthma", false}, {"diabetes", false}};
  l.members[DXT_TYPED_DRUG] = {{"aspirin", false}, {"metformin", false}};
  return l;
}

// `bytes` (a whole model) with one section appended: make(model) gives its
// bytes, from the model `bytes` opens to.
template <typename Make>
inline std::string with_section(const std::string& bytes, format::SectionKind kind, uint16_t minor, Make make) {
  std::vector<uint64_t> aligned(bytes.size() / 8 + 1, 0);
  std::memcpy(aligned.data(), bytes.data(), bytes.size());
  const auto model = Model::open_memory(aligned.data(), bytes.size(), {});
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  write_model_with_section(*model, static_cast<uint32_t>(kind), make(*model), minor, out);
  return out.str();
}

// `bytes` with the typed classes section `lists` appended.
inline std::string with_typed_section(const std::string& bytes, const TypedLists& lists) {
  return with_section(bytes, format::SectionKind::kTypedClasses, format::kMinorTypedClasses,
                      [&](const Model&) { return encode_typed_lists(lists); });
}

// `bytes` with two orderings (4 neighbours) appended.
inline std::string with_orderings_section(const std::string& bytes) {
  return with_section(bytes, format::SectionKind::kOrderings, format::kMinorOrderings, [](const Model& m) {
    OrderingBuildOptions orderings;
    orderings.count = 2;
    orderings.neighbours = 4;
    return encode_orderings(m, orderings, build_orderings(m, orderings, nullptr));
  });
}

// `bytes` with a context prior section of `pairs` appended.
inline std::string with_context_prior(const std::string& bytes, const std::vector<PriorPair>& pairs) {
  return with_section(bytes, format::SectionKind::kContextPrior, format::kMinorContextPrior,
                      [&](const Model& m) { return encode_context_prior(m.vocabulary_size(), pairs, 16); });
}

inline std::string build_model_bytes(const ToyModelSpec& spec) {
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  ModelWriterOptions o;
  o.dimension = static_cast<uint32_t>(spec.vectors.at(0).size());
  o.quantization = spec.quantization;
  o.geometry = spec.geometry;
  o.lowercase = spec.lowercase;
  o.with_frequencies = spec.with_frequencies;
  o.with_covariance = spec.with_covariance;
  o.metadata["dxtext.source"] = "test";
  ModelWriter w(out, o);
  for (size_t i = 0; i < spec.words.size(); ++i) w.add(spec.words[i], spec.vectors[i].data(), 1000 - i);
  w.finish();
  if (!spec.with_orderings) return spec.with_typed_lists ? with_typed_section(out.str(), toy_typed_lists()) : out.str();
  std::string ordered = with_orderings_section(out.str());
  if (spec.with_context_prior) {
    std::vector<PriorPair> pairs;
    for (uint32_t i = 0; i + 1 < spec.words.size(); ++i) pairs.push_back({i, i + 1, 4});
    ordered = with_context_prior(ordered, pairs);
  }
  return spec.with_typed_lists ? with_typed_section(ordered, toy_typed_lists()) : ordered;
}

// A 2-D toy vocabulary of 20 words on a jittered grid, for distribution tests.
inline ToyModelSpec grid_2d_spec() {
  ToyModelSpec s;
  const float jitter[20][2] = {{0.1f, 0.0f},   {0.0f, 0.2f},  {-0.1f, 0.1f}, {0.2f, -0.1f}, {0.0f, 0.0f},
                               {0.1f, 0.1f},   {-0.2f, 0.0f}, {0.0f, -0.2f}, {0.1f, 0.2f},  {0.2f, 0.0f},
                               {-0.1f, -0.1f}, {0.0f, 0.1f},  {0.1f, -0.2f}, {-0.2f, 0.2f}, {0.0f, 0.0f},
                               {0.2f, 0.1f},   {-0.1f, 0.0f}, {0.1f, 0.1f},  {0.0f, -0.1f}, {-0.2f, -0.1f}};
  for (int i = 0; i < 20; ++i) {
    s.words.push_back("w" + std::to_string(i));
    s.vectors.push_back({static_cast<float>(i % 5) + jitter[i][0], static_cast<float>(i / 5) + jitter[i][1]});
  }
  return s;
}

// A Poincare-disk toy vocabulary of 20 words: a root near the origin, and
// points at several radii and angles, some close to the boundary.
inline ToyModelSpec poincare_2d_spec() {
  ToyModelSpec s;
  s.geometry = DXT_GEOMETRY_POINCARE;
  const double radii[4] = {0.3, 0.6, 0.85, 0.95};
  s.words.push_back("root");
  s.vectors.push_back({0.02f, -0.01f});
  for (int i = 1; i < 20; ++i) {
    const double r = radii[i % 4];
    const double a = 2 * 3.14159265358979 * i / 19.0 + 0.1 * (i % 3);
    s.words.push_back("p" + std::to_string(i));
    s.vectors.push_back({static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))});
  }
  return s;
}

inline std::shared_ptr<const Model> open_bytes(const AlignedBytes& b) {
  return Model::open_memory(b.data(), b.size, ModelOpenOptions{});
}

}  // namespace dxt::test
