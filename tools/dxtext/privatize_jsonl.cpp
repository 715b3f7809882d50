#include "privatize_jsonl.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "errors/error.hpp"
#include "json_line.hpp"
#include "progress_bar.hpp"

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

}  // namespace

int privatize_jsonl(dxt_context* ctx, const dxt_privatize_options& options, const Args& args) {
  const std::string field = args.get("field").value_or("text");
  const std::string on_error = args.get("on-error").value_or("stop");
  if (on_error != "stop" && on_error != "skip") throw UsageError("--on-error must be stop or skip");
  const bool skip = on_error == "skip";
  if (!args.positional().empty()) throw UsageError("--jsonl reads standard input; it takes no TEXT arguments");
  if (args.flag("report")) throw UsageError("--report is not available with --jsonl");

  std::ios::sync_with_stdio(false);
  ProgressBar progress("privatize", ProgressBar::Unit::kBytes);
  const uint64_t total = stdin_size();
  uint64_t done = 0, line_no = 0, records = 0, skipped = 0;
  std::string line, out_line;
  while (std::getline(std::cin, line)) {
    ++line_no;
    done += line.size() + 1;
    if (blank(line)) {
      write_or_fail(line + "\n");
      continue;
    }
    ++records;
    std::string problem;
    try {
      const JsonStringMember m = find_string_member(line, field);
      char* out = nullptr;
      size_t out_len = 0;
      const dxt_status s = dxt_privatize_text(ctx, &options, m.value.data(), m.value.size(), &out, &out_len, nullptr);
      std::unique_ptr<char, void (*)(char*)> owned(out, dxt_text_free);
      if (s != DXT_OK) {
        const std::string msg = dxt_last_error_message();
        // Problems of the whole run (e.g. the RNG failed) stop it whatever
        // --on-error says; only the record's own text can be skipped.
        if (s != DXT_E_INVALID_UTF8 && s != DXT_E_INPUT_TOO_LARGE)
          fail(s, "line " + std::to_string(line_no) + ": " + (msg.empty() ? dxt_status_string(s) : msg));
        problem = "\"" + field + "\": " + (msg.empty() ? dxt_status_string(s) : msg);
      } else {
        out_line.assign(line, 0, m.begin);
        out_line += json_string(std::string(out ? out : "", out_len));
        out_line.append(line, m.end, std::string::npos);
        out_line += '\n';
        write_or_fail(out_line);
      }
    } catch (const JsonLineError& e) {
      problem = e.column ? "column " + std::to_string(e.column) + ": " + e.what() : std::string(e.what());
    }
    if (!problem.empty()) {
      if (!skip) {
        progress.finish();
        fail(DXT_E_PARSE, "line " + std::to_string(line_no) + ": " + problem);
      }
      ++skipped;
      progress.finish();
      std::fprintf(stderr, "dxtext: warning: line %llu skipped: %s\n", static_cast<unsigned long long>(line_no),
                   problem.c_str());
    }
    progress.update(done, total);
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
