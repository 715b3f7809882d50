// SPDX-License-Identifier: Apache-2.0
#include "json_line.hpp"

#include <cstdint>
#include <optional>

#include "unicode/utf8.hpp"

namespace dxt::cli {

namespace {

// Deep enough for any real record, shallow enough that the recursion below
// cannot exhaust the stack.
constexpr int kMaxDepth = 512;

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  JsonStringMember find(std::string_view key) {
    skip_space();
    if (at_end() || s_[i_] != '{') error("a JSON object must start the line");
    parse_object(1, key);
    skip_space();
    if (!at_end()) error("unexpected characters after the object");
    if (!found_) throw JsonLineError("no \"" + std::string(key) + "\" member", 0);
    return *found_;
  }

 private:
  [[noreturn]] void error(const std::string& what) const { throw JsonLineError(what, i_ + 1); }
  bool at_end() const { return i_ >= s_.size(); }
  void skip_space() {
    while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\n')) ++i_;
  }
  void expect(char c) {
    if (at_end() || s_[i_] != c) error(std::string("expected '") + c + "'");
    ++i_;
  }

  void parse_value(int depth) {
    if (depth > kMaxDepth) error("nesting deeper than 512");
    skip_space();
    if (at_end()) error("a value is missing");
    switch (s_[i_]) {
      case '{': parse_object(depth, {}); break;
      case '[': parse_array(depth); break;
      case '"': parse_string(); break;
      case 't': parse_literal("true"); break;
      case 'f': parse_literal("false"); break;
      case 'n': parse_literal("null"); break;
      default: parse_number();
    }
  }

  // At depth 1 (the top-level object) `key` is looked for; deeper objects
  // are only checked.
  void parse_object(int depth, std::string_view key) {
    expect('{');
    skip_space();
    if (!at_end() && s_[i_] == '}') {
      ++i_;
      return;
    }
    for (;;) {
      skip_space();
      if (at_end() || s_[i_] != '"') error("expected a member name in quotes");
      const std::string name = parse_string();
      skip_space();
      expect(':');
      skip_space();
      if (depth == 1 && name == key) {
        if (found_) error("duplicate \"" + name + "\" member");
        if (at_end() || s_[i_] != '"') error("\"" + name + "\" must be a string");
        JsonStringMember m;
        m.begin = i_;
        m.value = parse_string();
        m.end = i_;
        found_ = std::move(m);
      } else {
        parse_value(depth + 1);
      }
      skip_space();
      if (at_end()) error("unterminated object");
      if (s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (s_[i_] == '}') {
        ++i_;
        return;
      }
      error("expected ',' or '}'");
    }
  }

  void parse_array(int depth) {
    expect('[');
    skip_space();
    if (!at_end() && s_[i_] == ']') {
      ++i_;
      return;
    }
    for (;;) {
      parse_value(depth + 1);
      skip_space();
      if (at_end()) error("unterminated array");
      if (s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (s_[i_] == ']') {
        ++i_;
        return;
      }
      error("expected ',' or ']'");
    }
  }

  void parse_literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) error("invalid literal");
    i_ += word.size();
  }

  // RFC 8259 §6: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  void parse_number() {
    auto digit = [&] { return !at_end() && s_[i_] >= '0' && s_[i_] <= '9'; };
    auto digits = [&] {
      if (!digit()) error("invalid number");
      while (digit()) ++i_;
    };
    if (!at_end() && s_[i_] == '-') ++i_;
    if (!at_end() && s_[i_] == '0') {
      ++i_;
    } else if (digit()) {
      digits();
    } else {
      error("invalid value");
    }
    if (!at_end() && s_[i_] == '.') {
      ++i_;
      digits();
    }
    if (!at_end() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (!at_end() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      digits();
    }
  }

  uint32_t hex4() {
    if (s_.size() - i_ < 4) error("truncated \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<uint32_t>(c - 'A' + 10);
      } else {
        --i_;
        error("invalid \\u escape");
      }
    }
    return v;
  }

  // Returns the decoded string; i_ ends after the closing quote.
  std::string parse_string() {
    expect('"');
    std::string out;
    for (;;) {
      if (at_end()) error("unterminated string");
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c < 0x20) error("unescaped control character in a string");
      if (c == '\\') {
        ++i_;
        if (at_end()) error("unterminated string");
        const char e = s_[i_++];
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            const size_t escape_at = i_ - 2;
            uint32_t cp = hex4();
            if (cp >= 0xDC00 && cp <= 0xDFFF) {
              i_ = escape_at;
              error("lone low surrogate escape");
            }
            if (cp >= 0xD800 && cp <= 0xDBFF) {
              // A high surrogate must be followed by an escaped low one.
              if (s_.size() - i_ < 2 || s_[i_] != '\\' || s_[i_ + 1] != 'u') {
                i_ = escape_at;
                error("lone high surrogate escape");
              }
              i_ += 2;
              const uint32_t low = hex4();
              if (low < 0xDC00 || low > 0xDFFF) {
                i_ = escape_at;
                error("high surrogate escape not followed by a low one");
              }
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            utf8::append(out, cp);
            break;
          }
          default: --i_; error("invalid escape");
        }
        continue;
      }
      // Raw bytes must be valid UTF-8.
      const size_t start = i_;
      if (utf8::decode(s_.data(), s_.size(), i_) == utf8::kInvalid) {
        i_ = start;
        error("invalid UTF-8");
      }
      out.append(s_.data() + start, i_ - start);
    }
  }

  std::string_view s_;
  size_t i_ = 0;
  std::optional<JsonStringMember> found_;
};

}  // namespace

JsonStringMember find_string_member(std::string_view line, std::string_view key) { return Parser(line).find(key); }

}  // namespace dxt::cli
