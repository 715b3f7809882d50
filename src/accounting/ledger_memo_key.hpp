// SPDX-License-Identifier: Apache-2.0
// The memo key of a text released through the ledger (docs/budgets.md,
// "Memoisation"): two calls may share a memoised output only when their
// outputs have the same law, so the key covers everything that law is a
// function of, by construction rather than by a list of option names:
//
//   the output of TextPrivatizer(model, mechanism, rng, policies).privatize_text(text)
//   is a function of the model, of the mechanism (which make_mechanism
//   builds from the model and a MechanismParams), of the TokenPolicies, of
//   the text, of the code, and of the generator's bytes.
//
// So the key is an HMAC of every field of the MechanismParams the mechanism
// was built with (its output vocabulary included), every field of the
// TokenPolicies handed to the privatiser, the call's release record whole
// (it names the model by its SHA-256 and the generator mode), the library
// version, and the text. It is computed from the resolved values the
// privatiser receives, not from the caller's options, so anything that
// resolves to them (a preset, a default) is covered as what it resolves to.
// MechanismParams and TokenPolicies are taken apart with a structured
// binding of all their fields: a field added to either stops
// ledger_memo_key.cpp from compiling until it is encoded there. The record,
// a plain C struct filled from zero, goes in as its bytes.
#pragma once

#include <string_view>

#include "dxtext/dxtext.h"
#include "mechanisms/mechanism.hpp"
#include "model/sha256.hpp"
#include "text/text_privatizer.hpp"

namespace dxt {

Digest text_memo_key(const Digest& memo_secret, const MechanismParams& mechanism, const TokenPolicies& policies,
                     const dxt_release_record& record, const Digest& rng_identity, std::string_view text);

}  // namespace dxt
