// SPDX-License-Identifier: Apache-2.0
// Continuous samplers over RandomStream (DESIGN.md §5). The Exp, Gamma,
// normal and direction samplers draw a fixed number of uniforms, with no
// rejection beyond retries of probability below 2^-64 (a zero word in a
// uniform, a direction of norm 0), so their running time does not depend on
// the input. uniform_index rejects with probability below 2^-32 per draw;
// the Gumbel draws serve the lazy race, whose time depends on the scores.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rng/random_stream.hpp"

namespace dxt {

// An unbiased uniform integer in [0, n) by rejection (n > 0).
uint32_t uniform_index(RandomStream& rng, uint32_t n);

// Exp(1) as -ln U, computed from U's exponent count and mantissa
// (RandomStream::uniform_parts), so its tail is not capped: E > t has
// probability e^-t for every t up to 45,470 (65,600 ln 2), where a run of
// 65,536 zero bits from the generator (probability 2^-65536) is reported as
// DXT_E_RNG_FAILURE instead. The same bytes, and while U >= 2^-1022 the same
// value, as -ln(rng.uniform()), which would stop at 744.4.
double sample_exponential(RandomStream& rng);

// Gamma(shape, scale) for integer shape >= 1: the sum of `shape` Exp(1)
// draws times `scale`. For the laplace mechanism shape = n (the dimension)
// and scale = 1/epsilon: the radius of density ∝ r^(n-1) e^(-eps r).
double sample_gamma_integer_shape(RandomStream& rng, uint32_t shape, double scale);

// Two independent N(0,1) values by Box–Muller, radius sqrt(2E) from
// sample_exponential (uncapped).
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
