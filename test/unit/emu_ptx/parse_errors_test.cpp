// parse_errors_test.cpp - every refusal of the PTX parser, with its line and column //
// A malformed module must be reported where the text is wrong, so that the
// emulator's BadProgram report points a user at the right PTX line.
#include "ptx_test_util.h"

namespace emu::ptx::test {
namespace {

// Body lines of kernel() start at line 6.
std::string body_error(const std::string &body) { return where(parse_error(kernel(body))); }

TEST(ParseErrors, NamesThatResolveToNothing) {
  EXPECT_EQ(body_error("\t.reg .pred %p<2>;\n\t@%p1 bra $L__BB0_9;"),
            "7:11: undefined label or symbol '$L__BB0_9'");
  EXPECT_EQ(body_error("\t.reg .b32 %r<2>;\n\tadd.s32 %r1, %r9, 1;"),
            "7:15: undeclared register '%r9'");
  EXPECT_EQ(body_error("\t.reg .b32 %r<2>;\n\tld.global.u32 %r1, [nosuch+4];"),
            "7:22: undefined symbol 'nosuch'");
  EXPECT_EQ(body_error("\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.w;"),
            "7:15: undeclared register '%tid.w'");
  // A register of an inner block is gone after it.
  EXPECT_EQ(body_error("\t{\n\t.reg .pred p;\n\t}\n\t.reg .b32 %r1;\n\tselp.u32 %r1, 1, 0, p;"),
            "10:22: undefined label or symbol 'p'");
  EXPECT_EQ(body_error("\tcall.uni nosuch, ();"), "6:11: 'nosuch' is not a declared function");
  // A label of an inner block is not seen from outside it.
  EXPECT_EQ(body_error("\tbra.uni DONE;\n\t{\nDONE:\n\tret;\n\t}"),
            "6:10: undefined label or symbol 'DONE'");
}

TEST(ParseErrors, DuplicateDeclarations) {
  EXPECT_EQ(body_error("\t.reg .b32 %r<4>;\n\t.reg .b32 %r2;"),
            "7:12: '%r2' is already declared in this scope (line 6)");
  EXPECT_EQ(body_error("\t.reg .b32 %r<4>;\n\t.reg .b32 %r<2>;"),
            "7:12: '%r0' is already declared in this scope (line 6)");
  EXPECT_EQ(body_error("\t.reg .b32 %r2;\n\t.reg .b32 %r<4>;"),
            "7:12: '%r2' is already declared in this scope (line 6)");
  EXPECT_EQ(body_error("\t.reg .b32 %r<4>;\n\tmov.b32 %r01, 0;"),
            "7:10: undeclared register '%r01'");
  EXPECT_EQ(body_error("\t.reg .pred p;\n\t{\n\t.reg .pred p;\n\t.reg .b32 p;\n\t}"),
            "9:12: 'p' is already declared in this scope (line 8)");
  EXPECT_EQ(body_error("$L__BB0_1:\n\tret;\n$L__BB0_1:\n\tret;"),
            "8:1: label '$L__BB0_1' is already defined at line 6");
  EXPECT_EQ(body_error("\t.shared .b8 x[4];\n\t.local .b8 x[4];"),
            "7:13: 'x' is already declared in this scope (line 6)");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".global .u32 g;\n.global .u32 g;\n")),
            "5:14: 'g' is already declared in this scope (line 4)");
  EXPECT_EQ(where(parse_error(std::string(kHeader) +
                              ".entry k()\n{\n\tret;\n}\n.entry k()\n{\n\tret;\n}\n")),
            "8:8: 'k' is already declared in this scope (line 4)");
  EXPECT_EQ(where(parse_error(std::string(kHeader) +
                              ".entry k(.param .u32 a, .param .u32 a)\n{\n\tret;\n}\n")),
            "4:37: 'a' is already declared in this scope (line 4)");
}

TEST(ParseErrors, Guards) {
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\t@%r1 ret;"),
            "7:3: guard '%r1' is not a predicate (it is .b32)");
  EXPECT_EQ(body_error("\t@%p1 ret;"), "6:3: guard '%p1' is not a declared register");
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\tnot.b32 %r1, !%r1;"),
            "7:16: '!' applies to predicate registers only");
}

TEST(ParseErrors, MalformedSyntax) {
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\tmov.u32 %r1, 1"), "8:1: expected ',' or ';' after the operand, found '}'");
  EXPECT_EQ(body_error("\tld..u32 %r1, [%r1];"), "6:2: empty modifier in 'ld..u32'");
  EXPECT_EQ(body_error("\t.reg .b33 %x;"), "6:7: expected a register type, found '.b33'");
  EXPECT_EQ(body_error("\t.foo 3;"), "6:2: unknown directive '.foo' in a function body");
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\tmov.u32 %r1, #1;"), "7:15: unexpected character");
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\tld.u32 %r1, [%r1+];"), "7:19: expected an offset, found ']'");
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\tmov.u32 %r1, .b32;"),
            "7:15: expected an operand, found '.b32'");
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\tmov.u32 %r1, 1.5.2;"),
            "7:15: malformed integer literal '1.5.2'");
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\tmov.u32 %r1, {%r1, %r1;"),
            "7:24: expected ',' or '}' in the vector, found ';'");
  EXPECT_EQ(body_error("\t.loc 1 2 3, discriminator 4"), "6:14: unknown .loc attribute 'discriminator'");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + "mov.u32 %r1, 0;\n")),
            "4:1: expected a directive, found 'mov.u32'");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".global .u32 x = {1, 2};\n")),
            "4:18: initializer has 2 elements, more than the 1 of 'x'");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".global .u8 x[2] = {1, 256};\n")),
            "4:24: value does not fit a .u8 element");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".global .u64 p = generic(x);\n")),
            "4:18: expected a number in the initializer, found 'generic' (addresses in "
            "initializers are not supported)");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".shared .u32 s = 1;\n")),
            "4:16: only .global and .const variables may have initializers");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".global .align 3 .u32 s;\n")),
            "4:16: alignment must be a power of two");
}

TEST(ParseErrors, NumbersOutOfRange) {
  EXPECT_EQ(body_error("\t.reg .b64 %rd1;\n\tmov.b64 %rd1, 0x1FFFFFFFFFFFFFFFF;"),
            "7:16: integer literal does not fit in 64 bits '0x1FFFFFFFFFFFFFFFF'");
  EXPECT_EQ(body_error("\t.reg .b64 %rd1;\n\tmov.b64 %rd1, -9223372036854775809;"),
            "7:17: integer literal '-9223372036854775809' does not fit in 64 bits");
  EXPECT_EQ(body_error("\t.reg .b32 %r<99999999>;"),
            "6:15: '99999999' is too large for a register count (at most 262144)");
  EXPECT_EQ(body_error("\t.reg .b32 %a<262144>;\n\t.reg .b32 %b;"),
            "7:12: too many registers in 'k'");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".entry k()\n.maxntid 99999999999\n{\n}\n")),
            "5:10: '99999999999' is too large for a dimension (at most 4294967295)");
}

TEST(ParseErrors, UnterminatedText) {
  // An unclosed block is reported at its brace, not past the end of the text.
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".entry k()\n{\n\tret;\n")),
            "5:1: this '{' is not closed");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".entry k()\n{\n\t{\n\tret;\n}\n")),
            "5:1: this '{' is not closed");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + "/* open comment\n")),
            "4:1: unterminated '/*' comment");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".file 1 \"a.cu\n")),
            "4:9: unterminated string");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".section .debug_str\n{\n.b8 1\n")),
            "5:1: '{' of the '.section' is not closed");
  EXPECT_EQ(where(parse_error(std::string(kHeader) + ".entry k(.param .u32 a\n")),
            "4:23: expected ',' or ')' in the parameter list, found end of input");
  EXPECT_EQ(where(parse_error(".version")), "1:9: expected a version number, found end of input");
}

TEST(ParseErrors, NestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 40; ++i)
    deep += "{\n";
  EXPECT_EQ(body_error(deep), "38:1: blocks nest too deeply");
  EXPECT_EQ(body_error("\t.reg .b32 %r1;\n\tmov.u32 %r1, {{{{{{{{{{{%r1}}}}}}}}}}};"),
            "7:24: operand nests too deeply");
}

} // namespace
} // namespace emu::ptx::test
