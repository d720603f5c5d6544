// command_line.cpp - the exgc command line ----------------------------------//
//
// exgc compiles a .exg module into CUDA C++ (k.cu and k.h), or into
// a CPU reference of the procs' sequential meaning (--emit=cpp), or prints it
// back (--emit=exg).
//
// Exit codes: 0 success (warnings allowed), 1 errors in the input (reported
// as file:line:col diagnostics), 2 bad usage, 3 internal error (a bug in exgc).
// exgc_main is main() less the process: the driver fuzz target calls it too.
#include "tools/exgc/command_line.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "compiler/support/big_stack.h"
#include "compiler/support/byte_size.h"
#include "compiler/support/install_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "tools/exgc/diag_options.h"
#include "tools/exgc/driver.h"
#include "tools/exgc/help.h"
#include "compiler/support/did_you_mean.h"

using namespace llvm;

namespace {

cl::OptionCategory Category("exgc options");

cl::opt<std::string> Input(cl::Positional, cl::desc("<input.exg>"), cl::cat(Category));
// -o FILE, -oFILE; -e, -I, -D, -MF likewise (cl::Prefix: the value may be glued on).
cl::opt<std::string> Output("o", cl::desc("Output file ('-' for standard output). Default: the "
                                          "input's name with .cu, .cpp or standard output for exg"),
                            cl::value_desc("file"), cl::Prefix, cl::cat(Category));
// Order matters only for --help, which lists them as written.
cl::opt<exgc::EmitKind> Emit(
    "emit", cl::desc("What to write"), cl::init(exgc::EmitKind::Cuda),
    cl::values(clEnumValN(exgc::EmitKind::Cuda, "cu",
                          "CUDA C++: file.cu and file.h (for sm_90a when it uses Hopper "
                          "instructions, else sm_75 on)"),
               clEnumValN(exgc::EmitKind::Cpp, "cpp", "CPU reference C++ of the sequential meaning"),
               clEnumValN(exgc::EmitKind::Exg, "exg", "the module printed back as .exg"),
               clEnumValN(exgc::EmitKind::Difftest, "difftest",
                          "a C++ program testing every schedule step against its input"),
               clEnumValN(exgc::EmitKind::Runall, "runall",
                          "a C++ program running every proc's CPU reference at admissible sizes"),
               clEnumValN(exgc::EmitKind::Sync, "sync",
                          "the sync program of each 'check' (the checker's text form), after "
                          "running it")),
    cl::cat(Category));
cl::list<std::string> IncludeDirs("I", cl::desc("Add a directory to the import search path"),
                                  cl::value_desc("dir"), cl::Prefix, cl::cat(Category));
cl::list<std::string> Entries("e", cl::desc("Compile only this proc (repeatable); with "
                                            "--emit=exg, print it as its schedule made it"),
                              cl::value_desc("name"), cl::Prefix, cl::cat(Category));
cl::list<std::string> Defines(
    "D",
    cl::desc("Set the module's top-level value NAME (a line 'NAME = ...') to VALUE, read as the "
             "type it has there: an integer, True/False or a string (repeatable)"),
    cl::value_desc("name=value"), cl::Prefix, cl::cat(Category));
cl::list<std::string> WarningFlags(
    "W",
    cl::desc("-Werror: make every warning an error; -Wno-KIND: drop the warnings of KIND (the "
             "name in [...] or 'kind' of JSON diagnostics, e.g. -Wno-SyncNotVerified)"),
    cl::value_desc("error, -Wno-<kind>"), cl::AlwaysPrefix, cl::cat(Category));
cl::opt<std::string> FunctionPrefix(
    "function-prefix",
    cl::desc("Name each generated entry point PREFIX<proc> (--emit=cu and cpp), so that two "
             "libraries of one module link into one program"),
    cl::value_desc("prefix"), cl::cat(Category));
cl::opt<std::string> Namespace(
    "namespace",
    cl::desc("Declare the generated entry points in this C++ namespace (a or a::b) instead of "
             "extern \"C\" (--emit=cu and cpp)"),
    cl::value_desc("ns"), cl::cat(Category));
cl::opt<std::string> StdlibDir("stdlib-dir", cl::desc("Use this stdlib folder"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<exgc::DiagFormat> Diagnostics(
    "diagnostics", cl::desc("How to print diagnostics"), cl::init(exgc::DiagFormat::Text),
    cl::values(clEnumValN(exgc::DiagFormat::Text, "text", "file:line:col: error: ... (default)"),
               clEnumValN(exgc::DiagFormat::Json, "json", "a JSON array on standard error"),
               clEnumValN(exgc::DiagFormat::Sarif, "sarif",
                          "a SARIF 2.1.0 log on standard error (code-scanning tools)")),
    cl::cat(Category));
cl::opt<bool> Verify("verify",
                     cl::desc("Run every check (types, bounds, schedules, GPU semantics, "
                              "'check' declarations) and write nothing; exit 0 when all pass"),
                     cl::cat(Category));
cl::opt<bool> RequireCheck(
    "require-check",
    cl::desc("Make a proc with a kernel and no 'check' (or --check-size) an error, not a "
             "warning: for CI, where nothing unverified may be built"),
    cl::cat(Category));
cl::opt<bool> PrintIncludeDir("print-include-dir",
                              cl::desc("Print the directory of exgc's runtime headers and exit"),
                              cl::cat(Category));
cl::opt<bool> Stats("print-stats",
                    cl::desc("Print the time of each stage and the number of solver queries "
                             "to standard error"),
                    cl::cat(Category));
cl::list<std::string> DifftestPairs(
    "difftest-pair",
    cl::desc("With --emit=difftest, also test proc CAND against proc REF (repeatable): a "
             "hand-written version that claims REF's meaning"),
    cl::value_desc("REF:CAND"), cl::cat(Category));
cl::list<std::string> ScriptBudgets(
    "script-budget",
    cl::desc("Raise a limit of schedule scripts: steps=N, values=N (elements of a list or "
             "characters of a string), stmts=N (statements of a proc), history=N (statements "
             "of all the procs a run's steps made); repeatable, comma-separated"),
    cl::value_desc("name=N"), cl::CommaSeparated, cl::cat(Category));
cl::opt<std::string> MaxInputSize(
    "max-input-size",
    cl::desc("Refuse a module file larger than this (K, M, G suffixes; 0: no limit; default 16M)"),
    cl::value_desc("size"), cl::init("16M"), cl::cat(Category));
cl::opt<unsigned> SolverRlimit(
    "solver-rlimit",
    cl::desc("Resource limit of each solver query, in Z3's deterministic units (default: "
             "the calibrated limit, docs/cli.md); a query past it 'could not be proven'"),
    cl::value_desc("N"), cl::init(0), cl::cat(Category));
cl::opt<bool> DepFileWanted("MD",
                            cl::desc("Also write a Make-style dependency file listing the input "
                                     "and every module it imports (FILE.d for -o FILE)"),
                            cl::cat(Category));
cl::opt<std::string> DepFile("MF", cl::desc("With -MD: write the dependency file here"),
                             cl::value_desc("file"), cl::Prefix, cl::cat(Category));
cl::list<std::string> CheckSizes(
    "check-size",
    cl::desc("Check the synchronization of proc NAME at these sizes, instead of its 'check' "
             "declarations (repeatable)"),
    cl::value_desc("NAME:M=1,N=2"), cl::cat(Category));
cl::opt<std::string> MaxCheckMemory(
    "max-check-memory",
    cl::desc("Stop a synchronization check that would use more memory (K, M, G suffixes; 0: no "
             "limit; default 4G)"),
    cl::value_desc("size"), cl::init("4G"), cl::cat(Category));
cl::opt<double> MaxCheckTime(
    "max-check-time",
    cl::desc("Stop a synchronization check after this many seconds (0: no limit; default 600)"),
    cl::value_desc("seconds"), cl::init(600), cl::cat(Category));
cl::opt<exgc::ProgressMode> Progress(
    "progress", cl::desc("A line on standard error while a synchronization check runs"),
    cl::init(exgc::ProgressMode::Auto),
    cl::values(clEnumValN(exgc::ProgressMode::Auto, "auto",
                          "for a check past 1 s: updated in place on a terminal, one line "
                          "otherwise (default)"),
               clEnumValN(exgc::ProgressMode::Always, "always", "one line as each check starts"),
               clEnumValN(exgc::ProgressMode::Never, "never", "none")),
    cl::cat(Category));
cl::opt<bool> ShowDiagKind("show-diag-kind", cl::desc("Append [Kind] to each diagnostic (tests)"),
                           cl::Hidden, cl::cat(Category));

/// `NAME:M=1,N=-2` -> {NAME, {{M, 1}, {N, -2}}}.
bool parse_check_size(const std::string &text, exgc::DriverOptions::CheckSize &out,
                      std::string &error) {
  size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0) {
    error = "wants the form NAME:M=1,N=2";
    return false;
  }
  out.proc = text.substr(0, colon);
  std::string rest = text.substr(colon + 1);
  size_t start = 0;
  while (start <= rest.size()) {
    size_t comma = rest.find(',', start);
    std::string item = rest.substr(start, comma == std::string::npos ? comma : comma - start);
    size_t eq = item.find('=');
    const char *digits = eq == std::string::npos ? "" : item.c_str() + eq + 1;
    char *end = nullptr;
    errno = 0;
    long long v = std::strtoll(digits, &end, 10);
    if (eq == std::string::npos || eq == 0 || *digits == 0 || *end != 0 || errno == ERANGE) {
      error = "'" + item + "' is not SIZE=INTEGER";
      return false;
    }
    out.sizes.push_back({item.substr(0, eq), static_cast<int64_t>(v)});
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return true;
}

/// The options exgc reads before LLVM's parser sees the rest: --help (its
/// own listing, help.h) and --color (LLVM's Support library may register an
/// option of that name itself).
struct EarlyOptions {
  bool help = false;
  bool color_given = false;
  std::string color;
  std::vector<const char *> rest; // argv without them
};

EarlyOptions take_early_options(int argc, const char *const *argv) {
  EarlyOptions e;
  bool operands = false; // after "--" every argument is an operand
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    operands |= a == "--";
    std::string bare = a.rfind("--", 0) == 0 ? a.substr(2) : a.substr(a[0] == '-');
    if (i > 0 && !operands && a[0] == '-' && (bare == "help" || a == "-h")) {
      e.help = true;
      continue;
    }
    if (i > 0 && !operands && a[0] == '-' && (bare == "color" || bare.rfind("color=", 0) == 0)) {
      e.color_given = true;
      e.color = bare.size() > 6 ? bare.substr(6) : "";
      continue;
    }
    e.rest.push_back(argv[i]);
  }
  return e;
}

void print_exgc_help() {
  exgc::print_help(std::cout, Category,
             {{&Emit, &Emit.getParser()}, {&Diagnostics, &Diagnostics.getParser()}},
             {{"--color[=<when>]",
               "Colour text diagnostics as clang does: auto (the default: only when standard "
               "error is a terminal and NO_COLOR is unset), always (also --color alone) or "
               "never"},
              {"--help", "Print this list and exit"},
              {"--version", "Print the version and exit"}});
}

/// `-D NAME=VALUE` -> {NAME, VALUE}; false for a text with no name.
bool parse_define(const std::string &text, std::pair<std::string, std::string> &out) {
  size_t eq = text.find('=');
  if (eq == 0 || eq == std::string::npos)
    return false;
  out = {text.substr(0, eq), text.substr(eq + 1)};
  return true;
}

} // namespace

int exgc_main(int argc, const char *const *argv) {
  cl::ResetAllOptionOccurrences();
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &os) { os << "exgc " << EXGC_VERSION << "\n"; });
  EarlyOptions early = take_early_options(argc, argv);
  if (early.help) {
    print_exgc_help();
    return 0;
  }
  std::string errors;
  raw_string_ostream err_stream(errors);
  if (!cl::ParseCommandLineOptions(static_cast<int>(early.rest.size()), early.rest.data(),
                                   "exgc: compile .exg GPU kernels\n", &err_stream)) {
    err_stream.flush();
    std::cerr << errors << "exgc: see 'exgc --help'\n";
    return 2;
  }
  if (PrintIncludeDir) {
    std::cout << exgc::runtime_include_dir() << "\n";
    return 0;
  }
  if (Input.empty()) {
    std::cerr << "exgc: error: no input file; usage: exgc <input.exg> [-o <output>]\n";
    return 2;
  }
  if (Output == "-" && Emit == exgc::EmitKind::Cuda) {
    std::cerr << "exgc: error: '-o -' needs --emit=cpp or --emit=exg (CUDA output is two files)\n";
    return 2;
  }

  std::string dep_file = DepFile;
  if (!DepFile.empty() && !DepFileWanted) {
    std::cerr << "exgc: error: '-MF' needs '-MD'\n";
    return 2;
  }
  if (DepFileWanted && dep_file.empty()) {
    if (Output.empty() || Output == "-") {
      std::cerr << "exgc: error: '-MD' needs '-MF FILE' or '-o FILE' (it writes FILE.d)\n";
      return 2;
    }
    dep_file = Output + ".d";
  }
  if (DepFileWanted && (Verify || Emit == exgc::EmitKind::Exg)) {
    std::cerr << "exgc: error: '-MD' needs a compilation that writes code (not --verify or "
                 "--emit=exg)\n";
    return 2;
  }

  for (const std::string &pair : DifftestPairs) {
    size_t colon = pair.find(':');
    if (Emit != exgc::EmitKind::Difftest || colon == std::string::npos || colon == 0 ||
        colon + 1 == pair.size()) {
      std::cerr << "exgc: error: '--difftest-pair=" << pair
                << "' needs --emit=difftest and the form REF:CAND\n";
      return 2;
    }
  }

  struct {
    exgc::DriverOptions opts;
    int rc = 0;
  } job;
  job.opts.input = Input;
  job.opts.output = Output;
  job.opts.emit = Emit;
  job.opts.include_dirs.assign(IncludeDirs.begin(), IncludeDirs.end());
  job.opts.entry_procs.assign(Entries.begin(), Entries.end());
  job.opts.entries = {FunctionPrefix, Namespace};
  job.opts.stdlib_dir = StdlibDir;
  job.opts.diag_format = Diagnostics;
  job.opts.progress = Progress;
  job.opts.show_diag_kind = ShowDiagKind;
  std::string usage_error;
  if (!exgc::parse_color(early.color_given, early.color, job.opts.color, usage_error) ||
      !exgc::parse_warning_flags(WarningFlags, job.opts.warnings, usage_error)) {
    std::cerr << "exgc: error: " << usage_error << "\n";
    return 2;
  }
  for (const std::string &d : Defines) {
    std::pair<std::string, std::string> define;
    if (!parse_define(d, define)) {
      std::cerr << "exgc: error: '-D " << d << "' wants the form NAME=VALUE\n";
      return 2;
    }
    job.opts.value_overrides.push_back(std::move(define));
  }
  job.opts.stats = Stats;
  job.opts.verify = Verify;
  job.opts.report_checks = Verify;
  job.opts.require_check = RequireCheck;
  job.opts.solver_rlimit = SolverRlimit;
  job.opts.dep_file = dep_file;
  job.opts.difftest_pairs.assign(DifftestPairs.begin(), DifftestPairs.end());
  if (!exgc::parse_byte_size(MaxInputSize, job.opts.max_input_bytes)) {
    std::cerr << "exgc: error: --max-input-size wants a size such as 16M, not '" << MaxInputSize
              << "'\n";
    return 2;
  }
  for (const std::string &c : CheckSizes) {
    std::string error;
    exgc::DriverOptions::CheckSize cs;
    if (!parse_check_size(c, cs, error)) {
      std::cerr << "exgc: error: --check-size=" << c << ": " << error << "\n";
      return 2;
    }
    job.opts.check_sizes.push_back(std::move(cs));
  }
  if (!exgc::parse_byte_size(MaxCheckMemory, job.opts.check_budget.max_memory)) {
    std::cerr << "exgc: error: --max-check-memory wants a size such as 512M or 4G, not '"
              << MaxCheckMemory << "'\n";
    return 2;
  }
  if (!(MaxCheckTime >= 0 && MaxCheckTime <= 31536000)) {
    std::cerr << "exgc: error: --max-check-time wants seconds from 0 to a year\n";
    return 2;
  }
  job.opts.check_budget.max_seconds = MaxCheckTime;
  for (const std::string &b : ScriptBudgets) {
    std::string error;
    if (!job.opts.script_budget.set(b, error)) {
      std::cerr << "exgc: error: --script-budget: " << error << "\n";
      return 2;
    }
  }

  // Deeply nested input (long operator chains) recurses deeply in every tree
  // walk; the parser separately rejects bracket nesting past a fixed depth.
  exgc::run_on_big_stack([&] { job.rc = exgc::run_driver(job.opts); });
  return job.rc;
}
