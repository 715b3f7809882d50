// SPDX-License-Identifier: Apache-2.0
// Statistical tests of typed replacement (docs/guarantees.md, "Typed
// replacement"): a replaced token is uniform over its class whatever the
// input, so members of a class are perfectly indistinguishable. Pearson's
// chi-square at alpha = 1e-6 with fixed seeds; each check is paired with a
// deliberately broken draw (one that favours the input, one that is biased
// by a modulo) that the same check must reject.
#include <doctest/doctest.h>

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/typed_lists.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "sampling/samplers.hpp"
#include "support/statistics.hpp"
#include "text/typed_classes.hpp"

using namespace dxt;
using dxt::test::chi_square;

namespace {

constexpr double kAlpha = 1e-6;
constexpr int kDraws = 60000;

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[1] = 0x7c;
  return RandomStream(make_keyed_stream(seed));
}

// 37 first names: not a power of two, so a modulo draw would be biased.
TypedLists lists() {
  TypedLists l;
  for (int i = 0; i < 37; ++i) {
    std::string w = "n";
    w += static_cast<char>('a' + i % 26);
    w += static_cast<char>('a' + i / 26);
    l.members[DXT_TYPED_FIRST_NAME].push_back({w, false});
  }
  const std::vector<uint8_t> bytes = encode_typed_lists(l);
  return decode_typed_lists(bytes.data(), bytes.size());
}

using Draw = std::function<std::string(const std::string& input, RandomStream& rng)>;

// The chi-square p-value of kDraws replacements of `input` against the
// uniform law over `members`.
double uniform_p(const Draw& draw, const std::string& input, const std::vector<std::string>& members, uint8_t seed) {
  RandomStream rng = seeded(seed);
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < members.size(); ++i) index[members[i]] = i;
  std::vector<double> observed(members.size() + 1, 0);  // the last cell: anything else
  for (int k = 0; k < kDraws; ++k) {
    const auto it = index.find(draw(input, rng));
    ++observed[it == index.end() ? members.size() : it->second];
  }
  std::vector<double> p(members.size() + 1, 1.0 / static_cast<double>(members.size()));
  p.back() = 0;
  return chi_square(observed, p).p_value;
}

std::vector<std::string> title_members(const TypedLists& l) {
  std::vector<std::string> out;
  for (const TypedMember& m : l.members[DXT_TYPED_FIRST_NAME]) {
    std::string w = m.word;
    w[0] = static_cast<char>(w[0] - 'a' + 'A');
    out.push_back(w);
  }
  return out;
}

}  // namespace

TEST_CASE("statistical: a replaced name is uniform over the class, whatever the input") {
  const TypedLists l = lists();
  const std::vector<std::string> members = title_members(l);
  const Draw library = [&](const std::string& input, RandomStream& rng) {
    return typed_replacement(DXT_TYPED_FIRST_NAME, input, rng, &l, false);
  };
  // Two different members as input: the same uniform law for both.
  CHECK(uniform_p(library, "na", members, 1) > kAlpha);
  CHECK(uniform_p(library, "nkb", members, 2) > kAlpha);
  // Broken: keeps the input one time in twenty.
  const Draw favours_input = [&](const std::string& input, RandomStream& rng) {
    if (uniform_index(rng, 20) == 0) return std::string("Na");
    return library(input, rng);
  };
  CHECK(uniform_p(favours_input, "na", members, 3) < kAlpha);
  // Broken: a byte modulo 37 (the first 34 members get 7/256, the rest 6/256).
  const Draw modulo = [&](const std::string&, RandomStream& rng) {
    return members[static_cast<uint8_t>(rng.next_u64()) % members.size()];
  };
  CHECK(uniform_p(modulo, "na", members, 4) < kAlpha);
}

TEST_CASE("statistical: a replaced number is uniform over 0..99, a digit of a kept shape over 0..9") {
  std::vector<std::string> numbers;
  for (int i = 0; i < 100; ++i) numbers.push_back(std::to_string(i));
  const Draw hide = [](const std::string& input, RandomStream& rng) {
    return typed_replacement(DXT_TYPED_NUMBER, input, rng, nullptr, false);
  };
  CHECK(uniform_p(hide, "1,234", numbers, 5) > kAlpha);
  CHECK(uniform_p(hide, "7", numbers, 6) > kAlpha);
  // Broken: a small number kept as it is one time in ten.
  const Draw keeps_small = [&](const std::string& input, RandomStream& rng) {
    if (input.size() <= 2 && uniform_index(rng, 10) == 0) return input;
    return hide(input, rng);
  };
  CHECK(uniform_p(keeps_small, "7", numbers, 7) < kAlpha);
  // number_shape keep: every digit uniform, the input's digit never favoured.
  std::vector<std::string> digits;
  for (int i = 0; i < 10; ++i) digits.push_back(std::to_string(i));
  const Draw shaped = [](const std::string& input, RandomStream& rng) {
    return typed_replacement(DXT_TYPED_NUMBER, input, rng, nullptr, true);
  };
  CHECK(uniform_p(shaped, "7", digits, 8) > kAlpha);
  const Draw broken_shaped = [&](const std::string& input, RandomStream& rng) {
    const std::string d = shaped(input, rng);
    return d == "0" ? input : d;  // 0 becomes the input: 7 twice as likely
  };
  CHECK(uniform_p(broken_shaped, "7", digits, 9) < kAlpha);
}

TEST_CASE("statistical: a replaced phone number's digits are uniform") {
  RandomStream rng = seeded(10);
  std::vector<double> observed(10, 0), p(10, 0.1);
  for (int k = 0; k < kDraws / 10; ++k)
    for (char c : typed_replacement(DXT_TYPED_PHONE, "+1 555 0100", rng, nullptr, false))
      if (c >= '0' && c <= '9') ++observed[c - '0'];
  CHECK(chi_square(observed, p).p_value > kAlpha);
}

namespace {

std::string two(int v) { return std::string(1, static_cast<char>('0' + v / 10)) + static_cast<char>('0' + v % 10); }

// The chi-square p-value of kDraws replacements of `input`, read through
// `part` (a field of the time: its hour, its minutes), against the uniform
// law over `values`.
double part_uniform_p(const Draw& draw, const std::string& input,
                      const std::function<std::string(const std::string&)>& part,
                      const std::vector<std::string>& values, uint8_t seed) {
  const Draw through = [&](const std::string& in, RandomStream& rng) { return part(draw(in, rng)); };
  return uniform_p(through, input, values, seed);
}

}  // namespace

TEST_CASE("statistical: a replaced time is a uniform time of day in the input's shape") {
  const Draw time = [](const std::string& input, RandomStream& rng) {
    return typed_replacement(DXT_TYPED_TIME, input, rng, nullptr, false);
  };
  // 12-hour with minutes: the 1440 times "H:MM AM" / "H:MM PM", for two inputs.
  std::vector<std::string> twelve;
  for (const char* half : {" AM", " PM"})
    for (int h = 1; h <= 12; ++h)
      for (int m = 0; m < 60; ++m) twelve.push_back(std::to_string(h) + ":" + two(m) + half);
  CHECK(uniform_p(time, "2:08 PM", twelve, 20) > kAlpha);
  CHECK(uniform_p(time, "11:59 AM", twelve, 21) > kAlpha);
  // 24-hour: the 1440 times "HH:MM".
  std::vector<std::string> day;
  for (int h = 0; h < 24; ++h)
    for (int m = 0; m < 60; ++m) day.push_back(two(h) + ":" + two(m));
  CHECK(uniform_p(time, "14:30", day, 22) > kAlpha);
  CHECK(uniform_p(time, "0:05", day, 23) > kAlpha);
  // An hour alone with "am": the 24 hours "1am" .. "12pm".
  std::vector<std::string> hours;
  for (const char* half : {"am", "pm"})
    for (int h = 1; h <= 12; ++h) hours.push_back(std::to_string(h) + half);
  CHECK(uniform_p(time, "9am", hours, 24) > kAlpha);
  // The fields one by one (sharper than the joint law): the 24-hour hour,
  // the minutes, the seconds.
  std::vector<std::string> h24, m60;
  for (int h = 0; h < 24; ++h) h24.push_back(two(h));
  for (int m = 0; m < 60; ++m) m60.push_back(two(m));
  const auto hour = [](const std::string& t) { return t.substr(0, 2); };
  const auto minutes = [](const std::string& t) { return t.substr(3, 2); };
  const auto seconds = [](const std::string& t) { return t.substr(6, 2); };
  CHECK(part_uniform_p(time, "23:59:30", hour, h24, 25) > kAlpha);
  CHECK(part_uniform_p(time, "23:59:30", minutes, m60, 26) > kAlpha);
  CHECK(part_uniform_p(time, "23:59:30", seconds, m60, 27) > kAlpha);
  // Broken: keeps the input one time in twenty.
  const Draw favours_input = [&](const std::string& input, RandomStream& rng) {
    if (uniform_index(rng, 20) == 0) return input;
    return time(input, rng);
  };
  CHECK(uniform_p(favours_input, "2:08 PM", twelve, 28) < kAlpha);
  // Broken: the hour a byte modulo 24 (hours 0..15 get 11/256, the rest 10/256).
  const Draw modulo_hour = [&](const std::string& input, RandomStream& rng) {
    const std::string t = time(input, rng);
    return two(static_cast<uint8_t>(rng.next_u64()) % 24) + t.substr(2);
  };
  CHECK(part_uniform_p(modulo_hour, "14:30", hour, h24, 29) < kAlpha);
  // Broken: minutes that keep the input's one time in ten.
  const Draw keeps_minutes = [&](const std::string& input, RandomStream& rng) {
    const std::string t = time(input, rng);
    return uniform_index(rng, 10) == 0 ? t.substr(0, 3) + input.substr(3, 2) + t.substr(5) : t;
  };
  CHECK(part_uniform_p(keeps_minutes, "14:30", minutes, m60, 30) < kAlpha);
}
