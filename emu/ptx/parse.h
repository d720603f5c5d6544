// emu/ptx/parse.h - PTX text to a Module ----------------------------------------//
#pragma once

#include "emu/ptx/ast.h"

#include <string>

namespace emu::ptx {

/// A parse failure: `line` and `col` are 1-based in the PTX text.
struct ParseError {
  uint32_t line = 0, col = 0;
  std::string message;
};

/// Parses `text` (as nvcc writes it for compute_90a, inline asm included).
/// Returns false and fills `err` on the first error; never throws, never
/// crashes on any input. `origin` names the text in reports.
bool parse_module(const std::string &text, const std::string &origin, Module &out,
                  ParseError &err);

} // namespace emu::ptx
