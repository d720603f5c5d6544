// emu/ptx/parse.cpp - PTX text to a Module: tokens, module level, declarations ----//
// The function bodies are in parse_body.cpp; the grammar followed is what nvcc
// 13 writes for compute_90a (PTX ISA 9.0), inline asm included.
#include "emu/ptx/literals.h"
#include "emu/ptx/parser.h"

#include <cstring>
#include <new>
#include <stdexcept>

namespace emu::ptx {
namespace {

// "%r12" -> "%r", 12. False when the name does not end in a decimal index
// that `%r<N>` could have made (none, or a leading zero).
bool split_index(const std::string &name, std::string &base, uint64_t &index) {
  size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
    --i;
  size_t digits = name.size() - i;
  if (digits == 0 || digits > 9 || (digits > 1 && name[i] == '0'))
    return false;
  base.assign(name, 0, i);
  index = 0;
  for (; i < name.size(); ++i)
    index = index * 10 + uint64_t(name[i] - '0');
  return true;
}

bool is_float_type(std::string_view t) { return t == "f32" || t == "f64"; }

} // namespace

Parser::Parser(std::string_view text, Module &out, ParseError &err)
    : err_(err), lex_(text), text_(text), m_(out) {
  ahead_ = lex_.next();
  bump();
}

// ---- Tokens -----------------------------------------------------------------------

void Parser::bump() {
  tok_ = ahead_;
  if (tok_.kind == Token::Kind::Bad)
    fail(tok_, std::string(tok_.text));
  if (tok_.kind != Token::Kind::End)
    ahead_ = lex_.next();
}

void Parser::fail(const Token &at, const std::string &message) {
  err_.line = at.line;
  err_.col = at.col;
  err_.message = message;
  throw ParseFailure{};
}

std::string Parser::describe(const Token &t) {
  switch (t.kind) {
  case Token::Kind::End:
    return "end of input";
  case Token::Kind::String:
    return "a string";
  default:
    return "'" + std::string(t.text.substr(0, 60)) + "'";
  }
}

void Parser::fail_expected(const char *what) {
  fail(tok_, std::string("expected ") + what + ", found " + describe(tok_));
}

void Parser::expect(char punct, const char *what) {
  if (!tok_.is(punct))
    fail_expected(what);
  bump();
}

Token Parser::expect_word(const char *what) {
  if (tok_.kind != Token::Kind::Word)
    fail_expected(what);
  Token t = tok_;
  bump();
  return t;
}

uint64_t Parser::expect_unsigned(const char *what, uint64_t max) {
  if (tok_.kind != Token::Kind::Word || tok_.text[0] < '0' || tok_.text[0] > '9')
    fail_expected(what);
  uint64_t v = 0;
  if (const char *why = parse_unsigned(tok_.text, v))
    fail(tok_, why);
  if (v > max)
    fail(tok_, "'" + std::string(tok_.text.substr(0, 60)) + "' is too large for " + what +
                   " (at most " + std::to_string(max) + ")");
  bump();
  return v;
}

bool Parser::find_in(const Scope &scope, const std::string &name, Binding &out) {
  auto it = scope.names.find(name);
  if (it != scope.names.end()) {
    out = it->second;
    return true;
  }
  std::string base;
  uint64_t index;
  if (scope.ranges.empty() || !split_index(name, base, index))
    return false;
  auto r = scope.ranges.find(base);
  if (r == scope.ranges.end() || index >= r->second.count)
    return false;
  out = Binding{Binding::Kind::Reg, r->second.first + uint32_t(index), r->second.line};
  return true;
}

void Parser::bind(Scope &scope, std::string name, const Token &at, Binding b) {
  if (!is_name(name))
    fail(at, "'" + name + "' is not a name");
  Binding old;
  if (find_in(scope, name, old))
    fail(at, "'" + name + "' is already declared in this scope (line " +
                 std::to_string(old.line) + ")");
  scope.names.emplace(std::move(name), b);
}

void Parser::bind_range(const std::string &base, const Token &at, RegRange r) {
  Scope &scope = scopes_.back();
  auto dup = [&](uint64_t index, uint32_t line) {
    fail(at, "'" + base + std::to_string(index) + "' is already declared in this scope (line " +
                 std::to_string(line) + ")");
  };
  auto same = scope.ranges.find(base);
  if (same != scope.ranges.end() && same->second.count > 0)
    dup(0, same->second.line);
  std::string other;
  uint64_t index;
  for (const auto &[name, b] : scope.names)
    if (split_index(name, other, index) && other == base && index < r.count)
      dup(index, b.line);
  scope.ranges[base] = r;
}

// ---- Module level -------------------------------------------------------------------

void Parser::parse() {
  while (tok_.kind != Token::Kind::End) {
    if (tok_.kind != Token::Kind::Word || tok_.text[0] != '.')
      fail_expected("a directive");
    std::string_view d = tok_.text;
    if (d == ".version" || d == ".target" || d == ".address_size")
      parse_version_target();
    else if (d == ".file")
      parse_file();
    else if (d == ".section")
      skip_section();
    else if (d == ".pragma")
      skip_pragma();
    else
      parse_linkage_item();
  }
}

void Parser::parse_version_target() {
  Token d = tok_;
  bump();
  if (d.text == ".address_size") {
    uint64_t bits = expect_unsigned("an address size", 64);
    if (bits != 64 && bits != 32)
      fail(d, "address size must be 32 or 64");
    m_.address_size = uint32_t(bits);
    return;
  }
  Token v = expect_word(d.text == ".version" ? "a version number" : "a target name");
  if (d.text == ".version") {
    m_.version = std::string(v.text);
    return;
  }
  m_.target = std::string(v.text);
  while (tok_.is(',')) { // `.target sm_90a, debug`: options the emulator does not need
    bump();
    expect_word("a target option");
  }
}

void Parser::parse_file() {
  bump();
  uint64_t n = expect_unsigned("a file number", INT32_MAX);
  if (tok_.kind != Token::Kind::String)
    fail_expected("a file name string");
  m_.files[int(n)] = std::string(tok_.text);
  bump();
  // `.file 1 "a.cu", 1701234567, 2048`: timestamp and size.
  for (int i = 0; i < 2 && tok_.is(','); ++i) {
    bump();
    expect_unsigned("a file timestamp or size", UINT64_MAX);
  }
}

// `.section .debug_str { ... }`: debug data, skipped whole.
void Parser::skip_section() {
  bump();
  expect_word("a section name");
  Token open = tok_;
  expect('{', "'{' after the section name");
  for (int depth = 1; depth > 0; bump()) {
    if (tok_.kind == Token::Kind::End)
      fail(open, "'{' of the '.section' is not closed");
    if (tok_.is('{'))
      ++depth;
    else if (tok_.is('}'))
      --depth;
  }
}

// `.pragma "nounroll";`: hints for ptxas, nothing to execute.
void Parser::skip_pragma() {
  bump();
  if (tok_.kind != Token::Kind::String)
    fail_expected("a pragma string");
  bump();
  while (tok_.is(',')) {
    bump();
    if (tok_.kind != Token::Kind::String)
      fail_expected("a pragma string");
    bump();
  }
  expect(';', "';' after the pragma");
}

void Parser::parse_linkage_item() {
  Token start = tok_;
  bool is_extern = false;
  while (tok_.is_word(".visible") || tok_.is_word(".weak") || tok_.is_word(".extern")) {
    is_extern |= tok_.text == ".extern";
    bump();
  }
  std::string_view d = tok_.kind == Token::Kind::Word ? tok_.text : std::string_view();
  if (d == ".entry" || d == ".func") {
    parse_function(d == ".entry", start);
    return;
  }
  Space space;
  if (d == ".global")
    space = Space::Global;
  else if (d == ".const")
    space = Space::Const;
  else if (d == ".shared")
    space = Space::Shared;
  else if (tok_.kind == Token::Kind::Word && d[0] == '.')
    fail(tok_, "unknown directive '" + std::string(d) + "'");
  else
    fail_expected("'.entry', '.func' or a variable");
  bump();
  Token name_at;
  VarDecl v = parse_variable(space, is_extern, false, name_at);
  expect(';', "';' after the variable");
  bind(module_scope_, v.name, name_at, {Binding::Kind::Var, uint32_t(m_.vars.size()), name_at.line});
  m_.vars.push_back(std::move(v));
}

void Parser::parse_function(bool is_entry, const Token &start) {
  bump();
  Function f;
  f.is_entry = is_entry;
  f.decl_line = start.line;
  std::vector<Token> param_names;
  if (!is_entry && tok_.is('('))
    parse_param_list(f.returns, param_names);
  Token name = expect_word("a function name");
  f.name = std::string(name.text);
  if (tok_.is('('))
    parse_param_list(f.params, param_names);
  while (parse_performance_directive(f)) {
  }

  // A declaration (`;`) may come before the definition or stand alone.
  uint32_t index = uint32_t(m_.functions.size());
  auto it = module_scope_.names.find(f.name);
  if (it != module_scope_.names.end()) {
    const Binding &b = it->second;
    if (b.kind != Binding::Kind::Function || !m_.functions[b.index].is_declaration)
      fail(name, "'" + f.name + "' is already declared in this scope (line " +
                     std::to_string(b.line) + ")");
    index = b.index;
  } else {
    bind(module_scope_, f.name, name, {Binding::Kind::Function, index, name.line});
    m_.functions.emplace_back();
  }
  if (tok_.is(';')) {
    bump();
    f.is_declaration = true;
    m_.functions[index] = std::move(f);
    return;
  }
  Token open = tok_;
  expect('{', "'{' or ';' after the function's header");
  m_.functions[index] = std::move(f);
  fn_ = &m_.functions[index];
  scopes_.assign(1, Scope());
  for (const Token &p : param_names)
    bind(scopes_[0], std::string(p.text), p, {Binding::Kind::Var, 0, p.line});
  parse_body(open);
  scopes_.clear();
  fn_ = nullptr;
}

void Parser::parse_param_list(std::vector<VarDecl> &params, std::vector<Token> &names) {
  expect('(', "'('");
  while (!tok_.is(')')) {
    if (!params.empty())
      expect(',', "',' or ')' in the parameter list");
    if (!tok_.is_word(".param") && !tok_.is_word(".reg"))
      fail_expected("'.param'");
    bool reg = tok_.text == ".reg";
    bump();
    names.emplace_back();
    params.push_back(parse_variable(reg ? Space::Reg : Space::Param, false, true, names.back()));
  }
  bump();
}

bool Parser::parse_performance_directive(Function &f) {
  if (tok_.kind != Token::Kind::Word)
    return false;
  std::string_view d = tok_.text;
  uint32_t *three = d == ".maxntid"             ? f.maxntid
                    : d == ".reqntid"           ? f.reqntid
                    : d == ".reqnctapercluster" ? f.reqnctapercluster
                                                : nullptr;
  uint32_t *one = d == ".maxnreg"         ? &f.maxnreg
                  : d == ".minnctapersm"  ? &f.minnctapersm
                  : d == ".maxclusterrank" ? &f.maxclusterrank
                                           : nullptr;
  if (three) {
    bump();
    for (int i = 0; i < 3; ++i) {
      if (i > 0 && !tok_.is(','))
        break;
      if (i > 0)
        bump();
      three[i] = uint32_t(expect_unsigned("a dimension", UINT32_MAX));
    }
    for (int i = 1; i < 3; ++i)
      if (three[i] == 0) // `.maxntid 256` means 256, 1, 1
        three[i] = 1;
    return true;
  }
  if (one) {
    bump();
    *one = uint32_t(expect_unsigned("a count", UINT32_MAX));
    return true;
  }
  if (d == ".explicitcluster") {
    f.explicitcluster = true;
    bump();
    return true;
  }
  if (d == ".noreturn") { // a promise to ptxas; execution is the same
    bump();
    return true;
  }
  if (d == ".pragma") {
    skip_pragma();
    return true;
  }
  return false;
}

// `.ptr [.space] [.align N]` of a pointer parameter describes what it points
// to, for ptxas's alias analysis; executing the kernel does not need it.
void Parser::skip_pointer_attributes() {
  bump();
  if (tok_.is_word(".global") || tok_.is_word(".shared") || tok_.is_word(".const") ||
      tok_.is_word(".local"))
    bump();
  if (tok_.is_word(".align")) {
    bump();
    expect_unsigned("an alignment", 1u << 30);
  }
}

// After the state space: [.align N] [.vN] .type [.ptr ...] name [dims] [= init].
VarDecl Parser::parse_variable(Space space, bool is_extern, bool in_param_list, Token &name) {
  VarDecl v;
  v.space = space;
  v.is_extern = is_extern;
  uint32_t vec = 1;
  for (;;) {
    if (tok_.is_word(".align")) {
      bump();
      Token at = tok_;
      v.align = uint32_t(expect_unsigned("an alignment", 1u << 30));
      if (v.align == 0 || (v.align & (v.align - 1)) != 0)
        fail(at, "alignment must be a power of two");
    } else if (tok_.is_word(".v2") || tok_.is_word(".v4") || tok_.is_word(".v8")) {
      vec = uint32_t(tok_.text[2] - '0');
      bump();
    } else {
      break;
    }
  }
  Token type = tok_;
  if (type.kind != Token::Kind::Word || type.text[0] != '.')
    fail_expected("a type");
  uint32_t bits = type_bits(type.text.substr(1));
  if (bits == 0 || (bits == 1 && space != Space::Reg))
    fail(type, "unknown type '" + std::string(type.text) + "'");
  bump();
  if (in_param_list && tok_.is_word(".ptr")) // `.param .u64 .ptr .global .align 16 p`
    skip_pointer_attributes();
  v.type = std::string(type.text.substr(1));
  v.elem_bytes = uint64_t(bits < 8 ? 1 : bits / 8) * vec;
  if (v.align == 0)
    v.align = uint32_t(v.elem_bytes);
  name = expect_word("a variable name");
  if (!is_name(name.text))
    fail(name, "'" + std::string(name.text) + "' is not a name");
  v.name = std::string(name.text);
  bool unsized = false;
  while (tok_.is('[')) {
    Token open = tok_;
    bump();
    if (tok_.is(']')) {
      if (unsized || v.count != 1)
        fail(open, "only the first dimension of an array may be left out");
      unsized = true;
      v.count = 0;
    } else {
      uint64_t n = expect_unsigned("an array size", UINT32_MAX);
      if (unsized)
        fail(open, "only the first dimension of an array may be left out");
      if (n != 0 && v.count > (uint64_t(1) << 40) / n)
        fail(open, "array is too large");
      v.count *= n;
    }
    expect(']', "']'");
  }
  if (tok_.is('=')) {
    if (in_param_list || (space != Space::Global && space != Space::Const))
      fail(tok_, "only .global and .const variables may have initializers");
    bump();
    parse_initializer(v, bits, is_float_type(v.type));
  }
  if (v.elem_bytes > 0 && v.count > (uint64_t(1) << 40) / v.elem_bytes)
    fail(name, "variable '" + v.name + "' is too large");
  return v;
}

void Parser::parse_initializer(VarDecl &v, uint32_t scalar_bits, bool is_float) {
  uint64_t elements = 0;
  Token at = tok_;
  if (tok_.is('{'))
    parse_init_list(v, scalar_bits, is_float, 0, elements);
  else
    parse_init_list(v, scalar_bits, is_float, -1, elements);
  uint64_t scalar_bytes = scalar_bits / 8;
  uint64_t capacity = v.count * v.elem_bytes;
  if (v.count == 0) // `x[] = {...}` takes its size from the initializer
    v.count = (v.init.size() + v.elem_bytes - 1) / v.elem_bytes;
  else if (v.init.size() > capacity)
    fail(at, "initializer has " + std::to_string(elements) + " elements, more than the " +
                 std::to_string(capacity / scalar_bytes) + " of '" + v.name + "'");
}

// depth -1: one scalar without braces.
void Parser::parse_init_list(VarDecl &v, uint32_t scalar_bits, bool is_float, int depth,
                             uint64_t &elements) {
  if (depth >= 0) {
    if (depth > 8)
      fail(tok_, "initializer nests too deeply");
    expect('{', "'{'");
  }
  for (bool first = true; depth >= 0 ? !tok_.is('}') : first; first = false) {
    if (!first)
      expect(',', "',' or '}' in the initializer");
    if (tok_.is('{')) {
      parse_init_list(v, scalar_bits, is_float, depth < 0 ? 0 : depth + 1, elements);
      continue;
    }
    bool negative = tok_.is('-');
    if (negative)
      bump();
    Token w = tok_;
    if (w.kind != Token::Kind::Word || w.text[0] < '0' || w.text[0] > '9')
      fail(w, "expected a number in the initializer, found " + describe(w) +
                  (w.kind == Token::Kind::Word ? " (addresses in initializers are not supported)"
                                               : ""));
    Operand n = parse_number(w, negative);
    bump();
    uint64_t bits = uint64_t(n.imm);
    if (is_float && n.kind == Operand::Kind::FloatImm && n.is_f64 != (scalar_bits == 64)) {
      double d;
      float f;
      if (n.is_f64) { // an f64 literal for an f32 element
        std::memcpy(&d, &bits, 8);
        f = float(d);
        uint32_t b32;
        std::memcpy(&b32, &f, 4);
        bits = b32;
      } else {
        uint32_t b32 = uint32_t(bits);
        std::memcpy(&f, &b32, 4);
        d = f;
        std::memcpy(&bits, &d, 8);
      }
    } else if (is_float && n.kind == Operand::Kind::Imm) {
      fail(w, "expected a floating-point literal for a ." + v.type + " element");
    } else if (!is_float && n.kind == Operand::Kind::FloatImm) {
      fail(w, "expected an integer for a ." + v.type + " element");
    } else if (!is_float && scalar_bits < 64) {
      int64_t s = n.imm;
      bool fits = (uint64_t(s) >> scalar_bits) == 0 ||
                  (s < 0 && s >= -(int64_t(1) << (scalar_bits - 1)));
      if (!fits)
        fail(w, "value does not fit a ." + v.type + " element");
    }
    for (uint32_t b = 0; b < scalar_bits / 8; ++b)
      v.init.push_back(uint8_t(bits >> (8 * b)));
    ++elements;
    if (v.init.size() > (uint64_t(1) << 32))
      fail(w, "initializer is too large");
  }
  if (depth >= 0)
    bump();
}

// ---- Entry point ------------------------------------------------------------------------

bool parse_module(const std::string &text, const std::string &origin, Module &out,
                  ParseError &err) {
  out = Module();
  out.origin = origin;
  err = ParseError();
  try {
    Parser parser(text, out, err);
    parser.parse();
    return true;
  } catch (const ParseFailure &) {
  } catch (const std::bad_alloc &) {
    err = ParseError{1, 1, "out of memory while parsing"};
  } catch (const std::length_error &) {
    err = ParseError{1, 1, "out of memory while parsing"};
  }
  out = Module();
  out.origin = origin;
  return false;
}

} // namespace emu::ptx
