// help.h - `exgc --help` in the forms users type -----------------------------//
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "llvm/Support/CommandLine.h"

namespace exgc {

/// One option an enum's values belong to, for --help to list them.
struct EnumOption {
  const llvm::cl::Option *option;
  const llvm::cl::generic_parser_base *values;
};

/// Prints the options of `category` as typed: `-o <file>`, `-I <dir>`,
/// `-MD` (short names, one dash, the value separate), `--emit=<value>` (long
/// names), `-Werror` (a value glued on, cl::AlwaysPrefix); the values of
/// `enums` under their option. `extra` lines (form, help) are options parsed
/// outside LLVM's table.
void print_help(std::ostream &os, const llvm::cl::OptionCategory &category,
                const std::vector<EnumOption> &enums,
                const std::vector<std::pair<std::string, std::string>> &extra);

} // namespace exgc
