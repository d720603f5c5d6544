// server.h - the exgc language server's requests and notifications --------//
// Owns: the LSP methods exgc-lsp answers (JSON-RPC objects in and out; the
// framing is in exgc_lsp.cpp). Open documents are kept in full (full-text
// sync); after each open, change or save the document is checked with the
// --verify pipeline (driver.h: parse, imports, typecheck and bounds,
// schedules and their re-check, GPU semantics), its diagnostics are
// published, and its symbol index answers hover, definition, document
// symbols and completion until the next check. Unsaved buffers of other open
// documents are what imports of them read.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "llvm/Support/JSON.h"
#include "tools/exgc-lsp/symbol_index.h"

namespace exgc::lsp {

struct ServerOptions {
  std::vector<std::string> include_dirs; // searched before the document's folder
  std::string stdlib_dir;                // empty: the installed or source-tree stdlib
};

class Server {
public:
  /// `send` writes one message to the client.
  Server(ServerOptions opts, std::function<void(const llvm::json::Value &)> send)
      : opts_(std::move(opts)), send_(std::move(send)) {}

  /// Handles one message. Returns false after `exit`; `exit_code` is then set.
  bool handle(const llvm::json::Object &msg);
  int exit_code = 0;

private:
  struct Document {
    std::string uri, path, text;
    std::unique_ptr<SymbolIndex> index; // of the last check that loaded the file
  };

  llvm::json::Value request(const std::string &method, const llvm::json::Object &params,
                            bool &known);
  void notification(const std::string &method, const llvm::json::Object &params);
  void check(Document &doc);
  Document *document(const llvm::json::Object &params);
  std::string line_of(const Document &doc, uint32_t line0) const;

  ServerOptions opts_;
  std::function<void(const llvm::json::Value &)> send_;
  std::map<std::string, Document> docs_; // by URI
  bool shutdown_ = false;
};

/// The file:// URI of `path` made absolute (support/file_uri.h encodes it).
std::string path_to_uri(const std::string &path);

} // namespace exgc::lsp
