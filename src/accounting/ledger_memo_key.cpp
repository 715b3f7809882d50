// SPDX-License-Identifier: Apache-2.0
#include "accounting/ledger_memo_key.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "errors/error.hpp"
#include "mechanisms/output_set.hpp"
#include "model/hmac_sha256.hpp"

namespace dxt {
namespace {

template <typename T>
struct Unsupported : std::false_type {};

// A canonical, self-delimiting encoding into the HMAC: every scalar as 8
// little-endian bytes (a double by its bits), every string and array
// preceded by its length. Two different sequences of values never give the
// same bytes.
class LawEncoder {
 public:
  explicit LawEncoder(const Digest& secret) : h_(secret.data(), secret.size()) {}

  void u64(uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
    h_.update(b, sizeof b);
  }
  void bytes(const void* p, size_t n) {
    u64(n);
    h_.update(p, n);
  }

  template <typename T>
  void put(const T& v) {
    if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) {
      u64(static_cast<uint64_t>(v));
    } else if constexpr (std::is_same_v<T, double>) {
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      u64(bits);
    } else {
      static_assert(Unsupported<T>::value, "a field of a type the memo key cannot encode yet: add it to LawEncoder");
    }
  }
  template <typename T, size_t N>
  void put(const T (&values)[N]) {
    u64(N);
    for (const T& v : values) put(v);
  }
  void put(const std::string& s) { bytes(s.data(), s.size()); }
  void put(const std::vector<uint32_t>& v) {
    u64(v.size());
    for (const uint32_t x : v) u64(x);
  }
  void put(const Digest& d) { bytes(d.data(), d.size()); }
  void put(const std::shared_ptr<const OutputSet>& set) {
    if (!set) {
      u64(0);  // the whole vocabulary
      return;
    }
    u64(1);
    const auto& [kind, rows, digest, member] = *set;
    put(kind);
    put(rows);
    put(digest);
    (void)member;  // rows again, as a lookup table
  }

  Digest finish() { return h_.finish(); }

 private:
  HmacSha256 h_;
};

}  // namespace

Digest text_memo_key(const Digest& memo_secret, const MechanismParams& mechanism, const TokenPolicies& policies,
                     const dxt_release_record& record, const Digest& rng_identity, std::string_view text) {
  LawEncoder e(memo_secret);
  static constexpr char kDomain[] = "dxtext ledger memo key v3: text";
  e.bytes(kDomain, sizeof kDomain - 1);
  // The code that computes the output: another version may compute another law.
  e.put(uint64_t{DXT_VERSION_NUMBER});

  const auto& [id, epsilon, tem_gamma, tem_beta, vickrey_t, mahalanobis_lambda, syntf_s, sampler, search, ivf_nprobe,
               candidate_list_size, candidate_cache_entries, output, floor, context_prior] = mechanism;
  e.put(id);
  e.put(epsilon);
  e.put(tem_gamma);
  e.put(tem_beta);
  e.put(vickrey_t);
  e.put(mahalanobis_lambda);
  e.put(syntf_s);
  e.put(sampler);
  e.put(search);
  e.put(ivf_nprobe);
  e.put(candidate_list_size);
  e.put(candidate_cache_entries);
  e.put(output);
  e.put(floor);
  e.put(context_prior);

  const auto& [policy, placeholder, shape, preset, typed, typed_consistent, keep_number_shape, keep_negations] =
      policies;
  e.put(policy);
  e.put(placeholder);
  e.put(shape);
  e.put(preset);  // applied to the fields above already; separates nothing more
  e.put(typed);
  e.put(uint64_t{typed_consistent});
  e.put(uint64_t{keep_number_shape});
  e.put(uint64_t{keep_negations});

  // The record is a function of the two above, the model and the generator
  // mode; it is here for the model's SHA-256 and the generator mode. It goes
  // in as its bytes, whole: a plain C struct that dxt_release_record_init and
  // fill_record fill from zero (padding included), so every field it has,
  // or will have, is in the key without being named here.
  static_assert(std::is_trivially_copyable_v<dxt_release_record> && std::is_standard_layout_v<dxt_release_record>,
                "the release record is hashed as bytes");
  if (record.struct_size != sizeof record) fail(DXT_E_INTERNAL, "the memo key needs a whole release record");
  e.bytes(&record, sizeof record);
  // The record names the generator's mode, not its seed: two seeded
  // contexts with different seeds draw different outputs.
  e.put(rng_identity);

  e.bytes(text.data(), text.size());
  return e.finish();
}

}  // namespace dxt
