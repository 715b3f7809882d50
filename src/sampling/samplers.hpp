// SPDX-License-Identifier: Apache-2.0
// Continuous samplers over RandomStream (DESIGN.md §5). All use fixed loop
// counts with no rejection, so their running time does not depend on the
// values drawn.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rng/random_stream.hpp"

namespace dxt {

// An unbiased uniform integer in [0, n) by rejection (n > 0).
uint32_t uniform_index(RandomStream& rng, uint32_t n);

// Exp(1) as -ln U with full-range U: unbounded tail, as the guarantee needs.
double sample_exponential(RandomStream& rng);

// Gamma(shape, scale) for integer shape >= 1: the sum of `shape` Exp(1)
// draws times `scale`. For the laplace mechanism shape = n (the dimension)
// and scale = 1/epsilon: the radius of density ∝ r^(n-1) e^(-eps r).
double sample_gamma_integer_shape(RandomStream& rng, uint32_t shape, double scale);

// Two independent N(0,1) values by Box–Muller.
void sample_normal_pair(RandomStream& rng, double& a, double& b);

// A direction uniform on the unit sphere S^(n-1): n normals, normalised.
void sample_unit_direction(RandomStream& rng, double* out, size_t n);

// ln E for E ~ Exp(1), exact in both tails: E's upper tail comes from a
// full-range uniform U < 1/2 (E = -ln U), its lower tail from a second
// full-range uniform for 1 - U when U >= 1/2 (E = -log1p(-(1 - U))), so
// ln E is not bounded below by the 2^-53 spacing of doubles near 1. The
// result is computed in the log domain: no underflow however small E is.
// A run of 65,536 zero bits from the generator (probability 2^-65536) is
// reported as DXT_E_RNG_FAILURE rather than looped on.
double sample_log_exponential(RandomStream& rng);

// Gumbel(0,1) as -ln E with E ~ Exp(1) (sample_log_exponential). Its upper
// tail is not capped: G > t has probability 1 - exp(-e^-t) for every t the
// doubles hold. (-ln(-ln U) with U below 1 - 2^-53 would stop at 36.7, and
// candidates far behind the best could then never win: a zero probability
// from one input and a positive one from another.)
double sample_gumbel(RandomStream& rng);

}  // namespace dxt
