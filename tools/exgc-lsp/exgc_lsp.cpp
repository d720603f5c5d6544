// exgc_lsp.cpp - exgc-lsp, the language server for .exg files ---------------//
//
// Speaks the Language Server Protocol on standard input and output: JSON-RPC
// messages framed by a `Content-Length: N` header and a blank line. Options:
// `-I DIR` (import search path, repeatable) and `--stdlib-dir=DIR`, also
// settable by the client as initializationOptions {includeDirs, stdlibDir}.
// Logs go to standard error. Exit codes: 0 after `shutdown` then `exit`,
// 1 when the input ends or `exit` comes without `shutdown`, 2 bad usage.
#include <iostream>
#include <string>

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "tools/exgc-lsp/server.h"

using namespace llvm;

namespace {

cl::OptionCategory Category("exgc-lsp options");
cl::list<std::string> IncludeDirs("I", cl::desc("Add a directory to the import search path"),
                                  cl::value_desc("dir"), cl::Prefix, cl::cat(Category));
cl::opt<std::string> StdlibDir("stdlib-dir", cl::desc("Use this stdlib folder"),
                               cl::value_desc("dir"), cl::cat(Category));

/// Reads one framed message body; false at the end of the input or on a
/// header without a length.
bool read_message(std::istream &in, std::string &body) {
  std::string line;
  long length = -1;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty()) {
      if (length < 0)
        continue; // stray blank line between messages
      body.assign(static_cast<size_t>(length), '\0');
      return static_cast<bool>(in.read(body.data(), length));
    }
    const std::string key = "Content-Length:";
    if (line.compare(0, key.size(), key) == 0)
      length = std::stol(line.substr(key.size()));
  }
  return false;
}

void write_message(const json::Value &v) {
  std::string body;
  raw_string_ostream os(body);
  os << v;
  os.flush();
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
  exgc::lsp::ServerOptions opts;
  opts.include_dirs.assign(IncludeDirs.begin(), IncludeDirs.end());
  opts.stdlib_dir = StdlibDir;
  exgc::lsp::Server server(opts, write_message);
  std::string body;
  while (read_message(std::cin, body)) {
    Expected<json::Value> msg = json::parse(body);
    if (!msg) {
      std::cerr << "exgc-lsp: malformed message: " << toString(msg.takeError()) << "\n";
      write_message(json::Object{{"jsonrpc", "2.0"}, {"id", nullptr},
                                 {"error", json::Object{{"code", -32700}, {"message", "parse error"}}}});
      continue;
    }
    const json::Object *obj = msg->getAsObject();
    if (!obj)
      continue;
    if (!server.handle(*obj))
      return server.exit_code;
  }
  return 1;
}
