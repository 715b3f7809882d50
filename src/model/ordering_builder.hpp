// SPDX-License-Identifier: Apache-2.0
// Builds the orderings section (kind 11, docs/format.md §10.3): K public
// cycles through the vocabulary in which consecutive words are near in the
// embedding, for the ordering mechanism (mechanisms/ordering_mechanism.hpp).
//
// Each cycle is a short tour of the word vectors (a travelling-salesman
// tour): a nearest-neighbour tour from a start word drawn from `seed`, then
// improved by 2-opt moves over each word's nearest neighbours until no move
// shortens it (Lin & Kernighan's neighbour lists, Bentley's don't-look
// bits: D. S. Johnson & L. A. McGeoch, "The traveling salesman problem: a
// case study in local optimization", 1997, §3). Different starts give
// different tours, so their seams (the long edges) fall in different places.
// With groups, each group is toured alone and the tours are joined.
//
// Reproducible bit for bit: distances are sums in a fixed order with no
// floating-point contraction, ties go to the lower word index, and the only
// randomness is a SplitMix64 stream of `seed`.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "model/model.hpp"

namespace dxt {

struct OrderingBuildOptions {
  uint32_t count = 8;        // K orderings, 1 .. 64
  uint32_t neighbours = 16;  // nearest neighbours per word for the tour moves
  uint64_t seed = 1;
  // Optional: a group number per word (V entries). Each group gets a tour
  // of its own, and the tours, each opened at its longest edge, are joined
  // into one cycle in group order, so that a word's neighbours along the
  // cycle are words of its group (the CLI puts the stopwords in a group of
  // their own: "the" then moves to "a", not to a content word). Empty: one
  // group.
  std::vector<uint8_t> groups;
  // Called now and then with the share of the work done, in [0, 1].
  std::function<void(double)> progress;
};

struct OrderingStats {
  // Per ordering: the cycle's length (sum of its edges' Euclidean lengths),
  // the median edge, and the share of a word's 10 nearest neighbours (in the
  // whole vocabulary) that lie within 5 places of it along that ordering,
  // over a sample of about 2 000 words.
  std::vector<double> length, median_edge, neighbours_within_5;
  double median_nearest = 0;  // the median distance from a word to its nearest neighbour (same sample)
};

// K x V word indices: the word at each position of each ordering. Euclidean
// models only (DXT_E_UNSUPPORTED otherwise); at least 3 words.
std::vector<uint32_t> build_orderings(const Model& model, const OrderingBuildOptions& options, OrderingStats* stats);

// The section's bytes.
std::vector<uint8_t> encode_orderings(const Model& model, const OrderingBuildOptions& options,
                                      const std::vector<uint32_t>& words);

}  // namespace dxt
