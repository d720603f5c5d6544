// emu/ptx/parser.h - the recursive-descent parser behind parse_module (private) //
// Owns: the parser's state between parse.cpp (module level, declarations) and
// parse_body.cpp (function bodies, instructions, operands). Not installed for
// other areas: they see only parse.h and ast.h.
//
// Scopes: the module scope holds variables and functions; a function's scope
// holds its parameters and the top level of its body; each nested `{ }` opens
// one more, so an inline asm block's `.reg .pred p;` shadows an outer `p` and
// gets a slot of its own. Labels are scoped by blocks too (CUTLASS's inline
// asm has `LAB_WAIT:` in a block that is inlined many times) and may be used
// before they are defined, so a top-level operand naming nothing in scope is
// kept as a pending label and resolved when its block closes.
#pragma once

#include "emu/ptx/ast.h"
#include "emu/ptx/lexer.h"
#include "emu/ptx/parse.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace emu::ptx {

/// Thrown (with `Parser::err` filled) to unwind to parse_module; never escapes it.
struct ParseFailure {};

class Parser {
public:
  Parser(std::string_view text, Module &out, ParseError &err);
  void parse(); ///< throws ParseFailure after filling the error

private:
  /// What a name in scope denotes.
  struct Binding {
    enum class Kind { Reg, Var, Function } kind;
    uint32_t index; ///< Reg: slot; Var: index in its list; Function: in Module::functions
    uint32_t line;  ///< where it was declared
  };
  /// `.reg .b32 %r<N>;` binds "%r" to N consecutive slots at once: nvcc
  /// declares tens of thousands of registers this way, and one entry per
  /// register made the parser's maps its biggest cost.
  struct RegRange {
    uint32_t first, count, line;
  };
  struct Scope {
    std::unordered_map<std::string, Binding> names;
    std::unordered_map<std::string, RegRange> ranges; ///< keyed by the name before the index
  };

  /// A top-level operand naming nothing in scope when it was read: a label
  /// defined later, or an error.
  struct PendingLabel {
    size_t instr, operand;
    Token at;
  };

  // Tokens (parse.cpp).
  void bump();
  [[noreturn]] void fail(const Token &at, const std::string &message);
  [[noreturn]] void fail_expected(const char *what);
  void expect(char punct, const char *what);
  Token expect_word(const char *what);
  uint64_t expect_unsigned(const char *what, uint64_t max);
  static std::string describe(const Token &t);

  // Module level (parse.cpp).
  void parse_version_target();
  void parse_file();
  void skip_section();
  void skip_pragma();
  void parse_linkage_item();
  void parse_function(bool is_entry, const Token &start);
  void parse_param_list(std::vector<VarDecl> &params, std::vector<Token> &names);
  void skip_pointer_attributes();
  bool parse_performance_directive(Function &f);
  VarDecl parse_variable(Space space, bool is_extern, bool in_param_list, Token &name);
  void parse_initializer(VarDecl &v, uint32_t scalar_bits, bool is_float);
  void parse_init_list(VarDecl &v, uint32_t scalar_bits, bool is_float, int depth,
                       uint64_t &elements);
  void bind(Scope &scope, std::string name, const Token &at, Binding b);
  void bind_range(const std::string &base, const Token &at, RegRange r);
  static bool find_in(const Scope &scope, const std::string &name, Binding &out);

  // Function bodies (parse_body.cpp).
  void parse_body(const Token &open);
  void parse_block(const Token &open, int depth);
  void parse_reg_decl();
  void parse_scoped_variable(Space space);
  void add_register(std::string name, const Token &at, std::string_view type, uint32_t bits);
  void parse_loc();
  void parse_label();
  void parse_instruction();
  Operand parse_operand(int depth, bool top_level);
  Operand parse_address(int depth);
  Operand parse_list(char close, int depth);
  Operand parse_word_operand(const Token &w, bool top_level);
  Operand parse_number(const Token &w, bool negative);
  bool lookup(const std::string &name, Binding &out) const;
  void resolve_labels(size_t first_pending);

  ParseError &err_;
  Lexer lex_;
  std::string_view text_;
  Token tok_, ahead_;
  Module &m_;
  Scope module_scope_;
  std::vector<Scope> scopes_;       ///< innermost last; empty outside functions
  Function *fn_ = nullptr;          ///< the function being parsed
  struct LabelDef {
    int32_t index;  ///< into Function::body
    uint32_t line;
  };
  std::vector<std::unordered_map<std::string, LabelDef>> label_scopes_; ///< one per open block
  std::vector<PendingLabel> pending_;
  size_t operand_index_ = 0;        ///< of the top-level operand being read
  std::vector<Operand> operands_;   ///< the instruction's operands while it is read
  Loc loc_;                         ///< the last `.loc` in this function
};

} // namespace emu::ptx
