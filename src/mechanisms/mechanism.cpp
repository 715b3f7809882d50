#include "mechanisms/mechanism.hpp"

#include <cmath>
#include <string>

#include "errors/error.hpp"
#include "mechanisms/laplace_mechanism.hpp"

namespace dxt {

void check_epsilon(double epsilon) {
  if (!std::isfinite(epsilon) || epsilon <= 0)
    fail(DXT_E_INVALID_EPSILON, "epsilon must be finite and > 0 (got " + std::to_string(epsilon) + ")");
}

std::unique_ptr<Mechanism> make_mechanism(const Model& model, dxt_mechanism id, double epsilon) {
  check_epsilon(epsilon);
  switch (id) {
    case DXT_MECHANISM_LAPLACE: return std::make_unique<LaplaceMechanism>(model, epsilon);
    default: fail(DXT_E_UNSUPPORTED, "unknown mechanism " + std::to_string(static_cast<int>(id)));
  }
}

}  // namespace dxt
