// exg_sync.cpp - check a sync program from its text form ------------------//
//
// exg-sync [--engine=fast|oracle] [--print] [--no-explain] [--no-replay]
//          [--no-loop-replay] [--stats] [--max-check-memory=SIZE]
//          [--max-check-time=SECONDS] FILE
//
// Parses FILE (a `.sync` program; `-` reads stdin) and runs the sync checker.
// --print writes the parsed program back instead of checking it; --no-replay
// runs every task and every loop iteration in full (compiler/sync/
// task_replay.h, loop_replay.h), --no-loop-replay every loop iteration. The
// check stops with
// a located error when it would use more memory than SIZE (default 4G; K, M,
// G, T suffixes; 0: no limit) or run longer than SECONDS (default 600; 0: no
// limit): compiler/sync/budget.h.
// Exit codes: 0 no hazard (or printed), 1 a hazard or a parse error (reported
// as `file:line:col: error: ...` with notes), 2 bad usage or unreadable file.
#include "compiler/support/byte_size.h"
#include "compiler/sync/check.h"
#include "compiler/sync/text_format.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace exgc::sync;

namespace {

const char *const kUsage =
    "usage: exg-sync [--engine=fast|oracle] [--print] [--no-explain] [--no-replay]\n"
    "                [--no-loop-replay] [--stats] [--max-check-memory=SIZE]\n"
    "                [--max-check-time=SECONDS] FILE\n";

// A non-negative decimal number of seconds, at most a year.
bool parse_seconds(const std::string &text, double &seconds) {
  if (text.empty() || text.size() > 12 ||
      text.find_first_not_of("0123456789.") != std::string::npos ||
      text.find('.') != text.rfind('.') || text == ".")
    return false;
  seconds = std::stod(text);
  return seconds <= 365.0 * 24 * 3600;
}

int usage(const std::string &why) {
  std::cerr << "exg-sync: error: " << why << "\n" << kUsage;
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::string file;
  bool print = false, stats = false;
  CheckOptions opts;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--print")
      print = true;
    else if (a == "--stats")
      stats = true;
    else if (a == "--no-explain")
      opts.explain = false;
    else if (a == "--no-replay")
      opts.replay_tasks = opts.replay_loops = false;
    else if (a == "--no-loop-replay")
      opts.replay_loops = false;
    else if (a == "--engine=fast")
      opts.engine = EngineKind::Fast;
    else if (a == "--engine=oracle")
      opts.engine = EngineKind::Oracle;
    else if (a.rfind("--max-check-memory=", 0) == 0) {
      if (!exgc::parse_byte_size(a.substr(19), opts.budget.max_memory))
        return usage("--max-check-memory wants a size such as 512M or 4G, not '" + a.substr(19) +
                     "'");
    } else if (a.rfind("--max-check-time=", 0) == 0) {
      if (!parse_seconds(a.substr(17), opts.budget.max_seconds))
        return usage("--max-check-time wants a number of seconds, not '" + a.substr(17) + "'");
    } else if (a == "-h" || a == "--help")
      return std::cout << kUsage, 0;
    else if (a.size() > 1 && a[0] == '-' && a != "-")
      return usage("unknown option '" + a + "'");
    else if (!file.empty())
      return usage("more than one input file");
    else
      file = a;
  }
  if (file.empty())
    return usage("no input file");

  std::string text;
  if (file == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
    file = "<stdin>";
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in)
      return usage("cannot read '" + file + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }

  Program prog;
  std::vector<ParseError> errors;
  if (!parse_program(text, file, prog, errors)) {
    for (const ParseError &e : errors)
      std::cerr << e.loc.str() << ": error: " << e.message << "\n";
    return 1;
  }
  if (print) {
    std::cout << print_program(prog);
    return 0;
  }
  CheckResult res = check_program(prog, opts);
  if (stats)
    std::cout << "events=" << res.stats.events << " accesses=" << res.stats.accesses
              << " elements=" << res.stats.elements
              << " replayed_tasks=" << res.stats.replayed_tasks
              << " replayed_iterations=" << res.stats.replayed_iterations << "\n";
  if (res.ok)
    return 0;
  std::cerr << format_hazard(res.hazard, file);
  return 1;
}
