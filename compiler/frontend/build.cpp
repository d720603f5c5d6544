// build.cpp - parse tree -> Module: declarations and shared helpers --------//
#include "compiler/frontend/build.h"

#include <map>

#include "compiler/frontend/build_internal.h"

namespace exgc {

namespace build_detail {

std::string text_of(antlr4::tree::TerminalNode *n) { return n ? n->getText() : ""; }

std::string source_text(const parse::ParsedFile &pf, antlr4::ParserRuleContext *c) {
  antlr4::Token *a = c->getStart(), *b = c->getStop();
  if (!a || !b || b->getStopIndex() < a->getStartIndex() || b->getStopIndex() == INVALID_INDEX)
    return c->getText();
  std::string s = pf.input->getText(antlr4::misc::Interval(a->getStartIndex(), b->getStopIndex()));
  for (char &ch : s)
    if (ch == '\n' || ch == '\r')
      ch = ' ';
  if (s.size() > 40) {
    size_t cut = 37;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
      --cut; // never split a UTF-8 sequence
    s = s.substr(0, cut) + "...";
  }
  return s;
}

P::ExprContext *strip_parens(P::ExprContext *e) {
  for (;;) {
    auto *a = dynamic_cast<P::AtomExprContext *>(e);
    if (!a)
      return e;
    auto *p = dynamic_cast<P::ParenAtomContext *>(a->atom());
    if (!p)
      return e;
    e = p->expr();
  }
}

std::string bare_name(P::ExprContext *e) {
  auto *a = dynamic_cast<P::AtomExprContext *>(strip_parens(e));
  if (!a)
    return "";
  auto *n = dynamic_cast<P::NameAtomContext *>(a->atom());
  return n ? text_of(n->NAME()) : "";
}

std::string dotted_name(P::ExprContext *e) {
  std::string suffix;
  while (auto *at = dynamic_cast<P::AttrExprContext *>(e)) {
    suffix = "." + text_of(at->NAME()) + suffix;
    e = at->expr();
  }
  std::string head = bare_name(e);
  // Parentheses are grouping, not part of a qualified name: `(a).b` is not one.
  if (head.empty() || strip_parens(e) != e)
    return "";
  return head + suffix;
}

bool parse_int(const std::string &digits, int64_t &out) {
  const int64_t max = INT64_MAX;
  int64_t v = 0;
  for (char c : digits) {
    int d = c - '0';
    if (v > (max - d) / 10)
      return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

std::string unquote(const std::string &lit) {
  std::string out;
  for (size_t i = 1; i + 1 < lit.size(); ++i) {
    char c = lit[i];
    if (c != '\\' || i + 2 >= lit.size()) {
      out += c;
      continue;
    }
    char n = lit[++i];
    switch (n) {
    case 'n': out += '\n'; break;
    case 't': out += '\t'; break;
    default: out += n; break; // \\ \" \' and anything else: the character itself
    }
  }
  return out;
}

CallArgs split_args(P::ArgsContext *args, const parse::ParsedFile &pf, DiagEngine &diag) {
  CallArgs out;
  if (!args)
    return out;
  for (P::ArgContext *a : args->arg()) {
    if (auto *kw = dynamic_cast<P::KwArgContext *>(a)) {
      out.kw.push_back({kw->NAME(), kw->expr()});
      continue;
    }
    auto *pos = dynamic_cast<P::PosArgContext *>(a);
    if (!out.kw.empty())
      fail(diag, pf.loc(pos), DiagKind::PositionalAfterKeyword);
    out.pos.push_back(pos->expr());
  }
  return out;
}

void reject_chained_comparison(P::CmpExprContext *c, const parse::ParsedFile &pf,
                               DiagEngine &diag) {
  // Only an unparenthesized comparison operand chains: `(a < b) < c` is explicit.
  if (dynamic_cast<P::CmpExprContext *>(c->expr(0)))
    fail(diag, pf.loc(c), DiagKind::NotSupportedYet,
         "a chained comparison ('" + source_text(pf, c) + "')");
}

bool is_attr_key(const std::string &key) {
  static const char *const keys[] = {"template",      "collective",  "timeline", "out_of_order",
                                     "out_of_bounds", "distributed", "barrier",  "emit",
                                     "atomic"};
  for (const char *k : keys)
    if (key == k)
      return true;
  return false;
}

} // namespace build_detail

namespace {

using namespace build_detail;

class ModuleBuilder {
public:
  ModuleBuilder(const parse::ParsedFile &pf, DiagEngine &diag, Module &m)
      : pf_(pf), diag_(diag), m_(m) {}

  void build(P::File_Context *f) {
    for (P::DeclContext *d : f->decl()) {
      try {
        decl(d);
      } catch (const BuildAbort &) {
        // Reported; go on with the next declaration.
      }
    }
  }

private:
  void decl(P::DeclContext *d) {
    if (auto *i = d->importDecl())
      return import_decl(i);
    if (auto *e = d->exportDecl())
      return export_decl(e);
    if (auto *c = d->checkDecl())
      return check_decl(c);
    if (auto *p = d->procDecl()) {
      define(p->NAME());
      m_.decls.push_back(build_proc(p, pf_, diag_));
      return;
    }
    if (auto *df = d->defDecl())
      return def_decl(df);
    if (auto *s = d->scheduleDecl())
      return schedule_decl(s);
    if (auto *v = d->valueDecl())
      return value_decl(v);
  }

  /// Procs, instrs, defs and schedules share one namespace per module: a
  /// script can name any of them.
  void define(antlr4::tree::TerminalNode *name) {
    std::string n = text_of(name);
    SrcLoc loc = pf_.loc(name->getSymbol());
    auto [it, fresh] = defined_.emplace(n, loc);
    if (!fresh) {
      diag_.report(loc, DiagKind::DuplicateDefinition, n)
          .note(it->second, "'" + n + "' was first defined here");
      throw BuildAbort{};
    }
  }

  static std::string dotted(P::DottedNameContext *d) {
    std::string s;
    for (auto *n : d->NAME())
      s += (s.empty() ? "" : ".") + text_of(n);
    return s;
  }

  void import_decl(P::ImportDeclContext *i) {
    ImportDecl d;
    for (auto *n : i->dottedName()->NAME())
      d.path.push_back(text_of(n));
    d.alias = text_of(i->NAME());
    d.loc = pf_.loc(i);
    m_.decls.push_back(std::move(d));
  }

  void export_decl(P::ExportDeclContext *e) {
    ExportDecl d;
    for (auto *n : e->NAME()) {
      d.names.push_back(text_of(n));
      d.locs.push_back(pf_.loc(n->getSymbol()));
    }
    d.loc = pf_.loc(e);
    m_.decls.push_back(std::move(d));
  }

  void check_decl(P::CheckDeclContext *c) {
    CheckDecl d;
    d.proc = dotted(c->dottedName());
    d.loc = pf_.loc(c);
    CallArgs args = split_args(c->args(), pf_, diag_);
    if (!args.pos.empty())
      fail(diag_, pf_.loc(args.pos[0]), DiagKind::BadCheckSize, d.proc);
    std::map<std::string, SrcLoc> seen;
    for (auto &[key, value] : args.kw) {
      std::string k = text_of(key);
      SrcLoc kloc = pf_.loc(key->getSymbol());
      if (!seen.emplace(k, kloc).second)
        fail(diag_, kloc, DiagKind::DuplicateKeywordArg, k);
      P::ExprContext *v = strip_parens(value);
      bool neg = false;
      if (auto *n = dynamic_cast<P::NegExprContext *>(v)) {
        neg = true;
        v = strip_parens(n->expr());
      }
      auto *a = dynamic_cast<P::AtomExprContext *>(v);
      // A bool control argument takes True or False (1 or 0).
      if (a && !neg && (dynamic_cast<P::TrueAtomContext *>(a->atom()) ||
                        dynamic_cast<P::FalseAtomContext *>(a->atom()))) {
        bool t = dynamic_cast<P::TrueAtomContext *>(a->atom()) != nullptr;
        d.sizes.push_back({k, IntImm::make(t ? 1 : 0, pf_.loc(value)), kloc});
        continue;
      }
      auto *lit = a ? dynamic_cast<P::IntAtomContext *>(a->atom()) : nullptr;
      if (!lit)
        fail(diag_, pf_.loc(value), DiagKind::BadCheckSize, d.proc);
      int64_t x;
      if (!parse_int(lit->getText(), x))
        fail(diag_, pf_.loc(lit), DiagKind::IntegerTooLarge, lit->getText());
      d.sizes.push_back({k, IntImm::make(neg ? -x : x, pf_.loc(value)), kloc});
    }
    m_.decls.push_back(std::move(d));
  }

  void def_decl(P::DefDeclContext *df) {
    std::vector<antlr4::tree::TerminalNode *> names = df->NAME();
    define(names[0]);
    DefDecl d;
    d.name = text_of(names[0]);
    d.loc = pf_.loc(names[0]->getSymbol());
    std::map<std::string, SrcLoc> seen;
    for (size_t i = 1; i < names.size(); ++i) {
      std::string p = text_of(names[i]);
      SrcLoc ploc = pf_.loc(names[i]->getSymbol());
      auto [it, fresh] = seen.emplace(p, ploc);
      if (!fresh) {
        diag_.report(ploc, DiagKind::DuplicateArgument, p)
            .note(it->second, "'" + p + "' was first declared here");
        throw BuildAbort{};
      }
      d.params.push_back(p);
    }
    d.body = build_script_suite(df->suite(), pf_, diag_);
    m_.decls.push_back(std::move(d));
  }

  void schedule_decl(P::ScheduleDeclContext *s) {
    define(s->NAME());
    ScheduleDecl d;
    d.name = text_of(s->NAME());
    d.loc = pf_.loc(s->NAME()->getSymbol());
    d.from = dotted(s->dottedName());
    d.from_loc = pf_.loc(s->dottedName());
    d.body = build_script_suite(s->suite(), pf_, diag_);
    m_.decls.push_back(std::move(d));
  }

  void value_decl(P::ValueDeclContext *v) {
    define(v->NAME());
    ValueDecl d;
    d.name = text_of(v->NAME());
    d.loc = pf_.loc(v->NAME()->getSymbol());
    d.value = build_script_expr(v->expr(), pf_, diag_);
    m_.decls.push_back(std::move(d));
  }

  const parse::ParsedFile &pf_;
  DiagEngine &diag_;
  Module &m_;
  std::map<std::string, SrcLoc> defined_;
};

} // namespace

std::optional<Module> parse_module(uint32_t file, SourceManager &sources, DiagEngine &diag) {
  unsigned errors_before = diag.num_errors();
  std::unique_ptr<parse::ParsedFile> pf = parse::parse_file(file, sources, diag);
  if (!pf)
    return std::nullopt;
  Module m;
  m.path = sources.name(file);
  m.file = file;
  ModuleBuilder(*pf, diag, m).build(pf->tree);
  if (diag.num_errors() != errors_before)
    return std::nullopt;
  return m;
}

} // namespace exgc
