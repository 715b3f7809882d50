// SPDX-License-Identifier: Apache-2.0
// An independent reference for the SynTF mechanism (Weggenmann & Kerschbaum
// 2018) on a toy vocabulary: bigram sets, Dice, cosine and the exact softmax
// written out plainly, sharing no code with src/mechanisms/syntf_mechanism.
// Also the deliberately broken variants that the statistical test must
// reject.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "support/toy_models.hpp"

namespace dxt::test {

// Twenty words whose spellings share bigrams ("night", "knight", "light",
// "nation", "station", "rat"/"tar"/"art", "über"/"uber"), two one-letter
// words (no bigrams), and 3-D vectors with antipodal pairs, various norms and
// one zero row ("o": cosine 0 with everything).
inline ToyModelSpec syntf_toy_spec() {
  ToyModelSpec s;
  const std::pair<const char*, std::vector<float>> words[] = {{"night", {1, 0, 0}},
                                                              {"nights", {0.9f, 0.1f, 0}},
                                                              {"knight", {1.4f, 1.4f, 0}},
                                                              {"light", {-2.5f, 0, 0}},
                                                              {"lights", {-0.9f, -0.2f, 0.1f}},
                                                              {"fight", {0, 1, 0}},
                                                              {"might", {0, -0.5f, 0}},
                                                              {"tonight", {0.5f, 0, 0.5f}},
                                                              {"nation", {0, 0, 3}},
                                                              {"station", {0, 0, -1}},
                                                              {"ration", {0.3f, -0.3f, 0.9f}},
                                                              {"rat", {-0.6f, 0.6f, 0}},
                                                              {"tar", {0.6f, -0.6f, 0}},
                                                              {"art", {0.2f, 0.2f, -0.9f}},
                                                              {"star", {-0.2f, -0.2f, 0.9f}},
                                                              {"stars", {-0.3f, -0.1f, 0.8f}},
                                                              {"a", {1, 1, 1}},
                                                              {"\xC3\xBC"
                                                               "ber",
                                                               {-1, -1, -1}},
                                                              {"uber", {-0.9f, -1.1f, -1}},
                                                              {"o", {0, 0, 0}}};
  for (const auto& [w, v] : words) {
    s.words.push_back(w);
    s.vectors.push_back(v);
  }
  return s;
}

// Code points of a valid UTF-8 string (the toy words only).
inline std::vector<uint32_t> code_points(const std::string& s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const int len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    uint32_t cp = len == 1 ? b : len == 2 ? (b & 0x1Fu) : len == 3 ? (b & 0x0Fu) : (b & 0x07u);
    for (int k = 1; k < len; ++k) cp = cp << 6 | (static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0x3Fu);
    out.push_back(cp);
    i += static_cast<size_t>(len);
  }
  return out;
}

inline std::set<std::pair<uint32_t, uint32_t>> reference_bigrams(const std::string& word) {
  const std::vector<uint32_t> cp = code_points(word);
  std::set<std::pair<uint32_t, uint32_t>> out;
  for (size_t i = 0; i + 1 < cp.size(); ++i) out.insert({cp[i], cp[i + 1]});
  return out;
}

inline double reference_dice(const std::string& a, const std::string& b) {
  const auto x = reference_bigrams(a), y = reference_bigrams(b);
  if (x.empty() || y.empty()) return 0;
  size_t common = 0;
  for (const auto& g : x) common += y.count(g);
  return 2.0 * static_cast<double>(common) / static_cast<double>(x.size() + y.size());
}

inline double reference_cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ab += double{a[i]} * b[i];
    aa += double{a[i]} * a[i];
    bb += double{b[i]} * b[i];
  }
  return aa == 0 || bb == 0 ? 0 : ab / std::sqrt(aa * bb);
}

// The mechanism and its broken variants.
enum class SyntfVariant {
  kCorrect,      // exp(eps rho / (2 Delta)), Delta = 2 + s
  kMissingHalf,  // exp(eps rho / Delta)
  kDeltaTwo,     // Delta = 2 regardless of s
  kIgnoreS,      // rho = cos only (the bigram term forgotten)
};

// Exact Pr[w | input] over the toy vocabulary. The input is a vocabulary
// word (its vector and spelling) or, for an out-of-vocabulary word, just a
// spelling with a zero vector (cosine 0).
inline std::vector<double> reference_probabilities(const ToyModelSpec& spec, const std::vector<float>& vector,
                                                   const std::string& spelling, double eps, double s,
                                                   SyntfVariant variant = SyntfVariant::kCorrect) {
  const double delta = variant == SyntfVariant::kDeltaTwo ? 2 : 2 + s;
  const double factor = variant == SyntfVariant::kMissingHalf ? eps / delta : eps / (2 * delta);
  std::vector<double> score(spec.words.size());
  for (size_t w = 0; w < spec.words.size(); ++w) {
    const double bigram = variant == SyntfVariant::kIgnoreS ? 0 : s * reference_dice(spelling, spec.words[w]);
    score[w] = factor * (reference_cosine(vector, spec.vectors[w]) - bigram);
  }
  const double top = *std::max_element(score.begin(), score.end());
  double z = 0;
  for (double x : score) z += std::exp(x - top);
  for (double& x : score) x = std::exp(x - top) / z;
  return score;
}

inline std::vector<double> reference_probabilities(const ToyModelSpec& spec, size_t input, double eps, double s,
                                                   SyntfVariant variant = SyntfVariant::kCorrect) {
  return reference_probabilities(spec, spec.vectors[input], spec.words[input], eps, s, variant);
}

// max_w [max_v ln Pr[w|v] - min_v ln Pr[w|v]] over the vocabulary, directly.
inline double reference_loss(const ToyModelSpec& spec, double eps, double s,
                             SyntfVariant variant = SyntfVariant::kCorrect) {
  const size_t V = spec.words.size();
  std::vector<std::vector<double>> p;
  for (size_t v = 0; v < V; ++v) p.push_back(reference_probabilities(spec, v, eps, s, variant));
  double loss = 0;
  for (size_t w = 0; w < V; ++w) {
    double hi = -INFINITY, lo = INFINITY;
    for (size_t v = 0; v < V; ++v) {
      hi = std::max(hi, std::log(p[v][w]));
      lo = std::min(lo, std::log(p[v][w]));
    }
    loss = std::max(loss, hi - lo);
  }
  return loss;
}

}  // namespace dxt::test
