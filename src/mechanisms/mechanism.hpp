// The interface every mechanism implements. A mechanism is built for one
// model and one epsilon (validated at construction) and owns its scratch
// buffers, so privatising a word allocates nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "dxtext/dxtext.h"
#include "model/model.hpp"
#include "rng/random_stream.hpp"

namespace dxt {

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  virtual dxt_mechanism id() const = 0;
  virtual double epsilon() const = 0;
  // The metric d of the guarantee: outputs for w and w' differ in
  // probability by at most a factor exp(epsilon * d(w, w')).
  virtual dxt_geometry metric() const = 0;
  // Privatise the word at `index`; nullopt privatises the fixed point that
  // stands for every out-of-vocabulary word. Returns the released word.
  virtual uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) = 0;
};

// Throws DXT_E_INVALID_EPSILON, DXT_E_UNSUPPORTED (mechanism or geometry).
std::unique_ptr<Mechanism> make_mechanism(const Model& model, dxt_mechanism id, double epsilon);

// Rejects epsilon that is not finite and > 0, naming the bound.
void check_epsilon(double epsilon);

}  // namespace dxt
