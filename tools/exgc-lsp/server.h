// server.h - the exgc language server's requests and notifications --------//
// Owns: the LSP methods exgc-lsp answers (JSON-RPC objects in and out; the
// framing is in transport.h) and when documents are checked. Open documents
// are kept in full (full-text sync). Checks run on one worker thread, one at
// a time, with the --verify pipeline (driver.h: parse, imports, typecheck
// and bounds, schedules and their re-check, GPU semantics); a document is
// checked once it has been quiet for `debounce` after an edit (at once after
// open and save), on a snapshot of its text. An edit during its check
// cancels it (driver.h's cancel flag: at the next stage or script step), and
// the results of a check whose document changed since are dropped, so
// diagnostics are only ever published for the latest version, with that
// version. Requests are answered on the calling thread at once, from the
// document's current text and the last symbol index a check built (at its
// typecheck stage, seconds before the schedules end). Unsaved buffers of
// other open documents are what imports of them read.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "llvm/Support/JSON.h"
#include "tools/exgc-lsp/symbol_index.h"

namespace exgc::lsp {

struct ServerOptions {
  std::vector<std::string> include_dirs; // searched before the document's folder
  std::string stdlib_dir;                // empty: the installed or source-tree stdlib
  /// After an edit, how long a document must stay unchanged before its check.
  std::chrono::milliseconds debounce{250};
  /// False: no worker, no checks (documents are kept and answered from); the
  /// fuzz target of the message layer runs so.
  bool check_documents = true;
};

class Server {
public:
  /// `send` writes one message to the client; the server calls it from its
  /// worker thread too, never from two threads at once.
  Server(ServerOptions opts, std::function<void(const llvm::json::Value &)> send);
  /// Cancels a running check and waits for the worker.
  ~Server();
  Server(const Server &) = delete;
  Server &operator=(const Server &) = delete;

  /// Handles one message (transport.h's decode has checked its method and
  /// id). Returns false after `exit`; `exit_code` is then set.
  bool handle(const llvm::json::Object &msg);
  int exit_code = 0;

private:
  using Clock = std::chrono::steady_clock;
  struct Document {
    std::string uri, path;
    std::shared_ptr<const std::string> text; // shared with requests in flight
    std::optional<int64_t> version; // the client's, of `text`
    uint64_t generation = 0;        // ours, from next_generation_: each open, change, save
    bool pending = false;           // a check is due at `due`
    Clock::time_point due;
    std::shared_ptr<const SymbolIndex> index;
    uint64_t index_generation = 0; // of the text the index was built from
  };
  /// What a check works on: the document as it was when the check began.
  struct Snapshot {
    std::string uri, path;
    std::optional<int64_t> version;
    uint64_t generation;
    std::map<std::string, std::string> unsaved; // every open document, by canonical path
    std::vector<std::string> include_dirs;
    std::string stdlib_dir;
  };

  llvm::json::Value request(const std::string &method, const llvm::json::Object &params,
                            bool &known, int &error_code, std::string &error);
  void notification(const std::string &method, const llvm::json::Object &params);
  /// Schedules a check of `doc` (mu_ held), cancelling one of it in progress.
  void changed(Document &doc, Clock::duration delay);
  void send(const llvm::json::Value &v);
  void worker();
  void check(const Snapshot &snap);
  void install_index(const Snapshot &snap, std::shared_ptr<const SymbolIndex> index);

  ServerOptions opts_;
  std::function<void(const llvm::json::Value &)> send_;
  std::mutex send_mu_; // after mu_ when both are held

  std::mutex mu_; // guards everything below, and opts_ once the worker runs
  std::condition_variable wake_;
  std::map<std::string, Document> docs_; // by URI
  uint64_t next_generation_ = 1;
  std::string checking_;                  // the URI being checked; empty: none
  std::atomic<bool> cancel_{false};       // the running check is stale
  bool stopping_ = false;
  bool initialized_ = false, shutdown_ = false;
  bool related_information_ = false;      // the client takes notes as related information
  std::thread worker_;
};

/// The file:// URI of `path` made absolute (support/file_uri.h encodes it).
std::string path_to_uri(const std::string &path);

} // namespace exgc::lsp
