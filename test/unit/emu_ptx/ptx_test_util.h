// test/unit/emu_ptx/ptx_test_util.h - helpers shared by the PTX parser's tests --//
#pragma once

#include "emu/ptx/parse.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace emu::ptx::test {

/// The header every hand-written snippet starts with (3 lines).
inline const char *kHeader = ".version 9.0\n.target sm_90a\n.address_size 64\n";

/// Parses `text`, failing the test (with the error) when it does not parse.
inline Module parse_ok(const std::string &text) {
  Module m;
  ParseError e;
  bool ok = parse_module(text, "test.ptx", m, e);
  EXPECT_TRUE(ok) << "test.ptx:" << e.line << ":" << e.col << ": " << e.message;
  return m;
}

/// Parses `text`, which must fail; returns the error.
inline ParseError parse_error(const std::string &text) {
  Module m;
  ParseError e;
  EXPECT_FALSE(parse_module(text, "test.ptx", m, e)) << "parsed, but an error was expected";
  return e;
}

/// "line:col: message", for comparing whole errors at once.
inline std::string where(const ParseError &e) {
  return std::to_string(e.line) + ":" + std::to_string(e.col) + ": " + e.message;
}

/// A kernel `k` with `body` (after the opening brace, on line 5 of the text).
inline std::string kernel(const std::string &decls_and_body) {
  return std::string(kHeader) + ".visible .entry k()\n{\n" + decls_and_body + "\n}\n";
}

inline std::string read_data(const std::string &name) {
  std::ifstream f(std::string(EXGC_SOURCE_DIR) + "/test/unit/emu_ptx/data/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// 1-based line of the first occurrence of `needle` in `text` (0: absent).
inline uint32_t line_of(const std::string &text, const std::string &needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos)
    return 0;
  uint32_t line = 1;
  for (size_t i = 0; i < at; ++i)
    line += text[i] == '\n';
  return line;
}

} // namespace emu::ptx::test
