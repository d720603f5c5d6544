// emu/ptx/parse_body.cpp - function bodies: blocks, declarations, instructions -----//
#include "emu/ptx/literals.h"
#include "emu/ptx/parser.h"

#include <algorithm>
#include <iterator>

namespace emu::ptx {
namespace {

constexpr int kMaxBlockDepth = 32;
constexpr int kMaxOperandDepth = 8;
constexpr size_t kMaxRegisters = size_t(1) << 18; // per function; nvcc's use a few thousand

// The instruction as written, on one line, for reports.
std::string one_line(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space && c != ',' && c != ')' && c != ';' && out.back() != '(')
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

} // namespace

void Parser::parse_body(const Token &open) {
  loc_ = Loc();
  pending_.clear();
  label_scopes_.clear();
  parse_block(open, 0);
  if (!pending_.empty())
    fail(pending_[0].at, "undefined label or symbol '" + std::string(pending_[0].at.text) + "'");
}

void Parser::parse_block(const Token &open, int depth) {
  label_scopes_.emplace_back();
  size_t first_pending = pending_.size();
  for (;;) {
    if (tok_.kind == Token::Kind::End)
      fail(open, "this '{' is not closed");
    if (tok_.is('}')) {
      bump();
      resolve_labels(first_pending);
      label_scopes_.pop_back();
      return;
    }
    if (tok_.is('{')) {
      if (depth >= kMaxBlockDepth)
        fail(tok_, "blocks nest too deeply");
      Token inner = tok_;
      bump();
      scopes_.emplace_back();
      parse_block(inner, depth + 1);
      scopes_.pop_back();
      continue;
    }
    if (tok_.is('@')) {
      parse_instruction();
      continue;
    }
    if (tok_.kind != Token::Kind::Word)
      fail_expected("an instruction");
    std::string_view w = tok_.text;
    if (w[0] == '.') {
      if (w == ".reg")
        parse_reg_decl();
      else if (w == ".shared")
        parse_scoped_variable(Space::Shared);
      else if (w == ".local")
        parse_scoped_variable(Space::Local);
      else if (w == ".const")
        parse_scoped_variable(Space::Const);
      else if (w == ".global")
        parse_scoped_variable(Space::Global);
      else if (w == ".param")
        parse_scoped_variable(Space::Param);
      else if (w == ".loc")
        parse_loc();
      else if (w == ".pragma")
        skip_pragma();
      else
        fail(tok_, "unknown directive '" + std::string(w) + "' in a function body");
    } else if (ahead_.is(':')) {
      parse_label();
    } else {
      parse_instruction();
    }
  }
}

// ---- Declarations ---------------------------------------------------------------------

void Parser::add_register(std::string name, const Token &at, std::string_view type, uint32_t bits) {
  if (fn_->regs.size() >= kMaxRegisters)
    fail(at, "too many registers in '" + fn_->name + "'");
  bind(scopes_.back(), name, at, {Binding::Kind::Reg, uint32_t(fn_->regs.size()), at.line});
  fn_->regs.push_back(RegDecl{std::move(name), std::string(type), bits});
}

// `.reg .b32 %r<37>;` (%r0 .. %r36), `.reg .pred p;`, `.reg .f32 a, b;`
void Parser::parse_reg_decl() {
  bump();
  if (tok_.is_word(".v2") || tok_.is_word(".v4"))
    fail(tok_, "vector registers are not supported");
  Token type = tok_;
  uint32_t bits = type.kind == Token::Kind::Word && type.text[0] == '.'
                      ? type_bits(type.text.substr(1))
                      : 0;
  if (bits == 0)
    fail_expected("a register type");
  bump();
  std::string_view t = type.text.substr(1);
  for (;;) {
    Token name = expect_word("a register name");
    if (tok_.is('<')) {
      bump();
      uint64_t n = expect_unsigned("a register count", kMaxRegisters);
      expect('>', "'>'");
      std::string base(name.text);
      if (!is_name(base))
        fail(name, "'" + base + "' is not a name");
      if (fn_->regs.size() + n > kMaxRegisters)
        fail(name, "too many registers in '" + fn_->name + "'");
      bind_range(base, name, RegRange{uint32_t(fn_->regs.size()), uint32_t(n), name.line});
      fn_->regs.reserve(fn_->regs.size() + n);
      for (uint64_t i = 0; i < n; ++i)
        fn_->regs.push_back(RegDecl{base + std::to_string(i), std::string(t), bits});
    } else {
      add_register(std::string(name.text), name, t, bits);
    }
    if (!tok_.is(','))
      break;
    bump();
  }
  expect(';', "',' or ';' after the register");
}

void Parser::parse_scoped_variable(Space space) {
  bump();
  Token name;
  VarDecl v = parse_variable(space, false, false, name);
  expect(';', "';' after the variable");
  bind(scopes_.back(), v.name, name, {Binding::Kind::Var, uint32_t(fn_->vars.size()), name.line});
  fn_->vars.push_back(std::move(v));
}

// `.loc F L C` or `.loc F L C, function_name $L__info_stringN, inlined_at F L C`.
void Parser::parse_loc() {
  bump();
  Loc l;
  l.file = int(expect_unsigned("a file number", INT32_MAX));
  l.line = int(expect_unsigned("a line number", INT32_MAX));
  l.col = int(expect_unsigned("a column number", INT32_MAX));
  while (tok_.is(',')) {
    bump();
    Token attr = expect_word("a .loc attribute");
    if (attr.text == "function_name") {
      expect_word("a function name"); // names a string of the debug section, skipped
    } else if (attr.text == "inlined_at") {
      l.inlined_file = int(expect_unsigned("a file number", INT32_MAX));
      l.inlined_line = int(expect_unsigned("a line number", INT32_MAX));
      l.inlined_col = int(expect_unsigned("a column number", INT32_MAX));
    } else {
      fail(attr, "unknown .loc attribute '" + std::string(attr.text) + "'");
    }
  }
  loc_ = l;
}

void Parser::parse_label() {
  Token name = tok_;
  bump();
  bump(); // ':'
  std::string n(name.text);
  if (n[0] == '%' || n.find('.') != std::string::npos || is_digit(n[0]))
    fail(name, "'" + n + "' is not a label name");
  int32_t index = int32_t(fn_->body.size());
  auto [it, fresh] = label_scopes_.back().emplace(n, LabelDef{index, name.line});
  if (!fresh)
    fail(name, "label '" + n + "' is already defined at line " + std::to_string(it->second.line));
  fn_->labels.emplace(n, index);
}

// At the end of a block: its labels serve the references made inside it (its
// own blocks' included) that no inner block defined; the rest wait for the
// enclosing block.
void Parser::resolve_labels(size_t first_pending) {
  const auto &labels = label_scopes_.back();
  size_t keep = first_pending;
  for (size_t i = first_pending; i < pending_.size(); ++i) {
    const PendingLabel &p = pending_[i];
    auto it = labels.find(std::string(p.at.text));
    if (it == labels.end())
      pending_[keep++] = p;
    else
      fn_->body[p.instr].operands[p.operand].target = it->second.index;
  }
  pending_.resize(keep);
}

// ---- Instructions ----------------------------------------------------------------------

void Parser::parse_instruction() {
  Instr in;
  Token start = tok_;
  in.ptx_line = start.line;
  if (tok_.is('@')) {
    bump();
    in.guard_negated = tok_.is('!');
    if (in.guard_negated)
      bump();
    Token g = expect_word("a guard predicate");
    Binding b;
    if (!lookup(std::string(g.text), b) || b.kind != Binding::Kind::Reg)
      fail(g, "guard '" + std::string(g.text) + "' is not a declared register");
    if (fn_->regs[b.index].bits != 1)
      fail(g, "guard '" + std::string(g.text) + "' is not a predicate (it is ." +
                  fn_->regs[b.index].type + ")");
    in.guard = int32_t(b.index);
  }
  Token op = tok_;
  if (op.kind != Token::Kind::Word || !((op.text[0] >= 'a' && op.text[0] <= 'z') ||
                                        (op.text[0] >= 'A' && op.text[0] <= 'Z')))
    fail_expected("an opcode");
  bump();
  size_t dot = op.text.find('.');
  in.opcode = std::string(op.text.substr(0, dot));
  in.mods.reserve(size_t(std::count(op.text.begin(), op.text.end(), '.')));
  while (dot != std::string_view::npos) {
    size_t next = op.text.find('.', dot + 1);
    std::string_view mod = op.text.substr(dot + 1, next == std::string_view::npos
                                                        ? std::string_view::npos
                                                        : next - dot - 1);
    if (mod.empty())
      fail(op, "empty modifier in '" + std::string(op.text) + "'");
    in.mods.emplace_back(mod);
    dot = next;
  }

  // Read into a reused list, then copy at the exact size: tens of thousands
  // of instructions, so growing each list by doubling cost real time.
  size_t first_pending = pending_.size();
  operands_.clear();
  if (!tok_.is(';')) {
    for (operand_index_ = 0;; ++operand_index_) {
      operands_.push_back(parse_operand(0, true));
      if (!tok_.is(','))
        break;
      bump();
    }
  }
  in.operands.reserve(operands_.size() + (in.opcode == "call" ? 2 : 0));
  std::move(operands_.begin(), operands_.end(), std::back_inserter(in.operands));
  if (!tok_.is(';'))
    fail_expected("',' or ';' after the operand");
  size_t end = tok_.end;
  bump();

  // `call.uni (ret), f, (args);`: always [returns, callee, arguments].
  if (in.opcode == "call") {
    if (pending_.size() > first_pending)
      fail(pending_[first_pending].at,
           "'" + std::string(pending_[first_pending].at.text) + "' is not a declared function");
    Operand empty;
    empty.kind = Operand::Kind::Vector;
    if (in.operands.empty() || in.operands[0].kind != Operand::Kind::Vector)
      in.operands.insert(in.operands.begin(), empty);
    if (in.operands.size() == 2)
      in.operands.push_back(empty);
  }
  in.text = one_line(text_.substr(start.offset, end - start.offset));
  in.loc = loc_;
  fn_->body.push_back(std::move(in));
}

Operand Parser::parse_operand(int depth, bool top_level) {
  if (depth > kMaxOperandDepth)
    fail(tok_, "operand nests too deeply");
  Operand o;
  if (tok_.is('{')) {
    o = parse_list('}', depth);
  } else if (tok_.is('(')) {
    o = parse_list(')', depth);
  } else if (tok_.is('[')) {
    o = parse_address(depth);
  } else if (tok_.is('!')) {
    bump();
    Token w = expect_word("a predicate register after '!'");
    o = parse_word_operand(w, false);
    if (o.kind != Operand::Kind::Reg || fn_->regs[o.reg].bits != 1)
      fail(w, "'!' applies to predicate registers only");
    o.negated = true;
  } else if (tok_.is('-')) {
    bump();
    if (tok_.kind != Token::Kind::Word || !is_digit(tok_.text[0]))
      fail_expected("a number after '-'");
    o = parse_number(tok_, true);
    bump();
  } else if (tok_.kind == Token::Kind::Word) {
    Token w = tok_;
    bump();
    if (w.text == "_")
      o.kind = Operand::Kind::Sink;
    else
      o = parse_word_operand(w, top_level && !tok_.is('|'));
  } else {
    fail_expected("an operand");
  }
  if (tok_.is('|')) { // `%r1|%p2`, `_|p`: two destinations
    bump();
    Operand pair;
    pair.kind = Operand::Kind::Pair;
    pair.elems.push_back(std::move(o));
    pair.elems.push_back(parse_operand(depth + 1, false));
    return pair;
  }
  return o;
}

// `{a, b}` or `(a, b)`: a Vector, possibly empty.
Operand Parser::parse_list(char close, int depth) {
  bump();
  Operand v;
  v.kind = Operand::Kind::Vector;
  while (!tok_.is(close)) {
    if (!v.elems.empty())
      expect(',', close == '}' ? "',' or '}' in the vector" : "',' or ')' in the list");
    v.elems.push_back(parse_operand(depth + 1, false));
  }
  bump();
  return v;
}

// `[%rd1]`, `[%rd1+16]`, `[%rd1+-8]`, `[sym+4]`, `[0x100]`, `[%rd2, {%r1, %r2}]`.
Operand Parser::parse_address(int depth) {
  bump();
  Operand a;
  a.kind = Operand::Kind::Address;
  Token b = tok_;
  if (b.kind != Token::Kind::Word)
    fail_expected("an address");
  bump();
  Operand base = is_digit(b.text[0]) ? parse_number(b, false) : parse_word_operand(b, false);
  if (base.kind != Operand::Kind::Reg && base.kind != Operand::Kind::Symbol &&
      base.kind != Operand::Kind::Imm)
    fail(b, "an address is a register, a variable or a number, not '" + std::string(b.text) +
                "'");
  a.elems.push_back(std::move(base));
  if (tok_.is('+') || tok_.is('-')) {
    bool negative = tok_.is('-');
    bump();
    if (!negative && tok_.is('-')) {
      negative = true;
      bump();
    }
    Token n = tok_;
    if (n.kind != Token::Kind::Word || !is_digit(n.text[0]))
      fail_expected("an offset");
    Operand off = parse_number(n, negative);
    if (off.kind != Operand::Kind::Imm)
      fail(n, "an address offset is an integer");
    a.imm = off.imm;
    bump();
  }
  while (tok_.is(',')) {
    bump();
    a.elems.push_back(parse_operand(depth + 1, false));
  }
  expect(']', "']' to close the address");
  return a;
}

Operand Parser::parse_number(const Token &w, bool negative) {
  Operand o;
  uint64_t bits = 0;
  bool f64 = false;
  if (parse_float_bits(w.text, bits, f64)) {
    o.kind = Operand::Kind::FloatImm;
    o.is_f64 = f64;
    o.imm = int64_t(negative ? bits ^ (uint64_t(1) << (f64 ? 63 : 31)) : bits);
    return o;
  }
  uint64_t v = 0;
  if (const char *why = parse_unsigned(w.text, v)) {
    if (!parse_decimal_float(w.text, bits))
      fail(w, std::string(why) + " '" + std::string(w.text.substr(0, 60)) + "'");
    o.kind = Operand::Kind::FloatImm;
    o.is_f64 = true;
    o.imm = int64_t(negative ? bits ^ (uint64_t(1) << 63) : bits);
    return o;
  }
  o.kind = Operand::Kind::Imm;
  if (negative && v > (uint64_t(1) << 63))
    fail(w, "integer literal '-" + std::string(w.text) + "' does not fit in 64 bits");
  o.imm = negative ? int64_t(0 - v) : int64_t(v);
  return o;
}

bool Parser::lookup(const std::string &name, Binding &out) const {
  for (size_t i = scopes_.size(); i-- > 0;)
    if (find_in(scopes_[i], name, out))
      return true;
  return find_in(module_scope_, name, out);
}

Operand Parser::parse_word_operand(const Token &w, bool top_level) {
  if (is_digit(w.text[0]))
    return parse_number(w, false);
  Operand o;
  if (w.text == "WARP_SZ") { // PTX's one predefined constant
    o.kind = Operand::Kind::Imm;
    o.imm = 32;
    return o;
  }
  std::string name(w.text);
  Binding b;
  if (lookup(name, b)) {
    if (b.kind == Binding::Kind::Reg) {
      o.kind = Operand::Kind::Reg;
      o.reg = b.index;
    } else {
      o.kind = Operand::Kind::Symbol;
      o.name = std::move(name);
    }
    return o;
  }
  if (w.text[0] == '%') {
    if (!is_special_register(w.text))
      fail(w, "undeclared register '" + name + "'");
    o.kind = Operand::Kind::Special;
    o.name = std::move(name);
    return o;
  }
  if (w.text[0] == '.' || name.find('.') != std::string::npos || name.find(':') != std::string::npos)
    fail(w, "expected an operand, found '" + name.substr(0, 60) + "'");
  if (!top_level)
    fail(w, "undefined symbol '" + name + "'");
  o.kind = Operand::Kind::Label;
  o.name = std::move(name);
  pending_.push_back({fn_->body.size(), operand_index_, w});
  return o;
}

} // namespace emu::ptx
