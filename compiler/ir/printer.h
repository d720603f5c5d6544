// printer.h - the IR back to .exg text ------------------------------------//
// Owns: the canonical text of every node. The output is valid .exg and
// printing, parsing and printing again gives the same text (tested in
// test/lit/roundtrip and test/unit/ir). Blank lines of the source are not
// kept (declarations are separated by one blank line); its full-line comments
// are, when print_module is given the source text.
#pragma once
#include <string>

#include "compiler/ir/module.h"
#include "compiler/ir/nodes.h"
#include "compiler/ir/script.h"

namespace exgc {

std::string print_expr(const Expr &e);
std::string print_type(const Type &t);
/// Statements at `indent` levels of four spaces, each line ending in '\n'.
std::string print_stmt(const Stmt &s, int indent = 0);
std::string print_block(const Block &b, int indent);
std::string print_proc(const ProcNode &p);
/// The first lines of print_proc: the signature, an instr's attributes and
/// the asserts, without the body (what an editor shows on hover).
std::string print_proc_header(const ProcNode &p);
std::string print_script_expr(const script::Expr &e);
std::string print_script_block(const script::Block &b, int indent);
/// With `source` (the text `m` was parsed from), each full-line comment is
/// printed above the declaration or statement that followed it there, at
/// that one's indentation; comments after the last declaration end the text.
/// Comments after code on a line are not kept.
std::string print_module(const Module &m, const std::string *source = nullptr);

} // namespace exgc
