// SPDX-License-Identifier: Apache-2.0
#include "privatize_jsonl.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "errors/error.hpp"
#include "json_line.hpp"
#include "progress_bar.hpp"
#include "release_output.hpp"
#include "suggestion.hpp"

namespace dxt::cli {

namespace {

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

// The size of standard input when it is a regular file (for the progress
// bar), else 0 (unknown).
uint64_t stdin_size() {
  struct stat st {};
  if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) return static_cast<uint64_t>(st.st_size);
  return 0;
}

void write_or_fail(const std::string& s) {
  if (std::fwrite(s.data(), 1, s.size(), stdout) != s.size()) fail(DXT_E_IO, "writing to standard output failed");
}

// One input line and what became of it.
struct Record {
  std::string line;
  uint64_t line_no = 0;
  std::string output;         // the line to write (with its newline), when ok
  std::string problem;        // a bad record: skipped or stopping the run, as --on-error says
  dxt_status fatal = DXT_OK;  // a failure of the whole run (e.g. the generator)
  std::string fatal_message;
};

void privatize_record(dxt_context* ctx, const dxt_privatize_options& options, const std::string& field, Record& r) {
  if (blank(r.line)) {
    r.output = r.line + "\n";
    return;
  }
  try {
    const JsonStringMember m = find_string_member(r.line, field);
    char* out = nullptr;
    size_t out_len = 0;
    const dxt_status s =
        dxt_privatize_text(ctx, &options, m.value.data(), m.value.size(), &out, &out_len, nullptr, nullptr);
    std::unique_ptr<char, void (*)(char*)> owned(out, dxt_text_free);
    if (s != DXT_OK) {
      std::string msg = dxt_last_error_message();
      if (msg.empty()) msg = dxt_status_string(s);
      // Problems of the whole run (e.g. the RNG failed) stop it whatever
      // --on-error says; only the record's own text can be skipped.
      if (s != DXT_E_INVALID_UTF8 && s != DXT_E_INPUT_TOO_LARGE) {
        r.fatal = s;
        r.fatal_message = msg;
      } else {
        r.problem = "\"" + field + "\": " + msg;
      }
      return;
    }
    r.output.assign(r.line, 0, m.begin);
    r.output += json_string(std::string(out ? out : "", out_len));
    r.output.append(r.line, m.end, std::string::npos);
    r.output += '\n';
  } catch (const JsonLineError& e) {
    r.problem = e.column ? "column " + std::to_string(e.column) + ": " + e.what() : std::string(e.what());
  } catch (const std::exception& e) {
    r.fatal = DXT_E_INTERNAL;
    r.fatal_message = e.what();
  }
}

}  // namespace

int privatize_jsonl(const std::vector<dxt_context*>& contexts, const dxt_privatize_options& options, const Args& args) {
  const std::string field = args.get("field").value_or("text");
  const std::string on_error = args.get("on-error").value_or("stop");
  if (on_error != "stop" && on_error != "skip") throw UsageError(unknown_value("on-error", on_error, {"stop", "skip"}));
  const bool skip = on_error == "skip";
  if (!args.positional().empty()) throw UsageError("--jsonl reads standard input; it takes no TEXT arguments");
  if (args.flag(kReportFlag) || args.flag(kDiagnosticsFlag))
    throw UsageError("--report and --local-diagnostics are not available with --jsonl");
  const size_t threads = contexts.size();
  if (threads == 0) fail(DXT_E_INTERNAL, "privatize --jsonl needs a context");

  std::ios::sync_with_stdio(false);
  ProgressBar progress("privatize", ProgressBar::Unit::kBytes);
  const uint64_t total = stdin_size();
  uint64_t done = 0, line_no = 0, records = 0, skipped = 0;
  // Lines read ahead per round: enough for every thread to have a share.
  const size_t block = threads == 1 ? 1 : 64 * threads;
  std::vector<Record> batch(block);
  for (bool more = true; more;) {
    size_t n = 0;
    while (n < block && std::getline(std::cin, batch[n].line)) batch[n++].line_no = ++line_no;
    more = n == block;
    if (n == 0) break;
    for (size_t i = 0; i < n; ++i) {
      batch[i].output.clear(), batch[i].problem.clear();
      batch[i].fatal = DXT_OK;
    }
    // Context t privatises the lines numbered t mod threads, in order, so a
    // seeded run gives the same output for the same thread count.
    auto work = [&](size_t t) {
      for (size_t i = 0; i < n; ++i)
        if (batch[i].line_no % threads == t) privatize_record(contexts[t], options, field, batch[i]);
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (std::thread& th : pool) th.join();

    for (size_t i = 0; i < n; ++i) {
      const Record& r = batch[i];
      done += r.line.size() + 1;
      if (!blank(r.line)) ++records;
      if (r.fatal != DXT_OK) {
        progress.finish();
        fail(r.fatal, "line " + std::to_string(r.line_no) + ": " + r.fatal_message);
      }
      if (r.problem.empty()) {
        write_or_fail(r.output);
      } else {
        progress.finish();
        if (!skip) fail(DXT_E_PARSE, "line " + std::to_string(r.line_no) + ": " + r.problem);
        ++skipped;
        std::fprintf(stderr, "dxtext: warning: line %llu skipped: %s\n", static_cast<unsigned long long>(r.line_no),
                     r.problem.c_str());
      }
      progress.update(done, total);
    }
  }
  if (std::cin.bad()) fail(DXT_E_IO, "reading standard input failed");
  if (std::fflush(stdout) != 0) fail(DXT_E_IO, "writing to standard output failed");
  progress.update(total ? total : done, total);
  progress.finish();
  if (skipped)
    std::fprintf(stderr, "dxtext: warning: %llu of %llu records skipped\n", static_cast<unsigned long long>(skipped),
                 static_cast<unsigned long long>(records));
  return 0;
}

}  // namespace dxt::cli
