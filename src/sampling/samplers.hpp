// Continuous samplers over RandomStream (DESIGN.md §5). All use fixed loop
// counts with no rejection, so their running time does not depend on the
// values drawn.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rng/random_stream.hpp"

namespace dxt {

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

// Gumbel(0,1) as -ln(-ln U) with full-range U.
double sample_gumbel(RandomStream& rng);

}  // namespace dxt
