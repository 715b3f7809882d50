// SPDX-License-Identifier: Apache-2.0
#include "text/text_privatizer.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include "errors/error.hpp"
#include "text/case_shape.hpp"
#include "text/negations.hpp"
#include "text/polish.hpp"
#include "text/stopwords.hpp"
#include "text/structured_tokens.hpp"
#include "text/tokenizer.hpp"
#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

namespace {
// What the tokenizer would call `word` on its own: used for single words and
// bags, so that they are classified exactly as the same word in a text.
bool is_number_token(std::string_view word) {
  const std::vector<Token> t = tokenize(word);
  return t.size() == 1 && t[0].kind == TokenKind::kNumber;
}
}  // namespace

namespace {
// The text the tokenizer reads: under strict and normalize the input's
// compatibility forms are not part of what is released, so the text is read
// through unicode::fold_keeping_case first ("１，５００" is one number, as
// "1,500" is; "don＇t" one word, as "don't" is); under keep, as written.
// `buffer` holds the folded text when there is one.
std::string_view shaped_input(std::string_view text, dxt_release_shape shape, std::string& buffer) {
  if (shape != DXT_SHAPE_STRICT && shape != DXT_SHAPE_NORMALIZE) return text;
  buffer = unicode::fold_keeping_case(text);
  return buffer;
}

// The size of a possessive "'s" or "’s" ending `w`, a token of class `cls`
// (0: none; only names, places, organisations and health terms have one).
size_t possessive_suffix(dxt_typed_class cls, std::string_view w) {
  if (!is_list_class(cls)) return 0;
  if (w.size() > 2 && w.substr(w.size() - 2) == "'s") return 2;
  if (w.size() > 4 && w.substr(w.size() - 4) == "\xE2\x80\x99s") return 4;
  return 0;
}
}  // namespace

// Typographic apostrophes (U+2019) are looked up as ASCII ones, as the
// default models' corpora are normalised: "don’t" finds "don't".
std::string fold_apostrophes(std::string_view word) {
  std::string out(word);
  for (size_t at = out.find("\xE2\x80\x99"); at != std::string::npos; at = out.find("\xE2\x80\x99", at + 1))
    out.replace(at, 3, "'");
  return out;
}

TextPrivatizer::Decision TextPrivatizer::decide(std::string_view word, std::optional<bool> is_number,
                                                const TypedContext& context) {
  Decision d{DXT_CLASS_IN_VOCABULARY, DXT_POLICY_PRIVATIZE, model_.lookup(fold_apostrophes(word))};
  if (is_number.value_or(false) || (!is_number && is_number_token(word))) {
    d.cls = DXT_CLASS_NUMBER;
  } else if (is_stopword(unicode::fold(word))) {
    d.cls = DXT_CLASS_STOPWORD;
  } else if (!d.index) {
    d.cls = DXT_CLASS_OUT_OF_VOCABULARY;
  }
  d.action = policies_.policy[d.cls];
  // A negator under negations keep is released as written (no typed class
  // holds one); the output vocabulary holds none, so no other word becomes one.
  if (policies_.keep_negations && is_negator(word)) {
    d.action = DXT_POLICY_KEEP;
    return d;
  }
  if (policies_.any_typed()) {
    if (!lists_loaded_) {
      lists_ = model_.typed_lists();
      lists_loaded_ = true;
    }
    TypedContext c = context;
    if (!is_number && c.structured == DXT_TYPED_NONE) {
      // A word on its own (privatize_word, bags): classified as the tokenizer
      // would classify it in a text.
      const std::vector<Token> t = tokenize(word);
      if (t.size() == 1) c.structured = t[0].typed;
    }
    c.is_number = c.is_number || d.cls == DXT_CLASS_NUMBER;
    c.in_vocabulary = d.index.has_value();
    const dxt_typed_class typed = classify_typed(word, c, lists_);
    d.detected = typed;
    if (typed != DXT_TYPED_NONE && policies_.typed[typed_family(typed)] != DXT_TYPED_PRIVATIZE) {
      d.typed = typed;
      d.typed_action = policies_.typed[typed_family(typed)];
      d.action = d.typed_action == DXT_TYPED_KEEP          ? DXT_POLICY_KEEP
                 : d.typed_action == DXT_TYPED_PLACEHOLDER ? DXT_POLICY_PLACEHOLDER
                 : d.typed_action == DXT_TYPED_DROP        ? DXT_POLICY_DROP
                                                           : DXT_POLICY_PRIVATIZE;
    }
  }
  return d;
}

std::string TextPrivatizer::render_typed(const Decision& d, std::string_view word) {
  switch (d.typed_action) {
    case DXT_TYPED_PLACEHOLDER: return typed_placeholder(d.typed);
    case DXT_TYPED_KEEP: return std::string(word);
    case DXT_TYPED_REPLACE: {
      // A possessive on the input ("Tom's", "Tom’s") is released as it is
      // written under keep, as "'s" under normalize, and not at all under
      // strict, whose output depends on the input only through the token
      // count and the draws (and whose ledger memo key, strict_release_input,
      // leaves it out).
      const size_t possessive = possessive_suffix(d.typed, word);
      const std::string_view base = word.substr(0, word.size() - possessive);
      // A time is drawn in its input's shape (12- or 24-hour, precision,
      // am/pm spelling), which strict does not release unless number_shape
      // keeps shapes: there every time is drawn as a 24-hour "HH:MM".
      const std::string_view drawn_as =
          d.typed == DXT_TYPED_TIME && policies_.shape == DXT_SHAPE_STRICT && !policies_.keep_number_shape ? "00:00"
                                                                                                           : base;
      std::string suffix;
      if (possessive != 0 && policies_.shape == DXT_SHAPE_KEEP) suffix = word.substr(base.size());
      if (possessive != 0 && policies_.shape == DXT_SHAPE_NORMALIZE) suffix = "'s";
      if (!policies_.typed_consistent)
        return typed_replacement(d.typed, drawn_as, rng_, lists_, policies_.keep_number_shape) + suffix;
      auto key = std::make_pair(d.typed, unicode::fold(base));
      auto it = consistent_.find(key);
      if (it == consistent_.end())
        it = consistent_
                 .emplace(std::move(key),
                          typed_replacement(d.typed, drawn_as, rng_, lists_, policies_.keep_number_shape))
                 .first;
      return it->second + suffix;
    }
    default: fail(DXT_E_INTERNAL, "unresolved typed policy");
  }
}

std::optional<std::string_view> TextPrivatizer::render(const Decision& d, std::string_view word,
                                                       uint32_t released) const {
  switch (d.action) {
    case DXT_POLICY_PRIVATIZE: return model_.word(released);
    case DXT_POLICY_PLACEHOLDER: return std::string_view(policies_.placeholder);
    case DXT_POLICY_DROP: return std::nullopt;
    case DXT_POLICY_KEEP: return word;
    default: fail(DXT_E_INTERNAL, "unresolved token policy");
  }
}

std::optional<std::string> TextPrivatizer::privatize_word(std::string_view input, std::optional<bool> is_number) {
  if (!utf8::valid(input.data(), input.size())) fail(DXT_E_INVALID_UTF8, "word is not valid UTF-8");
  std::string folded;
  const std::string_view word = shaped_input(input, policies_.shape, folded);
  const Decision d = decide(word, is_number);
  tally_.add(d.cls, d.action);
  if (d.typed != DXT_TYPED_NONE && d.typed_action == DXT_TYPED_DROP) return std::nullopt;
  if (d.typed != DXT_TYPED_NONE) {
    const std::string typed = render_typed(d, word);
    std::string out;
    TextShaper shaper(policies_.shape == DXT_SHAPE_KEEP ? DXT_SHAPE_KEEP : DXT_SHAPE_STRICT, out);
    shaper.word(typed, word, d.typed_action == DXT_TYPED_REPLACE);
    return out;
  }
  // Out-of-vocabulary words (and numbers without a vector) all start from the
  // same fixed point, so they cannot be told apart from the output.
  const uint32_t released = d.action == DXT_POLICY_PRIVATIZE ? mechanism_.privatize(rng_, d.index) : 0;
  const std::optional<std::string_view> r = render(d, word, released);
  if (!r) return std::nullopt;
  // One word has no spans: keep restores its case shape, the other shapes
  // release it as the model spells it.
  std::string out;
  TextShaper shaper(policies_.shape == DXT_SHAPE_KEEP ? DXT_SHAPE_KEEP : DXT_SHAPE_STRICT, out);
  shaper.word(*r, word, d.action == DXT_POLICY_PRIVATIZE);
  return out;
}

namespace {
// Texts are tokenized in pieces of about this many bytes, so that the memory
// a call needs beyond its input and output stays bounded however long the
// text is (docs/limitations.md).
constexpr size_t kPieceBytes = size_t{1} << 16;

// A byte after which a piece may end without changing the tokens: an ASCII
// character that is neither part of a word nor a joiner (' . ,), so no
// word or number spans it and it is not the middle of a UTF-8 sequence.
bool ends_piece(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x80) return false;
  const bool alnum = (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
  return !alnum && u != '\'' && u != '.' && u != ',';
}

// Where a piece ends: within 4 KiB after kPieceBytes, after white space
// that no structured token spans (a spaced e-mail address, a street
// address, a phone number hold spaces: "anna @ mail.de", "412 Spring
// Road"), preferring, in this order, a blank line, a line break after a
// sentence end, a space after a sentence end (not after a title: "Dr."),
// any white space; without one, after any byte that ends_piece allows. The
// typed classifier reads no context across a cut, and a sentence end is
// where the context it reads is the same as in the whole text (a sentence's
// first word; no sign-off, title or place word before it).
size_t piece_end(std::string_view text, size_t begin) {
  if (text.size() - begin <= kPieceBytes) return text.size();
  const size_t start = begin + kPieceBytes;
  const size_t stop = std::min(text.size(), start + 4096);
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
  // Whether the text before the white space that ends at `c` ends a
  // sentence: . ! ? (and a closing quote or bracket), not after a title.
  auto sentence_end = [&](size_t c) {
    size_t k = c;
    while (k > begin && space(text[k - 1])) --k;
    while (k > begin && std::strchr("\"')]", text[k - 1]) != nullptr) --k;
    if (k == begin || std::strchr(".!?", text[k - 1]) == nullptr) return false;
    size_t w = k - 1;
    while (w > begin && std::isalpha(static_cast<unsigned char>(text[w - 1]))) --w;
    return !is_person_title(unicode::fold(text.substr(w, k - 1 - w)));
  };
  // `reach`: the furthest end of a structured token that starts before p
  // (read up to kMaxStructuredBytes past the last cut looked at: every
  // pattern that spans white space is bounded by it).
  const std::string_view window = text.substr(0, std::min(text.size(), stop + kMaxStructuredBytes));
  size_t reach = 0;
  size_t best[4] = {0, 0, 0, 0};  // the first safe cut of each rank (0: none)
  for (size_t p = start > kMaxStructuredBytes + begin ? start - kMaxStructuredBytes : begin; p < stop; ++p) {
    if (p >= start && reach <= p && space(text[p - 1]) && !space(text[p])) {
      const bool line = text[p - 1] == '\n';
      size_t k = p - 1;  // a blank line: another line break before this one, only spaces between
      while (line && k > begin && (text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\r')) --k;
      int rank = 0;
      if (line && k > begin && text[k - 1] == '\n')
        rank = 3;
      else if (sentence_end(p))
        rank = line ? 2 : 1;
      if (best[rank] == 0) best[rank] = p;
      if (rank == 3) break;
    }
    if ((static_cast<unsigned char>(text[p]) & 0xC0) != 0x80)
      if (const auto m = match_structured(window, p)) reach = std::max(reach, m->end);
  }
  for (int rank = 3; rank >= 0; --rank)
    if (best[rank] != 0) return best[rank];
  size_t end = start;
  while (end < text.size() && !ends_piece(text[end - 1])) ++end;
  return end;
}
}  // namespace

std::vector<TextPrivatizer::Decision> TextPrivatizer::decide_tokens(std::string_view text,
                                                                    const std::vector<Token>& tokens) {
  std::vector<Decision> decisions;
  decisions.reserve(tokens.size());
  if (!policies_.any_typed()) {
    for (const Token& t : tokens)
      if (is_word_or_number(t.kind))
        decisions.push_back(decide(text.substr(t.begin, t.end - t.begin), t.kind == TokenKind::kNumber));
    return decisions;
  }
  // What the typed classifier knows of each word's place (typed_classes.hpp):
  // the words before it, the gaps between, and the next word when only
  // spaces separate them. All of it is read from the text alone.
  auto only_spaces = [&](const Token& t) {
    return t.kind == TokenKind::kSpan &&
           text.substr(t.begin, t.end - t.begin).find_first_not_of(' ') == std::string_view::npos;
  };
  // The word or number after token i with only spaces between, if any.
  auto next_word = [&](size_t i) -> const Token* {
    size_t j = i + 1;
    if (j < tokens.size() && only_spaces(tokens[j])) ++j;
    return j < tokens.size() && j != i + 1 && is_word_or_number(tokens[j].kind) ? &tokens[j] : nullptr;
  };
  // For each token, how many more words follow it before the end of its
  // line (or of the text), with nothing but spaces between them and at
  // most a final mark; -1 if more marks stand between: where a letter's
  // closing puts the writer's name.
  std::vector<int> line_rest(tokens.size(), -1);
  {
    int words_after = 0;
    bool clean = true;
    for (size_t i = tokens.size(); i-- > 0;) {
      const Token& t = tokens[i];
      if (t.kind == TokenKind::kSpan) {
        const std::string_view span = text.substr(t.begin, t.end - t.begin);
        if (span.find('\n') != std::string_view::npos) {
          words_after = 0, clean = true;  // a new line: count afresh
        } else if (words_after > 0 && !only_spaces(t)) {
          clean = false;  // a mark between the words of the line's end
        }
        continue;
      }
      if (!is_word_or_number(t.kind)) continue;
      line_rest[i] = clean ? words_after : -1;
      ++words_after;
    }
  }
  // Which words are numbers by their neighbours: "one", "oh", "first",
  // "second" beside a number (digits or a number word, or another of them
  // that is one) with only spaces, hyphens or commas between ("five one
  // two", "twenty-one", "one hundred", "zero, one") or after a magnitude
  // and "and" ("a hundred and one"), and an ordinal beside a month ("the
  // first of May", "May second").
  std::vector<bool> number_neighbour(tokens.size(), false);
  {
    std::vector<size_t> words;
    std::vector<bool> joined;  // joined[k]: words[k - 1] and words[k] have only " -," between
    std::vector<std::string> folded;
    bool join = false;
    for (size_t i = 0; i < tokens.size(); ++i) {
      const Token& t = tokens[i];
      if (t.kind == TokenKind::kSpan) {
        join = join && text.substr(t.begin, t.end - t.begin).find_first_not_of(" -,") == std::string_view::npos;
        continue;
      }
      if (!is_word_or_number(t.kind)) continue;
      words.push_back(i);
      joined.push_back(join);
      // (No number word is longer than 11 bytes: most words need no folding.)
      folded.push_back(t.end - t.begin <= 11 ? unicode::fold(text.substr(t.begin, t.end - t.begin)) : "");
      join = true;
    }
    const size_t n = words.size();
    // (A clock time is a whole value: "one" beside it, "at 9 am, one of
    // us", is no digit of it.)
    auto strong = [&](size_t k) {
      const Token& t = tokens[words[k]];
      return (t.kind == TokenKind::kNumber && t.typed != DXT_TYPED_TIME) || is_number_word(folded[k]);
    };
    std::vector<bool> number(n, false);
    for (size_t k = 0; k < n; ++k) number[k] = strong(k);
    for (size_t k = 1; k < n; ++k) {
      // "one hundred and one": "and" joins a magnitude to the number after it.
      const bool after_and = k >= 2 && folded[k - 1] == "and" && joined[k - 1] && joined[k] && number[k - 2] &&
                             is_magnitude_word(folded[k - 2]);
      if (!number[k] && ((joined[k] && number[k - 1]) || after_and) && is_context_number_word(folded[k]))
        number[k] = true;
    }
    for (size_t k = n; k-- > 1;)
      if (!number[k - 1] && joined[k] && number[k] && is_context_number_word(folded[k - 1])) number[k - 1] = true;
    // A month ("may" only capitalised: "you may first ask").
    auto month_at = [&](size_t j) {
      const Token& t = tokens[words[j]];
      return is_month(folded[j]) &&
             (folded[j] != "may" || case_shape(text.substr(t.begin, t.end - t.begin)) != CaseShape::kLower);
    };
    for (size_t k = 0; k < n; ++k) {
      const bool ordinal = folded[k] == "first" || folded[k] == "second";
      const bool month =
          ordinal && ((k + 1 < n && joined[k + 1] && month_at(k + 1)) || (k > 0 && joined[k] && month_at(k - 1)) ||
                      (k + 2 < n && folded[k + 1] == "of" && month_at(k + 2)));
      number_neighbour[words[k]] = (number[k] && !strong(k)) || month;
    }
  }
  // Which words are part of an identifier: words joined by one '-', '_',
  // '/' or '.' with no space ("hash-max-ziplist", "cl-alexandria"), at
  // least one of them written lower case. (All Title-case, "Jean-Luc", is
  // left to the other rules.)
  std::vector<bool> in_identifier(tokens.size(), false);
  {
    auto joiner = [&](const Token& t) {
      return t.kind == TokenKind::kSpan && t.end - t.begin == 1 && std::strchr("-_/.", text[t.begin]) != nullptr;
    };
    for (size_t i = 0; i < tokens.size();) {
      if (!is_word_or_number(tokens[i].kind)) {
        ++i;
        continue;
      }
      size_t j = i;  // the group's last word
      while (j + 2 < tokens.size() && joiner(tokens[j + 1]) && is_word_or_number(tokens[j + 2].kind)) j += 2;
      if (j > i) {
        bool lower = false;
        for (size_t k = i; k <= j; k += 2)
          lower =
              lower || case_shape(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin)) == CaseShape::kLower;
        if (lower)
          for (size_t k = i; k <= j; k += 2) in_identifier[k] = true;
      }
      i = j + 1;
    }
  }
  // A list item's first word starts a sentence: after a line break (or at
  // the start of the text) and a bullet ("* Mark ...", "- Update ...").
  auto list_head = [](std::string_view span, bool at_start) {
    const size_t line = span.rfind('\n');
    if (line == std::string_view::npos && !at_start) return false;
    std::string_view rest = line == std::string_view::npos ? span : span.substr(line + 1);
    bool bullet = false;
    while (!rest.empty()) {
      if (rest.front() == ' ' || rest.front() == '\t') {
        rest.remove_prefix(1);
      } else if (std::strchr("*-+>", rest.front()) != nullptr) {
        bullet = true;
        rest.remove_prefix(1);
      } else if (rest.substr(0, 3) == "\xE2\x80\xA2") {  // U+2022 BULLET
        bullet = true;
        rest.remove_prefix(3);
      } else {
        return false;
      }
    }
    return bullet;
  };
  std::vector<TypedContext> contexts;
  std::vector<size_t> at;  // the token index of each decision
  contexts.reserve(tokens.size());
  at.reserve(tokens.size());
  TypedContext context;
  context.sentence_start = true;
  std::string_view previous_raw;  // the word before, as written
  std::string previous_word;      // the same, lower case
  std::string previous2_word;     // the word before that, lower case
  bool previous_started = false;  // it was the first word of its sentence
  bool gap_period = false, gap_break = false, gap_sentence = false, gap_other = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind == TokenKind::kSpan) {
      const std::string_view span = text.substr(t.begin, t.end - t.begin);
      // "Dr. Okafor": the full stop of a title ends no sentence.
      const bool sentence = gap_mark(span) == GapMark::kSentence;
      if (sentence && !is_person_title(previous_word)) context.sentence_start = true;
      if (list_head(span, decisions.empty())) context.sentence_start = true;
      if (span.find_first_not_of(" .") != std::string_view::npos) context.previous = DXT_TYPED_NONE;
      gap_sentence = gap_sentence || sentence;
      gap_period = gap_period || span.find('.') != std::string_view::npos;
      gap_other = gap_other || span.find_first_not_of(" .") != std::string_view::npos;
      gap_break = gap_break || span.find_first_of(",\n") != std::string_view::npos;
      continue;
    }
    if (!is_word_or_number(t.kind)) continue;
    const std::string_view word = text.substr(t.begin, t.end - t.begin);
    context.structured = t.typed;
    context.is_number = t.kind == TokenKind::kNumber;
    context.after_place_word = is_place_cue(previous_word);
    // A title and the name after it have only spaces or a full stop between.
    context.after_title = is_person_title(previous_word) && !gap_other;
    context.after_strong_title = context.after_title && is_strong_title(previous_raw, gap_period, previous_started);
    context.after_determiner = is_determiner(previous_word);
    context.after_sign_off = is_sign_off(previous_word) && gap_break && line_rest[i] >= 0 && line_rest[i] <= 2;
    // "Thanks,\nRose", "Thank you!\nRose", "Cheers, Rose": after a comma
    // or a line break, and last on its line.
    const bool weak_sign_off = is_weak_sign_off(previous_word) || (previous_word == "you" && previous2_word == "thank");
    context.after_weak_sign_off = weak_sign_off && gap_break && line_rest[i] == 0;
    context.number_neighbour = number_neighbour[i];
    context.in_identifier = in_identifier[i];
    context.after_greeting = is_greeting(previous_word) && previous_started && !gap_sentence;
    const Token* next = next_word(i);
    // (No speech verb is longer than 11 bytes: most words need no lower-casing.)
    context.before_speech_verb =
        next != nullptr && next->end - next->begin <= 11 &&
        is_speech_verb(fold_apostrophes(unicode::fold(text.substr(next->begin, next->end - next->begin))));
    context.before_name = false;
    const bool started = context.sentence_start;
    decisions.push_back(decide(word, t.kind == TokenKind::kNumber, context));
    contexts.push_back(context);
    at.push_back(i);
    context.sentence_start = false;
    context.previous = decisions.back().detected;
    context.previous_lower = case_shape(word) == CaseShape::kLower;
    previous_raw = word;
    previous2_word = std::move(previous_word);
    previous_word = unicode::fold(word);
    previous_started = started;
    gap_period = gap_break = gap_sentence = gap_other = false;
  }
  // A listed first name right before a word found a name, in the same case
  // ("Grace Kelly", "sandy smith"): read once every word's class is known
  // from what comes before it (the next word's class does not depend on
  // this one, which was found no name).
  for (size_t k = 0; k + 1 < decisions.size(); ++k) {
    const dxt_typed_class after = decisions[k + 1].detected;
    if (decisions[k].detected != DXT_TYPED_NONE || (after != DXT_TYPED_FIRST_NAME && after != DXT_TYPED_SURNAME))
      continue;
    if (next_word(at[k]) != &tokens[at[k + 1]]) continue;
    const std::string_view word = text.substr(tokens[at[k]].begin, tokens[at[k]].end - tokens[at[k]].begin);
    const std::string_view name = text.substr(tokens[at[k + 1]].begin, tokens[at[k + 1]].end - tokens[at[k + 1]].begin);
    if ((case_shape(word) == CaseShape::kLower) != (case_shape(name) == CaseShape::kLower)) continue;
    contexts[k].before_name = true;
    decisions[k] = decide(word, tokens[at[k]].kind == TokenKind::kNumber, contexts[k]);
  }
  return decisions;
}

std::vector<std::pair<Token, dxt_typed_class>> TextPrivatizer::detect_typed(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  const std::vector<Decision> decisions = decide_tokens(text, tokens);
  std::vector<std::pair<Token, dxt_typed_class>> out;
  size_t next = 0;
  for (const Token& t : tokens)
    if (is_word_or_number(t.kind)) out.emplace_back(t, decisions[next++].detected);
  return out;
}

void TextPrivatizer::privatize_piece(std::string_view text, TextShaper& shaper) {
  const std::vector<Token> tokens = tokenize(text);
  // First classify every word and collect those to privatise, so that the
  // mechanism draws their noise in order and decodes them together.
  const std::vector<Decision> decisions = decide_tokens(text, tokens);
  std::vector<std::optional<uint32_t>> inputs;
  for (const Decision& d : decisions) {
    tally_.add(d.cls, d.action);
    if (d.uses_mechanism()) inputs.push_back(d.index);
  }
  // With a context prior each word is drawn after the word released before
  // it, in order; otherwise all are drawn and decoded together first.
  const bool in_context = mechanism_.reads_context();
  std::vector<uint32_t> released(inputs.size());
  if (!in_context) mechanism_.privatize_batch(rng_, inputs.data(), inputs.size(), released.data());
  // The vocabulary word released by the word before, when only spaces or
  // tabs separate the two (so a prior reads no clause or line across).
  std::optional<uint32_t> previous;

  size_t next_decision = 0, next_released = 0;
  for (const Token& t : tokens) {
    const std::string_view piece = text.substr(t.begin, t.end - t.begin);
    if (t.kind == TokenKind::kSpan) {
      if (piece.find_first_not_of(" \t") != std::string_view::npos) previous.reset();
      shaper.span(piece);
      continue;
    }
    // Invisible code points outside words are dropped: a run of them (tag
    // characters, variation selectors, zero-width joiners) can carry a
    // message no reader of the output would see.
    if (t.kind == TokenKind::kInvisible) continue;
    const Decision& d = decisions[next_decision++];
    if (d.typed != DXT_TYPED_NONE && d.typed_action == DXT_TYPED_DROP) {
      shaper.drop();  // no trace in any shape
      continue;
    }
    if (d.typed != DXT_TYPED_NONE) {
      // A replacement is a member of the class as the class writes it (a
      // sentence capital under normalize, the input's case shape under keep);
      // a placeholder or kept token as it is.
      shaper.word(render_typed(d, piece), piece, d.typed_action == DXT_TYPED_REPLACE);
      previous.reset();
      continue;
    }
    uint32_t r = 0;
    if (d.uses_mechanism()) {
      r = in_context ? mechanism_.privatize_after(rng_, d.index, previous) : released[next_released++];
      previous = r;
    } else {
      previous = d.action == DXT_POLICY_KEEP ? d.index : std::nullopt;
    }
    if (auto replaced = render(d, piece, r)) shaper.word(*replaced, piece, d.action == DXT_POLICY_PRIVATIZE);
  }
}

std::string TextPrivatizer::strict_release_input(std::string_view text) {
  const size_t bad = utf8::first_invalid(text.data(), text.size());
  if (bad != text.size()) fail(DXT_E_INVALID_UTF8, "text is not valid UTF-8 at byte " + std::to_string(bad));
  std::string out;
  auto u32 = [&out](uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  };
  auto bytes = [&](std::string_view b) {
    u32(static_cast<uint32_t>(b.size()));
    out.append(b);
  };
  // Typed replacements with typed_consistent depend on which typed tokens
  // are equal: each is keyed by the first of its equals.
  std::map<std::pair<dxt_typed_class, std::string>, uint32_t> first_of;
  std::string folded;
  for (size_t begin = 0; begin < text.size();) {
    const size_t end = piece_end(text, begin);
    // Read as privatize_text reads it under strict.
    const std::string_view piece = shaped_input(text.substr(begin, end - begin), DXT_SHAPE_STRICT, folded);
    const std::vector<Token> tokens = tokenize(piece);
    // The decisions privatize_text makes, with the typed classifier's context.
    const std::vector<Decision> decisions = decide_tokens(piece, tokens);
    size_t next = 0;
    for (const Token& t : tokens) {
      if (!is_word_or_number(t.kind)) continue;  // strict releases nothing between words
      const std::string_view word = piece.substr(t.begin, t.end - t.begin);
      const Decision& d = decisions[next++];
      if (d.typed != DXT_TYPED_NONE && d.typed_action == DXT_TYPED_DROP) continue;  // releases nothing
      if (d.typed != DXT_TYPED_NONE) {
        // A typed token's release depends on its class and policy only (a
        // uniform member, or its placeholder), and on its digits' layout
        // when number_shape keeps it, and on equal tokens with
        // typed_consistent; a kept one on its bytes.
        out.push_back('T');
        u32(static_cast<uint32_t>(d.typed));
        u32(static_cast<uint32_t>(d.typed_action));
        if (d.typed_action == DXT_TYPED_KEEP) {
          bytes(word);
        } else if (d.typed_action == DXT_TYPED_REPLACE) {
          if (policies_.keep_number_shape) {
            std::string shape(word);
            for (char& c : shape)
              if (c >= '0' && c <= '9') c = '9';
            bytes(shape);
          }
          if (policies_.typed_consistent) {
            const auto key =
                std::make_pair(d.typed, unicode::fold(word.substr(0, word.size() - possessive_suffix(d.typed, word))));
            const auto it = first_of.emplace(key, static_cast<uint32_t>(first_of.size())).first;
            u32(it->second);
          }
        }
        continue;
      }
      switch (d.action) {
        case DXT_POLICY_PRIVATIZE:
          if (d.index) {
            out.push_back('P');
            u32(*d.index);
          } else {
            out.push_back('O');  // the shared origin of words without a vector
          }
          break;
        case DXT_POLICY_PLACEHOLDER:
          if (!policies_.placeholder.empty()) out.push_back('H');  // an empty one releases nothing
          break;
        case DXT_POLICY_KEEP:
          out.push_back('K');
          bytes(word);
          break;
        case DXT_POLICY_DROP: break;
        default: fail(DXT_E_INTERNAL, "unresolved token policy");
      }
    }
    begin = end;
  }
  return out;
}

std::string TextPrivatizer::privatize_text(std::string_view text) {
  const size_t bad = utf8::first_invalid(text.data(), text.size());
  if (bad != text.size()) fail(DXT_E_INVALID_UTF8, "text is not valid UTF-8 at byte " + std::to_string(bad));
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  TextShaper shaper(policies_.shape, out);
  std::string folded;
  for (size_t begin = 0; begin < text.size();) {
    const size_t end = piece_end(text, begin);
    privatize_piece(shaped_input(text.substr(begin, end - begin), policies_.shape, folded), shaper);
    begin = end;
  }
  shaper.finish();
  // A function of the release alone (text/polish.hpp).
  if (policies_.shape == DXT_SHAPE_NORMALIZE) polish_normalized(out);
  return out;
}

std::vector<std::pair<std::string, uint64_t>> TextPrivatizer::privatize_bag(
    const std::vector<std::pair<std::string_view, uint64_t>>& bag) {
  uint64_t total = 0;
  for (const auto& [word, count] : bag) {
    if (!utf8::valid(word.data(), word.size())) fail(DXT_E_INVALID_UTF8, "a bag word is not valid UTF-8");
    if (count > DXT_MAX_BAG_WORDS || (total += count) > DXT_MAX_BAG_WORDS)
      fail(DXT_E_INPUT_TOO_LARGE, "the bag holds more than " + std::to_string(DXT_MAX_BAG_WORDS) + " words");
  }
  std::map<uint32_t, uint64_t> by_index;
  std::map<std::string, uint64_t> others;  // placeholders and kept words
  std::string folded;
  for (const auto& [input, count] : bag) {
    if (count == 0) continue;
    // Classified as privatize_word classifies it under the same shape.
    const std::string_view word = shaped_input(input, policies_.shape, folded);
    const Decision d = decide(word, std::nullopt);
    for (uint64_t k = 0; k < count; ++k) tally_.add(d.cls, d.action);
    if (d.typed != DXT_TYPED_NONE && d.typed_action == DXT_TYPED_DROP) continue;
    if (d.typed != DXT_TYPED_NONE) {
      // One draw per occurrence (one for all with typed_consistent).
      if (d.typed_action != DXT_TYPED_REPLACE || policies_.typed_consistent) {
        others[render_typed(d, word)] += count;
      } else {
        for (uint64_t k = 0; k < count; ++k) ++others[render_typed(d, word)];
      }
      continue;
    }
    switch (d.action) {
      case DXT_POLICY_PRIVATIZE: {
        // count independent draws, decoded in batches.
        constexpr uint64_t kChunk = 1024;
        const std::vector<std::optional<uint32_t>> inputs(std::min(count, kChunk), d.index);
        std::vector<uint32_t> released(inputs.size());
        for (uint64_t done = 0; done < count; done += kChunk) {
          const size_t n = static_cast<size_t>(std::min(kChunk, count - done));
          mechanism_.privatize_batch(rng_, inputs.data(), n, released.data());
          for (size_t j = 0; j < n; ++j) ++by_index[released[j]];
        }
        break;
      }
      case DXT_POLICY_PLACEHOLDER: others[policies_.placeholder] += count; break;
      case DXT_POLICY_KEEP: others[std::string(word)] += count; break;
      default: break;  // dropped
    }
  }
  // Merge by the released string: a kept word or a placeholder may equal a
  // vocabulary word that the mechanism also produced.
  std::vector<std::pair<std::string, uint64_t>> out;
  out.reserve(by_index.size() + others.size());
  std::map<std::string_view, size_t> position;
  for (const auto& [index, count] : by_index) {
    const std::string_view w = model_.word(index);
    position.emplace(w, out.size());
    out.emplace_back(std::string(w), count);
  }
  for (const auto& [word, count] : others) {
    const auto it = position.find(word);
    if (it != position.end()) {
      out[it->second].second += count;
    } else {
      out.emplace_back(word, count);
    }
  }
  return out;
}

}  // namespace dxt
