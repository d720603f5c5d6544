// server.cpp - LSP methods over the exgc pipeline ---------------------------//
#include "tools/exgc-lsp/server.h"

#include <filesystem>
#include <iostream>

#include "compiler/support/big_stack.h"
#include "compiler/support/file_uri.h"
#include "tools/exgc-lsp/completion.h"
#include "tools/exgc-lsp/transport.h"

namespace exgc::lsp {

namespace json = llvm::json;
namespace fs = std::filesystem;

namespace {

std::string canonical(const std::string &path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

json::Object position(uint32_t line1, uint32_t col1) {
  return json::Object{{"line", line1 ? line1 - 1 : 0}, {"character", col1 ? col1 - 1 : 0}};
}

/// The range of the word a location points at (one character when none).
json::Object range_at(const std::string &line_text, uint32_t line1, uint32_t col1) {
  size_t len = std::max<size_t>(1, word_at(line_text, col1).size());
  if (col1 && col1 - 1 < line_text.size() && word_at(line_text, col1).empty())
    len = 1;
  return json::Object{{"start", position(line1, col1)},
                      {"end", position(line1, col1 + static_cast<uint32_t>(len))}};
}

int lsp_severity(Severity s) {
  switch (s) {
  case Severity::Error: return 1;
  case Severity::Warning: return 2;
  case Severity::Note: return 3;
  case Severity::Remark: return 4;
  }
  return 1;
}

// LSP's SymbolKind numbers.
int symbol_kind(Definition::Kind k) {
  switch (k) {
  case Definition::Kind::Proc: return 12;     // Function
  case Definition::Kind::Instr: return 25;    // Operator
  case Definition::Kind::Schedule: return 24; // Event
  case Definition::Kind::Def: return 12;
  case Definition::Kind::Module: return 2;    // Module
  case Definition::Kind::Buffer: return 18;   // Array
  case Definition::Kind::Window: return 18;
  case Definition::Kind::Iterator: return 13; // Variable
  }
  return 13;
}

json::Object full_line(uint32_t first1, uint32_t last1) {
  return json::Object{{"start", position(first1, 1)},
                      {"end", json::Object{{"line", last1 - 1}, {"character", 0}}}};
}

std::string line_of(const std::string &text, uint32_t line0) {
  size_t begin = 0;
  for (uint32_t i = 0; i < line0; ++i) {
    begin = text.find('\n', begin);
    if (begin == std::string::npos)
      return "";
    ++begin;
  }
  size_t end = text.find('\n', begin);
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

/// textDocument.uri of a request's params, if it is a string.
std::optional<std::string> uri_of(const json::Object &params) {
  const json::Object *td = params.getObject("textDocument");
  if (!td)
    return std::nullopt;
  if (auto uri = td->getString("uri"))
    return uri->str();
  return std::nullopt;
}

/// A request's position as 1-based line and column; none when it is not
/// two integers in 0 .. 2^31.
bool position_of(const json::Object &params, uint32_t &line, uint32_t &col) {
  const json::Object *pos = params.getObject("position");
  if (!pos)
    return false;
  llvm::Optional<int64_t> l = pos->getInteger("line"), c = pos->getInteger("character");
  const int64_t limit = int64_t(1) << 31;
  if (!l || !c || *l < 0 || *c < 0 || *l >= limit || *c >= limit)
    return false;
  line = static_cast<uint32_t>(*l) + 1;
  col = static_cast<uint32_t>(*c) + 1;
  return true;
}

/// A place of a diagnostic or note: its range when it is in the document,
/// else the document's start and a "file:line:col: " prefix for its message.
struct Where {
  json::Object range;
  std::string prefix;
};
Where where(const SourceManager &sm, SrcLoc loc, const std::string &here) {
  if (loc.file && canonical(sm.name(loc.file)) == here)
    return {range_at(sm.line_text(loc.file, loc.line), loc.line, loc.col), ""};
  json::Object start{{"start", position(1, 1)}, {"end", position(1, 1)}};
  if (!loc.file)
    return {std::move(start), ""};
  return {std::move(start), sm.name(loc.file) + ":" + std::to_string(loc.line) + ":" +
                                std::to_string(loc.col) + ": "};
}

/// The LSP diagnostics of a check of the document at `path`. Notes with a
/// place are related information when the client takes it, else
/// diagnostics of their own (Information) after theirs; notes without one
/// end the message.
json::Array lsp_diagnostics(const CheckedProgram &checked, const std::string &path,
                            bool related_information) {
  json::Array out;
  const SourceManager &sm = checked.sources;
  std::string here = canonical(path);
  for (const Diagnostic &d : checked.diag.diagnostics()) {
    Where w = where(sm, d.loc, here);
    std::string message = w.prefix + d.message;
    json::Array related;
    std::vector<json::Object> separate;
    for (const DiagNote &n : d.notes) {
      if (!n.loc.file) {
        message += "\nnote: " + n.message;
      } else if (related_information) {
        related.push_back(json::Object{
            {"location", json::Object{{"uri", path_to_uri(sm.name(n.loc.file))},
                                      {"range", range_at(sm.line_text(n.loc.file, n.loc.line),
                                                         n.loc.line, n.loc.col)}}},
            {"message", utf8(n.message)}});
      } else {
        Where nw = where(sm, n.loc, here);
        separate.push_back(json::Object{{"range", std::move(nw.range)},
                                        {"severity", lsp_severity(Severity::Note)},
                                        {"code", diag_info(d.kind).name},
                                        {"source", "exgc"},
                                        {"message", utf8("note: " + nw.prefix + n.message)}});
      }
    }
    json::Object diag{{"range", std::move(w.range)},
                      {"severity", lsp_severity(d.severity)},
                      {"code", diag_info(d.kind).name},
                      {"source", "exgc"},
                      {"message", utf8(message)}};
    if (!related.empty())
      diag["relatedInformation"] = std::move(related);
    out.push_back(std::move(diag));
    for (json::Object &s : separate)
      out.push_back(std::move(s));
  }
  return out;
}

} // namespace

std::string path_to_uri(const std::string &path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  return utf8(file_uri((ec ? fs::path(path) : abs).lexically_normal().string()));
}

Server::Server(ServerOptions opts, std::function<void(const json::Value &)> send)
    : opts_(std::move(opts)), send_(std::move(send)) {
  if (opts_.check_documents)
    worker_ = std::thread([this] { worker(); });
}

Server::~Server() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    cancel_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable())
    worker_.join();
}

void Server::send(const json::Value &v) {
  std::lock_guard<std::mutex> lock(send_mu_);
  send_(v);
}

bool Server::handle(const json::Object &msg) {
  std::string method = msg.getString("method").getValueOr("").str();
  const json::Object empty;
  const json::Object *params = msg.getObject("params");
  if (!params)
    params = &empty;
  const json::Value *id = msg.get("id");
  if (!id) {
    if (method == "exit") {
      exit_code = shutdown_ ? 0 : 1;
      return false;
    }
    // Before initialize, notifications are dropped (the protocol says so).
    if (initialized_)
      notification(method, *params);
    return true;
  }
  if (!initialized_ && method != "initialize") {
    send(error_reply(*id, kServerNotInitialized, "the server is not initialized yet"));
    return true;
  }
  if (shutdown_) {
    send(error_reply(*id, kInvalidRequest, "the server was shut down"));
    return true;
  }
  bool known = true;
  int code = 0;
  std::string error;
  json::Value result = request(method, *params, known, code, error);
  if (!known)
    send(error_reply(*id, kMethodNotFound, "unknown method '" + method + "'"));
  else if (code)
    send(error_reply(*id, code, error));
  else
    send(json::Object{{"jsonrpc", "2.0"}, {"id", *id}, {"result", std::move(result)}});
  return true;
}

json::Value Server::request(const std::string &method, const json::Object &params, bool &known,
                            int &error_code, std::string &error) {
  if (method == "initialize") {
    if (initialized_) {
      error_code = kInvalidRequest;
      error = "initialize came twice";
      return nullptr;
    }
    initialized_ = true;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (const json::Object *init = params.getObject("initializationOptions")) {
        if (const json::Array *dirs = init->getArray("includeDirs"))
          for (const json::Value &d : *dirs)
            if (auto s = d.getAsString())
              opts_.include_dirs.push_back(s->str());
        if (auto s = init->getString("stdlibDir"))
          opts_.stdlib_dir = s->str();
      }
      const json::Object *caps = params.getObject("capabilities");
      const json::Object *td = caps ? caps->getObject("textDocument") : nullptr;
      const json::Object *pd = td ? td->getObject("publishDiagnostics") : nullptr;
      related_information_ = pd && pd->getBoolean("relatedInformation").getValueOr(false);
    }
    return json::Object{
        {"capabilities",
         json::Object{{"textDocumentSync", json::Object{{"openClose", true}, {"change", 1}, {"save", true}}},
                      {"hoverProvider", true},
                      {"definitionProvider", true},
                      {"documentSymbolProvider", true},
                      {"completionProvider", json::Object{{"triggerCharacters", json::Array{"@"}}}}}},
        {"serverInfo", json::Object{{"name", "exgc-lsp"}, {"version", EXGC_VERSION}}}};
  }
  if (method == "shutdown") {
    shutdown_ = true;
    return nullptr;
  }
  bool positional = method == "textDocument/hover" || method == "textDocument/definition" ||
                    method == "textDocument/completion";
  if (!positional && method != "textDocument/documentSymbol") {
    known = false;
    return nullptr;
  }
  std::optional<std::string> uri = uri_of(params);
  uint32_t line = 0, col = 0;
  if (!uri || (positional && !position_of(params, line, col))) {
    error_code = kInvalidParams;
    error = positional ? "expected textDocument.uri and position {line, character}"
                       : "expected textDocument.uri";
    return nullptr;
  }
  // What the answer needs, taken under the lock; the answer is made outside it.
  std::shared_ptr<const SymbolIndex> index;
  std::shared_ptr<const std::string> text;
  std::string path;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = docs_.find(*uri);
    if (it == docs_.end())
      return method == "textDocument/completion" || method == "textDocument/documentSymbol"
                 ? json::Value(json::Array{})
                 : json::Value(nullptr);
    index = it->second.index;
    text = it->second.text;
    path = it->second.path;
  }
  if (method == "textDocument/completion") {
    json::Array items;
    for (const Completion &c : complete(*text, line, col, index.get()))
      items.push_back(json::Object{{"label", c.label}, {"kind", c.kind}, {"detail", utf8(c.detail)}});
    return json::Object{{"isIncomplete", false}, {"items", std::move(items)}};
  }
  if (method == "textDocument/documentSymbol") {
    json::Array out;
    if (index)
      for (const OutlineEntry &e : index->outline())
        out.push_back(json::Object{{"name", e.name},
                                   {"detail", e.detail},
                                   {"kind", symbol_kind(e.kind)},
                                   {"range", full_line(e.first_line, e.last_line + 1)},
                                   {"selectionRange", full_line(e.first_line, e.first_line + 1)}});
    return out;
  }
  if (!index)
    return nullptr;
  std::string line_text = line_of(*text, line - 1);
  if (method == "textDocument/hover") {
    std::string md = index->hover(line_text, line, col);
    if (md.empty())
      return nullptr;
    return json::Object{{"contents", json::Object{{"kind", "markdown"}, {"value", utf8(md)}}}};
  }
  const Definition *def = index->find(line_text, line, col);
  if (!def || def->place.file.empty())
    return nullptr;
  std::string def_line;
  if (canonical(def->place.file) == canonical(path))
    def_line = line_of(*text, def->place.line ? def->place.line - 1 : 0);
  return json::Object{{"uri", path_to_uri(def->place.file)},
                      {"range", range_at(def_line, def->place.line, def->place.col)}};
}

void Server::notification(const std::string &method, const json::Object &params) {
  std::optional<std::string> uri = uri_of(params);
  if (!uri)
    return;
  const json::Object *td = params.getObject("textDocument");
  std::optional<int64_t> version;
  if (auto v = td->getInteger("version"))
    version = *v;
  std::lock_guard<std::mutex> lock(mu_);
  if (method == "textDocument/didOpen") {
    Document &doc = docs_[*uri];
    doc.uri = *uri;
    doc.path = file_uri_to_path(*uri);
    doc.text = std::make_shared<const std::string>(td->getString("text").getValueOr("").str());
    doc.version = version;
    changed(doc, Clock::duration::zero());
    return;
  }
  auto it = docs_.find(*uri);
  if (it == docs_.end())
    return;
  Document &doc = it->second;
  if (method == "textDocument/didChange") {
    const json::Array *changes = params.getArray("contentChanges");
    if (!changes)
      return;
    // Full-text sync: the last change with a text is the whole document.
    for (size_t i = changes->size(); i-- > 0;)
      if (const json::Object *change = (*changes)[i].getAsObject())
        if (auto text = change->getString("text")) {
          doc.text = std::make_shared<const std::string>(text->str());
          doc.version = version;
          changed(doc, opts_.debounce);
          return;
        }
  } else if (method == "textDocument/didSave") {
    if (auto text = params.getString("text"))
      doc.text = std::make_shared<const std::string>(text->str());
    changed(doc, Clock::duration::zero());
  } else if (method == "textDocument/didClose") {
    if (checking_ == *uri)
      cancel_ = true;
    docs_.erase(it);
    send(json::Object{{"jsonrpc", "2.0"},
                      {"method", "textDocument/publishDiagnostics"},
                      {"params", json::Object{{"uri", *uri}, {"diagnostics", json::Array{}}}}});
  }
}

void Server::changed(Document &doc, Clock::duration delay) {
  doc.generation = next_generation_++;
  if (!opts_.check_documents)
    return;
  doc.pending = true;
  doc.due = Clock::now() + delay;
  if (checking_ == doc.uri)
    cancel_ = true;
  wake_.notify_all();
}

void Server::worker() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    Document *next = nullptr;
    for (auto &[uri, d] : docs_)
      if (d.pending && (!next || d.due < next->due))
        next = &d;
    if (!next) {
      wake_.wait(lock);
      continue;
    }
    if (Clock::now() < next->due) {
      wake_.wait_until(lock, next->due); // debounce: later edits move `due`
      continue;
    }
    next->pending = false;
    Snapshot snap{next->uri, next->path, next->version, next->generation, {},
                  opts_.include_dirs, opts_.stdlib_dir};
    for (const auto &[uri, open] : docs_)
      snap.unsaved[canonical(open.path)] = *open.text;
    checking_ = snap.uri;
    cancel_ = false;
    lock.unlock();
    check(snap);
    lock.lock();
    checking_.clear();
  }
}

void Server::install_index(const Snapshot &snap, std::shared_ptr<const SymbolIndex> index) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = docs_.find(snap.uri);
  // A later text's index stays; an earlier one gives way even to an index of
  // a check that was then cancelled.
  if (it != docs_.end() && snap.generation >= it->second.index_generation) {
    it->second.index = std::move(index);
    it->second.index_generation = snap.generation;
  }
}

void Server::check(const Snapshot &snap) {
  DriverOptions opts;
  opts.input = snap.path;
  opts.include_dirs = snap.include_dirs;
  // `import m` finds m.exg beside the document, as `-I <its folder>` would.
  opts.include_dirs.push_back(fs::path(snap.path).parent_path().string());
  opts.stdlib_dir = snap.stdlib_dir;
  opts.unsaved = snap.unsaved;
  opts.cancel = &cancel_;
  // The index is ready long before the schedules and checks end.
  opts.on_typechecked = [&](const Program &prog, const SourceManager &sm) {
    install_index(snap, std::make_shared<const SymbolIndex>(prog, sm, snap.path));
  };
  std::unique_ptr<CheckedProgram> checked;
  run_on_big_stack([&] { checked = check_program(opts); });
  if (checked->cancelled) {
    std::cerr << "exgc-lsp: check of " << snap.uri << " cancelled: the document changed\n";
    return;
  }
  if (checked->program)
    install_index(snap, std::make_shared<const SymbolIndex>(*checked->program, checked->sources,
                                                              snap.path));
  std::lock_guard<std::mutex> lock(mu_);
  auto it = docs_.find(snap.uri);
  if (it == docs_.end() || it->second.generation != snap.generation) {
    std::cerr << "exgc-lsp: results of " << snap.uri << " dropped: the document changed\n";
    return;
  }
  json::Object params{{"uri", snap.uri},
                      {"diagnostics", lsp_diagnostics(*checked, snap.path, related_information_)}};
  if (snap.version)
    params["version"] = *snap.version;
  // Under mu_: no later edit or close can come between the test above and this.
  send(json::Object{{"jsonrpc", "2.0"},
                    {"method", "textDocument/publishDiagnostics"},
                    {"params", std::move(params)}});
}

} // namespace exgc::lsp
