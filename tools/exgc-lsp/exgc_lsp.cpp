// exgc_lsp.cpp - exgc-lsp, the language server for .exg files ---------------//
//
// Speaks the Language Server Protocol on standard input and output: JSON-RPC
// messages framed by a `Content-Length: N` header and a blank line
// (transport.h reads them; whatever the bytes, it answers or skips). Options:
// `-I DIR` (import search path, repeatable) and `--stdlib-dir=DIR`, also
// settable by the client as initializationOptions {includeDirs, stdlibDir}.
// Logs go to standard error. Exit codes: 0 after `shutdown` then `exit`,
// 1 when the input ends or `exit` comes without `shutdown`, 2 bad usage.
#include <cerrno>
#include <csignal>
#include <iostream>
#include <mutex>
#include <string>
#include <unistd.h>

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "tools/exgc-lsp/server.h"
#include "tools/exgc-lsp/transport.h"

using namespace llvm;

namespace {

cl::OptionCategory Category("exgc-lsp options");
cl::list<std::string> IncludeDirs("I", cl::desc("Add a directory to the import search path"),
                                  cl::value_desc("dir"), cl::Prefix, cl::cat(Category));
cl::opt<std::string> StdlibDir("stdlib-dir", cl::desc("Use this stdlib folder"),
                               cl::value_desc("dir"), cl::cat(Category));

/// Writes one message; replies of the reading thread and diagnostics of
/// the checking thread take turns.
void write_message(const json::Value &v) {
  static std::mutex mu;
  std::string body;
  raw_string_ostream os(body);
  os << v;
  os.flush();
  std::lock_guard<std::mutex> lock(mu);
  std::cout << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  std::cout.flush();
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &os) { os << "exgc-lsp " << EXGC_VERSION << "\n"; });
  if (!cl::ParseCommandLineOptions(argc, argv, "exgc-lsp: language server for .exg files\n"))
    return 2;
  std::ios::sync_with_stdio(false);
  // A client that closed its end makes writes fail, not the process die.
  std::signal(SIGPIPE, SIG_IGN);
  exgc::lsp::ServerOptions opts;
  opts.include_dirs.assign(IncludeDirs.begin(), IncludeDirs.end());
  opts.stdlib_dir = StdlibDir;
  exgc::lsp::Server server(opts, write_message);
  exgc::lsp::FrameReader reader;
  // Handles what the bytes so far make; false after `exit`.
  auto drain = [&] {
    while (std::optional<exgc::lsp::Frame> frame = reader.next()) {
      exgc::lsp::Incoming in = exgc::lsp::decode(*frame);
      if (in.reply) {
        errs() << "exgc-lsp: bad message, answered " << *in.reply << "\n";
        write_message(*in.reply);
      }
      if (in.message && !server.handle(*in.message))
        return false;
    }
    return true;
  };
  std::vector<char> buf(1 << 16);
  while (true) {
    ssize_t n = read(STDIN_FILENO, buf.data(), buf.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    reader.feed(std::string_view(buf.data(), static_cast<size_t>(n)));
    if (!drain())
      return server.exit_code;
  }
  reader.finish();
  if (!drain())
    return server.exit_code;
  return 1;
}
