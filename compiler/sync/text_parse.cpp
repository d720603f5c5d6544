// text_parse.cpp - read the text form of sync programs --------------------//
//
// A line-oriented recursive-descent parser: one statement per line, blocks
// opened by a trailing `{` and closed by a line `}` (or `} else {`). Errors
// carry the .sync line:col and stop the parse; nothing here throws out.
#include "compiler/sync/text_format.h"

#include <cctype>

namespace exgc::sync {
namespace {

enum class Tok { Ident, Int, Punct, Loc, Newline, End };

struct Token {
  Tok kind;
  std::string text;
  int64_t value = 0;
  int line = 0, col = 0;
};

struct Failure {
  ParseError err;
};

class Lexer {
public:
  Lexer(const std::string &t, const std::string &f) : text_(t), file_(f) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n')
          adv();
        continue;
      }
      if (c == '\n') {
        out.push_back(tok(Tok::Newline, "\\n"));
        adv();
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        adv();
        continue;
      }
      int l = line_, co = col_;
      if (std::isdigit(static_cast<unsigned char>(c))) {
        std::string s;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
          s += text_[pos_];
          adv();
        }
        Token t{Tok::Int, s, 0, l, co};
        if (s.size() > 18)
          fail(l, co, "integer literal '" + s + "' is too large");
        t.value = std::stoll(s);
        out.push_back(t);
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::string s;
        while (pos_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
          s += text_[pos_];
          adv();
        }
        out.push_back({Tok::Ident, s, 0, l, co});
        continue;
      }
      if (c == '@') {
        adv();
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
          adv();
        std::string s;
        while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) {
          s += text_[pos_];
          adv();
        }
        out.push_back({Tok::Loc, s, 0, l, co});
        continue;
      }
      static const char *const two[] = {"..", "->", ">>", "<=", ">=", "==", "!="};
      bool matched = false;
      for (const char *p : two)
        if (text_.compare(pos_, 2, p) == 0) {
          out.push_back({Tok::Punct, p, 0, l, co});
          adv();
          adv();
          matched = true;
          break;
        }
      if (matched)
        continue;
      if (std::string("[](){},:=+-*/%<>~").find(c) != std::string::npos) {
        out.push_back({Tok::Punct, std::string(1, c), 0, l, co});
        adv();
        continue;
      }
      fail(l, co, std::string("unexpected character '") + c + "'");
    }
    out.push_back(tok(Tok::Newline, "\\n"));
    out.push_back(tok(Tok::End, "end of file"));
    return out;
  }

  [[noreturn]] void fail(int l, int c, const std::string &m) {
    throw Failure{{{file_, l, c}, m}};
  }

private:
  Token tok(Tok k, const std::string &s) { return {k, s, 0, line_, col_}; }
  void adv() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
  const std::string &text_;
  const std::string &file_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

class Parser {
public:
  Parser(std::vector<Token> toks, const std::string &file) : t_(std::move(toks)), file_(file) {}

  void program(Program &p) {
    skip_newlines();
    while (peek().kind != Tok::End) {
      if (is("}"))
        fail("unmatched '}'");
      p.body.push_back(stmt());
      skip_newlines();
    }
  }

private:
  std::vector<Token> t_;
  const std::string &file_;
  size_t i_ = 0;

  const Token &peek(size_t k = 0) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  bool is(const char *s, size_t k = 0) const {
    const Token &t = peek(k);
    return (t.kind == Tok::Punct || t.kind == Tok::Ident) && t.text == s;
  }
  [[noreturn]] void fail(const std::string &m) { fail_at(peek(), m); }
  [[noreturn]] void fail_at(const Token &t, const std::string &m) {
    throw Failure{{{file_, t.line, t.col}, m}};
  }
  std::string describe(const Token &t) {
    if (t.kind == Tok::Newline)
      return "end of line";
    if (t.kind == Tok::End)
      return "end of file";
    return "'" + t.text + "'";
  }
  void expect(const char *s) {
    if (!is(s))
      fail(std::string("expected '") + s + "', found " + describe(peek()));
    ++i_;
  }
  bool accept(const char *s) {
    if (!is(s))
      return false;
    ++i_;
    return true;
  }
  std::string ident(const char *what) {
    if (peek().kind != Tok::Ident)
      fail(std::string("expected ") + what + ", found " + describe(peek()));
    return t_[i_++].text;
  }
  int64_t integer(const char *what) {
    bool neg = accept("-");
    if (peek().kind != Tok::Int)
      fail(std::string("expected ") + what + ", found " + describe(peek()));
    int64_t v = t_[i_++].value;
    return neg ? -v : v;
  }
  void skip_newlines() {
    while (peek().kind == Tok::Newline)
      ++i_;
  }

  // Walks of programs and expressions recurse: bound nesting (blocks,
  // parentheses, prefix operators) and expression height, so that no input
  // can overflow the stack of the parser, the checker or a destructor.
  static constexpr int kMaxNesting = 256;
  static constexpr int kMaxExprHeight = 1000;
  int nesting_ = 0;
  struct Nested {
    Parser &p;
    explicit Nested(Parser &parser) : p(parser) {
      if (++p.nesting_ > kMaxNesting)
        p.fail("nesting deeper than " + std::to_string(kMaxNesting) + " levels");
    }
    ~Nested() { --p.nesting_; }
  };
  Expr node(ExprKind k, Expr a, Expr b = nullptr) {
    Expr e = ExprNode::make(k, std::move(a), std::move(b));
    if (e->height > kMaxExprHeight)
      fail("expression deeper than " + std::to_string(kMaxExprHeight) + " operators");
    return e;
  }

  // --- Expressions, by precedence: or, and, not, comparison, +-, */%, unary.
  Expr expr() { return or_expr(); }
  Expr or_expr() {
    Expr e = and_expr();
    while (accept("or"))
      e = node(ExprKind::Or, e, and_expr());
    return e;
  }
  Expr and_expr() {
    Expr e = not_expr();
    while (accept("and"))
      e = node(ExprKind::And, e, not_expr());
    return e;
  }
  Expr not_expr() {
    if (accept("not")) {
      Nested guard(*this);
      return node(ExprKind::Not, not_expr());
    }
    return cmp_expr();
  }
  Expr cmp_expr() {
    Expr e = add_expr();
    static const std::pair<const char *, ExprKind> ops[] = {
        {"<=", ExprKind::Le}, {">=", ExprKind::Ge}, {"==", ExprKind::Eq},
        {"!=", ExprKind::Ne}, {"<", ExprKind::Lt},  {">", ExprKind::Gt}};
    for (;;) {
      bool any = false;
      for (auto &[s, k] : ops)
        if (accept(s)) {
          e = node(k, e, add_expr());
          any = true;
          break;
        }
      if (!any)
        return e;
    }
  }
  Expr add_expr() {
    Expr e = mul_expr();
    for (;;) {
      if (accept("+"))
        e = node(ExprKind::Add, e, mul_expr());
      else if (accept("-"))
        e = node(ExprKind::Sub, e, mul_expr());
      else
        return e;
    }
  }
  Expr mul_expr() {
    Expr e = unary();
    for (;;) {
      if (accept("*"))
        e = node(ExprKind::Mul, e, unary());
      else if (accept("/"))
        e = node(ExprKind::Div, e, unary());
      else if (accept("%"))
        e = node(ExprKind::Mod, e, unary());
      else
        return e;
    }
  }
  Expr unary() {
    if (is("-") || is("(")) {
      Nested guard(*this);
      if (accept("-")) {
        if (peek().kind == Tok::Int)
          return ExprNode::make_int(-t_[i_++].value);
        return node(ExprKind::Neg, unary());
      }
      ++i_; // '('
      Expr e = expr();
      expect(")");
      return e;
    }
    if (peek().kind == Tok::Int)
      return ExprNode::make_int(t_[i_++].value);
    if (peek().kind == Tok::Ident) {
      static const char *const reserved[] = {"and", "or", "not", "in"};
      for (const char *r : reserved)
        if (peek().text == r)
          fail("expected an expression, found '" + peek().text + "'");
      return ExprNode::make_var(t_[i_++].text);
    }
    fail("expected an expression, found " + describe(peek()));
  }

  Index index() {
    Index idx;
    expect("[");
    if (accept("]"))
      return idx;
    for (;;) {
      if (is(":") && (is(",", 1) || is("]", 1))) {
        ++i_;
        idx.push_back(IndexItem::all());
      } else {
        Expr lo = expr();
        if (accept(":"))
          idx.push_back(IndexItem::window(lo, expr()));
        else
          idx.push_back(IndexItem::point(lo));
      }
      if (accept("]"))
        return idx;
      expect(",");
    }
  }

  std::vector<Expr> dims() {
    std::vector<Expr> d;
    expect("[");
    if (accept("]"))
      return d;
    for (;;) {
      d.push_back(expr());
      if (accept("]"))
        return d;
      expect(",");
    }
  }

  std::vector<int64_t> ints() {
    std::vector<int64_t> v;
    expect("[");
    for (;;) {
      v.push_back(integer("an integer"));
      if (accept("]"))
        return v;
      expect(",");
    }
  }

  QualMask quals() {
    QualMask m = 0;
    expect("{");
    if (accept("}"))
      return m;
    for (;;) {
      const Token &t = peek();
      std::string n = ident("a qual name");
      auto q = parse_qual(n);
      if (!q)
        fail_at(t, "unknown qual '" + n + "'");
      m |= bit(*q);
      if (accept("}"))
        return m;
      expect(",");
    }
  }

  SyncTl sync_tl() {
    if (is("{")) {
      SyncTl tl;
      tl.full = quals();
      tl.temp = tl.full;
      if (accept("~"))
        tl.temp |= quals();
      return tl;
    }
    const Token &t = peek();
    std::string n = ident("a sync-timeline");
    auto tl = lookup_sync_tl(n);
    if (!tl)
      fail_at(t, "unknown sync-timeline '" + n + "'");
    return *tl;
  }

  BarrierRef barrier_ref() {
    BarrierRef b;
    b.name = ident("a barrier name");
    b.idx = index();
    return b;
  }

  // Ends a statement: optional `@ loc`, optional `{` block, then newline.
  void finish(Stmt &s, bool wants_block) {
    if (peek().kind == Tok::Loc) {
      const Token &t = t_[i_++];
      size_t c2 = t.text.rfind(':');
      size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos
                                                     : t.text.rfind(':', c2 - 1);
      if (c1 == std::string::npos)
        fail_at(t, "expected a location 'file:line:col' after '@'");
      std::string ls = t.text.substr(c1 + 1, c2 - c1 - 1), cs = t.text.substr(c2 + 1);
      auto digits = [](const std::string &x) {
        return !x.empty() && x.size() < 9 &&
               x.find_first_not_of("0123456789") == std::string::npos;
      };
      if (!digits(ls) || !digits(cs) || c1 == 0)
        fail_at(t, "expected a location 'file:line:col' after '@'");
      s.loc = {t.text.substr(0, c1), std::stoi(ls), std::stoi(cs)};
    }
    if (wants_block) {
      expect("{");
      if (peek().kind != Tok::Newline)
        fail("expected end of line after '{'");
      s.body = block();
      if (s.kind == StmtKind::If && accept("else")) {
        expect("{");
        s.else_body = block();
      }
    }
    if (peek().kind != Tok::Newline)
      fail("expected end of line, found " + describe(peek()));
    ++i_;
  }

  // Statements up to the closing `}` (consumed).
  Block block() {
    Nested guard(*this);
    Block b;
    skip_newlines();
    while (!is("}")) {
      if (peek().kind == Tok::End)
        fail("missing '}' at end of file");
      b.push_back(stmt());
      skip_newlines();
    }
    ++i_;
    return b;
  }

  StmtP stmt() {
    const Token &first = peek();
    if (first.kind != Tok::Ident)
      fail("expected a statement, found " + describe(first));
    std::string kw = first.text;
    ++i_;
    auto mk = [&](StmtKind k) {
      StmtP s = make_stmt(k);
      s->text_loc = {file_, first.line, first.col};
      return s;
    };
    if (kw == "let") {
      StmtP s = mk(StmtKind::Let);
      s->name = ident("a name");
      expect("=");
      s->value = expr();
      finish(*s, false);
      return s;
    }
    if (kw == "data" || kw == "barrier") {
      StmtP s = mk(kw == "data" ? StmtKind::Data : StmtKind::Barrier);
      s->name = ident("a tensor name");
      if (is("["))
        s->dims = dims();
      for (;;) {
        if (accept("ring")) {
          expect("(");
          s->ring_dim = static_cast<int>(integer("the ring dimension"));
          expect(",");
          s->ring_depth = static_cast<int>(integer("the ring depth"));
          expect(")");
          if (s->ring_dim < 0 || s->ring_dim >= static_cast<int>(s->dims.size()))
            fail("ring dimension " + std::to_string(s->ring_dim) + " is not a dimension of '" +
                 s->name + "'");
          if (s->ring_depth <= 0)
            fail("ring depth must be positive");
        } else if (s->kind == StmtKind::Data && accept("guard")) {
          expect("(");
          s->guard = ident("a barrier name");
          while (accept(","))
            s->guard_mcast.push_back(static_cast<int>(integer("a barrier dimension")));
          expect(")");
        } else if (s->kind == StmtKind::Barrier && accept("pre_arrive")) {
          expect("(");
          s->pre_arrive = static_cast<int>(integer("a count"));
          expect(")");
        } else if (s->kind == StmtKind::Barrier && accept("one_shot_arrive")) {
          s->one_shot_arrive = true;
        } else if (s->kind == StmtKind::Barrier && accept("one_shot_await")) {
          s->one_shot_await = true;
        } else if (s->kind == StmtKind::Barrier && accept("checked")) {
          s->checked = true;
        } else if (s->kind == StmtKind::Barrier && accept("mbarrier")) {
          s->one_shot_arrive = s->checked = true;
        } else if (s->kind == StmtKind::Barrier && accept("commit_group")) {
        } else if (s->kind == StmtKind::Barrier && accept("cluster_sync")) {
          s->one_shot_arrive = s->one_shot_await = true;
        } else {
          break;
        }
      }
      if (!s->guard.empty() && s->ring_dim < 0)
        fail("a guarded buffer needs a 'ring(dim, depth)'");
      finish(*s, false);
      return s;
    }
    if (kw == "free") {
      StmtP s = mk(StmtKind::Free);
      s->name = ident("a tensor name");
      if (accept("check")) {
        expect("=");
        s->has_check = true;
        s->check = quals();
      }
      finish(*s, false);
      return s;
    }
    if (kw == "read" || kw == "write" || kw == "update") {
      StmtP s = mk(StmtKind::Access);
      s->access = kw == "read" ? AccessKind::Read
                               : kw == "write" ? AccessKind::Write : AccessKind::Update;
      s->name = ident("a tensor name");
      while (is("["))
        s->targets.push_back(index());
      if (s->targets.empty())
        fail("expected '[' after the tensor name");
      bool have_q = false, have_ext = false;
      for (;;) {
        if (accept("q")) {
          expect("=");
          const Token &t = peek();
          std::string n = ident("a qual name");
          auto q = parse_qual(n);
          if (!q)
            fail_at(t, "unknown qual '" + n + "'");
          s->initial = *q;
          have_q = true;
        } else if (accept("ext")) {
          expect("=");
          s->ext = quals();
          have_ext = true;
        } else if (accept("ooo")) {
          s->ooo = true;
        } else if (accept("conv")) {
          s->conv = true;
        } else if (accept("clip")) {
          s->clip = true;
        } else if (accept("atomic")) {
          expect("=");
          s->atomic = quals();
        } else if (accept(">>")) {
          s->bars.push_back(barrier_ref());
        } else {
          break;
        }
      }
      if (!have_q)
        fail("access needs 'q=QUAL'");
      if (!have_ext)
        s->ext = bit(s->initial);
      finish(*s, false);
      return s;
    }
    if (kw == "fence") {
      StmtP s = mk(StmtKind::Fence);
      s->l1 = sync_tl();
      expect("->");
      s->l2 = sync_tl();
      finish(*s, false);
      return s;
    }
    if (kw == "arrive") {
      StmtP s = mk(StmtKind::Arrive);
      s->l1 = sync_tl();
      while (accept(">>"))
        s->bars.push_back(barrier_ref());
      if (s->bars.empty())
        fail("arrive needs '>> barrier[...]'");
      finish(*s, false);
      return s;
    }
    if (kw == "await") {
      StmtP s = mk(StmtKind::Await);
      s->bars.push_back(barrier_ref());
      expect("->");
      s->l2 = sync_tl();
      if (peek().kind == Tok::Int)
        s->n = integer("N");
      finish(*s, false);
      return s;
    }
    if (kw == "join") {
      StmtP s = mk(StmtKind::Join);
      finish(*s, false);
      return s;
    }
    if (kw == "seq" || kw == "tasks" || kw == "threads") {
      StmtP s = mk(kw == "seq" ? StmtKind::Seq
                               : kw == "tasks" ? StmtKind::Tasks : StmtKind::Threads);
      s->name = ident("a loop iterator");
      expect("in");
      s->value = expr();
      expect("..");
      s->hi = expr();
      if (s->kind == StmtKind::Threads) {
        bool have_dim = false, have_width = false, have_stride = false;
        for (;;) {
          if (accept("dim")) {
            expect("=");
            s->dim = static_cast<int>(integer("a dimension"));
            have_dim = true;
          } else if (accept("width")) {
            expect("=");
            s->width = integer("a width");
            have_width = true;
          } else if (accept("stride")) {
            expect("=");
            s->stride = integer("a stride");
            have_stride = true;
          } else if (accept("offset")) {
            expect("=");
            s->offset = integer("an offset");
          } else {
            break;
          }
        }
        if (!have_dim || !have_width)
          fail("threads loop needs 'dim=' and 'width='");
        if (s->width <= 0)
          fail("threads loop width must be positive");
        if (!have_stride)
          s->stride = s->width;
      }
      finish(*s, true);
      return s;
    }
    if (kw == "device") {
      StmtP s = mk(StmtKind::Device);
      s->ints = ints();
      for (int64_t d : s->ints)
        if (d <= 0)
          fail("device domain extents must be positive");
      finish(*s, true);
      return s;
    }
    if (kw == "reshape") {
      StmtP s = mk(StmtKind::Reshape);
      s->dim = static_cast<int>(integer("a dimension"));
      expect("->");
      s->ints = ints();
      for (int64_t d : s->ints)
        if (d <= 0)
          fail("reshape factors must be positive");
      finish(*s, true);
      return s;
    }
    if (kw == "if") {
      StmtP s = mk(StmtKind::If);
      s->value = expr();
      finish(*s, true);
      return s;
    }
    fail_at(first, "unknown statement '" + kw + "'");
  }
};

} // namespace

bool parse_program(const std::string &text, const std::string &file, Program &out,
                   std::vector<ParseError> &errors) {
  try {
    Lexer lx(text, file);
    Parser p(lx.run(), file);
    p.program(out);
    return true;
  } catch (const Failure &f) {
    errors.push_back(f.err);
    return false;
  }
}

} // namespace exgc::sync
