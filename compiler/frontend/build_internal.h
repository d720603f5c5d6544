// build_internal.h - shared helpers of the tree -> IR builder (private) ----//
// Owns: the pieces build.cpp (declarations), build_proc.cpp (proc bodies and
// types) and build_script.cpp (schedule scripts) share. A builder reports a
// diagnostic and throws BuildAbort to give up on the current declaration, so
// one mistake never cascades; the module builder catches it per declaration.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/module.h"
#include "compiler/parse/parse.h"
#include "compiler/support/diagnostics.h"

namespace exgc::build_detail {

using P = grammar::ExgParser;

/// Thrown after a diagnostic was reported; caught per declaration.
struct BuildAbort {};

/// Reports and aborts the current declaration.
template <typename... Args>
[[noreturn]] void fail(DiagEngine &diag, SrcLoc loc, DiagKind kind, const Args &...args) {
  diag.report(loc, kind, args...);
  throw BuildAbort{};
}

/// The text of a terminal or token.
std::string text_of(antlr4::tree::TerminalNode *n);

/// The source text of a construct, shortened to about 40 characters.
std::string source_text(const parse::ParsedFile &pf, antlr4::ParserRuleContext *c);

/// `(e)` -> e, any number of times.
P::ExprContext *strip_parens(P::ExprContext *e);

/// The name of a bare name expression, or "" for anything else.
std::string bare_name(P::ExprContext *e);

/// `a.b.c` -> "a.b.c" for a chain of names; "" for anything else.
std::string dotted_name(P::ExprContext *e);

/// Parses a decimal literal; false when it does not fit in int64.
bool parse_int(const std::string &digits, int64_t &out);

/// The value of a quoted string literal (either quote; \n \t \\ \" \' escapes).
std::string unquote(const std::string &lit);

/// Positional and keyword arguments of a call, in order; reports
/// PositionalAfterKeyword (and aborts) when a positional one follows a keyword.
struct CallArgs {
  std::vector<P::ExprContext *> pos;
  std::vector<std::pair<antlr4::tree::TerminalNode *, P::ExprContext *>> kw;
};
CallArgs split_args(P::ArgsContext *args, const parse::ParsedFile &pf, DiagEngine &diag);

/// `a < b < c` means `a < b and b < c` in Python but would parse here as
/// `(a < b) < c`: refused until it is given the Python meaning.
void reject_chained_comparison(P::CmpExprContext *c, const parse::ParsedFile &pf,
                               DiagEngine &diag);

/// Builds one proc or instr (build_proc.cpp).
Proc build_proc(P::ProcDeclContext *d, const parse::ParsedFile &pf, DiagEngine &diag);

/// Builds the body of a def or schedule (build_script.cpp).
script::Block build_script_suite(P::SuiteContext *s, const parse::ParsedFile &pf,
                                 DiagEngine &diag);

/// Builds the script expression of a top-level value (build_script.cpp).
script::Expr build_script_expr(P::ExprContext *e, const parse::ParsedFile &pf, DiagEngine &diag);

/// Instr attribute keys (docs/language.md, "Instr attributes").
bool is_attr_key(const std::string &key);

} // namespace exgc::build_detail
