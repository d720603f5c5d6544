// server.cpp - LSP methods over the exgc pipeline ---------------------------//
#include "tools/exgc-lsp/server.h"

#include <filesystem>

#include "compiler/support/big_stack.h"
#include "compiler/support/file_uri.h"

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

// LSP's SymbolKind and CompletionItemKind numbers.
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
  return json::Object{{"start", position(first1, 1)}, {"end", json::Object{{"line", last1 - 1}, {"character", 0}}}};
}

} // namespace

std::string path_to_uri(const std::string &path) {
  return file_uri(fs::absolute(path).lexically_normal().string());
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
    notification(method, *params);
    return true;
  }
  bool known = true;
  json::Value result = request(method, *params, known);
  if (!known) {
    send_(json::Object{{"jsonrpc", "2.0"}, {"id", *id},
                       {"error", json::Object{{"code", -32601}, {"message", "unknown method '" + method + "'"}}}});
    return true;
  }
  send_(json::Object{{"jsonrpc", "2.0"}, {"id", *id}, {"result", std::move(result)}});
  return true;
}

json::Value Server::request(const std::string &method, const json::Object &params, bool &known) {
  if (method == "initialize") {
    if (const json::Object *init = params.getObject("initializationOptions")) {
      if (const json::Array *dirs = init->getArray("includeDirs"))
        for (const json::Value &d : *dirs)
          if (auto s = d.getAsString())
            opts_.include_dirs.push_back(s->str());
      if (auto s = init->getString("stdlibDir"))
        opts_.stdlib_dir = s->str();
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
  if (method == "textDocument/hover" || method == "textDocument/definition") {
    Document *doc = document(params);
    const json::Object *pos = params.getObject("position");
    if (!doc || !doc->index || !pos)
      return nullptr;
    uint32_t line = static_cast<uint32_t>(pos->getInteger("line").getValueOr(0)) + 1;
    uint32_t col = static_cast<uint32_t>(pos->getInteger("character").getValueOr(0)) + 1;
    std::string text = line_of(*doc, line - 1);
    if (method == "textDocument/hover") {
      std::string md = doc->index->hover(text, line, col);
      if (md.empty())
        return nullptr;
      return json::Object{{"contents", json::Object{{"kind", "markdown"}, {"value", md}}}};
    }
    const Definition *def = doc->index->find(text, line, col);
    if (!def || def->place.file.empty())
      return nullptr;
    std::string def_line;
    if (canonical(def->place.file) == canonical(doc->path))
      def_line = line_of(*doc, def->place.line - 1);
    return json::Object{{"uri", path_to_uri(def->place.file)},
                        {"range", range_at(def_line, def->place.line, def->place.col)}};
  }
  if (method == "textDocument/documentSymbol") {
    Document *doc = document(params);
    json::Array out;
    if (doc && doc->index)
      for (const OutlineEntry &e : doc->index->outline())
        out.push_back(json::Object{{"name", e.name},
                                   {"detail", e.detail},
                                   {"kind", symbol_kind(e.kind)},
                                   {"range", full_line(e.first_line, e.last_line + 1)},
                                   {"selectionRange", full_line(e.first_line, e.first_line + 1)}});
    return out;
  }
  if (method == "textDocument/completion") {
    json::Array items;
    for (const Completion &c : completions())
      items.push_back(json::Object{{"label", c.label},
                                   {"kind", c.is_memory ? 21 : 3}, // Constant, Function
                                   {"detail", c.detail}});
    return json::Object{{"isIncomplete", false}, {"items", std::move(items)}};
  }
  known = false;
  return nullptr;
}

void Server::notification(const std::string &method, const json::Object &params) {
  const json::Object *td = params.getObject("textDocument");
  if (!td)
    return;
  std::string uri = td->getString("uri").getValueOr("").str();
  if (method == "textDocument/didOpen") {
    Document &doc = docs_[uri];
    doc.uri = uri;
    doc.path = file_uri_to_path(uri);
    doc.text = td->getString("text").getValueOr("").str();
    check(doc);
  } else if (method == "textDocument/didChange") {
    auto it = docs_.find(uri);
    const json::Array *changes = params.getArray("contentChanges");
    if (it == docs_.end() || !changes || changes->empty())
      return;
    // Full-text sync: the last change is the whole document.
    if (const json::Object *last = changes->back().getAsObject())
      it->second.text = last->getString("text").getValueOr("").str();
    check(it->second);
  } else if (method == "textDocument/didSave") {
    auto it = docs_.find(uri);
    if (it != docs_.end())
      check(it->second);
  } else if (method == "textDocument/didClose") {
    docs_.erase(uri);
    send_(json::Object{{"jsonrpc", "2.0"},
                       {"method", "textDocument/publishDiagnostics"},
                       {"params", json::Object{{"uri", uri}, {"diagnostics", json::Array{}}}}});
  }
}

Server::Document *Server::document(const json::Object &params) {
  const json::Object *td = params.getObject("textDocument");
  if (!td)
    return nullptr;
  auto it = docs_.find(td->getString("uri").getValueOr("").str());
  return it == docs_.end() ? nullptr : &it->second;
}

std::string Server::line_of(const Document &doc, uint32_t line0) const {
  size_t begin = 0;
  for (uint32_t i = 0; i < line0; ++i) {
    begin = doc.text.find('\n', begin);
    if (begin == std::string::npos)
      return "";
    ++begin;
  }
  size_t end = doc.text.find('\n', begin);
  return doc.text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

void Server::check(Document &doc) {
  DriverOptions opts;
  opts.input = doc.path;
  opts.include_dirs = opts_.include_dirs;
  // `import m` finds m.exg beside the document, as `-I <its folder>` would.
  opts.include_dirs.push_back(fs::path(doc.path).parent_path().string());
  opts.stdlib_dir = opts_.stdlib_dir;
  for (const auto &[uri, open] : docs_)
    opts.unsaved[canonical(open.path)] = open.text;
  std::unique_ptr<CheckedProgram> checked;
  run_on_big_stack([&] { checked = check_program(opts); });
  if (checked->program)
    doc.index = std::make_unique<SymbolIndex>(*checked, doc.path);

  json::Array diags;
  const SourceManager &sm = checked->sources;
  std::string here = canonical(doc.path);
  for (const Diagnostic &d : checked->diag.diagnostics()) {
    bool local = d.loc.file && canonical(sm.name(d.loc.file)) == here;
    std::string message = d.message;
    json::Object range{{"start", position(1, 1)}, {"end", position(1, 1)}};
    if (local)
      range = range_at(sm.line_text(d.loc.file, d.loc.line), d.loc.line, d.loc.col);
    else if (d.loc.file)
      message = sm.name(d.loc.file) + ":" + std::to_string(d.loc.line) + ":" +
                std::to_string(d.loc.col) + ": " + message;
    json::Array related;
    for (const DiagNote &n : d.notes) {
      if (!n.loc.file) {
        message += "\nnote: " + n.message;
        continue;
      }
      related.push_back(json::Object{
          {"location", json::Object{{"uri", path_to_uri(sm.name(n.loc.file))},
                                    {"range", range_at(sm.line_text(n.loc.file, n.loc.line),
                                                       n.loc.line, n.loc.col)}}},
          {"message", n.message}});
    }
    diags.push_back(json::Object{{"range", std::move(range)},
                                 {"severity", lsp_severity(d.severity)},
                                 {"code", diag_info(d.kind).name},
                                 {"source", "exgc"},
                                 {"message", message},
                                 {"relatedInformation", std::move(related)}});
  }
  send_(json::Object{{"jsonrpc", "2.0"},
                     {"method", "textDocument/publishDiagnostics"},
                     {"params", json::Object{{"uri", doc.uri}, {"diagnostics", std::move(diags)}}}});
}

} // namespace exgc::lsp
