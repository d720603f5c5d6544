// indent_lexer_test.cpp - the token stream the parser sees ------------------//
// The layout rules (NEWLINE, INDENT, DEDENT), the checks made before parsing
// (tabs, dedents, brackets, nesting, characters, UTF-8) and positions, on
// token streams rather than through the parser, so each rule is seen alone.
#include <gtest/gtest.h>

#include <sstream>

#include "compiler/parse/parse.h"

using namespace exgc;

namespace {

struct Lexed {
  std::string tokens; // "proc f ( ) : NL IN pass NL DE EOF"
  std::vector<parse::LexedToken> raw;
  std::string diags;
};

std::string shown(const parse::LexedToken &t) {
  using L = grammar::ExgLexer;
  switch (t.type) {
  case antlr4::Token::EOF: return "EOF";
  case L::NEWLINE: return "NL";
  case L::INDENT: return "IN";
  case L::DEDENT: return "DE";
  default: return t.text;
  }
}

Lexed lex(const std::string &text) {
  SourceManager sm;
  DiagEngine diag(sm);
  uint32_t f = sm.add("t.exg", text);
  Lexed out;
  out.raw = parse::lex_file(f, sm, diag);
  for (size_t i = 0; i < out.raw.size(); ++i)
    out.tokens += (i ? " " : "") + shown(out.raw[i]);
  std::ostringstream os;
  for (const Diagnostic &d : diag.diagnostics())
    os << d.loc.line << ":" << d.loc.col << ": " << d.message << " ["
       << diag_info(d.kind).name << "]\n";
  out.diags = os.str();
  return out;
}

std::string repeat(const std::string &s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += s;
  return out;
}

} // namespace

TEST(IndentLexer, BlockOpensWithIndentAndClosesWithDedent) {
  Lexed l = lex("proc f():\n    pass\n");
  EXPECT_EQ(l.tokens, "proc f ( ) : NL IN pass NL DE EOF");
  EXPECT_EQ(l.diags, "");
}

TEST(IndentLexer, BlankAndCommentOnlyLinesMakeNoTokens) {
  Lexed l = lex("\n# top\nif a:   # trailing\n\n      \n  # odd indent\n    pass\n\n# end\n");
  EXPECT_EQ(l.tokens, "if a : NL IN pass NL DE EOF");
}

TEST(IndentLexer, NoNewlineInsideBrackets) {
  // Continuation lines may sit at any column, even left of the block.
  Lexed l = lex("if a:\n    f(x,\ny)[\n  0]\n    g()\n");
  EXPECT_EQ(l.tokens, "if a : NL IN f ( x , y ) [ 0 ] NL g ( ) NL DE EOF");
}

TEST(IndentLexer, SeveralBlocksCloseAtOnce) {
  Lexed l = lex("if a:\n    if b:\n        pass\nx\n");
  EXPECT_EQ(l.tokens, "if a : NL IN if b : NL IN pass NL DE DE x NL EOF");
}

TEST(IndentLexer, EndOfFileClosesLineAndBlocks) {
  EXPECT_EQ(lex("if a:\n    if b:\n        pass").tokens,
            "if a : NL IN if b : NL IN pass NL DE DE EOF");
  EXPECT_EQ(lex("pass").tokens, "pass NL EOF");
  EXPECT_EQ(lex("").tokens, "EOF");
  EXPECT_EQ(lex("# only a comment").tokens, "EOF");
  EXPECT_EQ(lex("\n\n   \n").tokens, "EOF");
}

TEST(IndentLexer, CrlfAndByteOrderMark) {
  std::string lf = lex("if a:\n    pass\n").tokens;
  EXPECT_EQ(lex("if a:\r\n    pass\r\n").tokens, lf);
  Lexed bom = lex("\xEF\xBB\xBFif a:\n    pass\n");
  EXPECT_EQ(bom.tokens, lf);
  EXPECT_EQ(bom.diags, "");
}

TEST(IndentLexer, InlineSuiteHasNoIndent) {
  EXPECT_EQ(lex("if a: pass\nx\n").tokens, "if a : pass NL x NL EOF");
}

TEST(IndentLexer, NewlineSitsRightAfterTheLastToken) {
  // So that "expected ':'" points after the loop header, not at a comment.
  Lexed l = lex("for i in seq(0, n)   # comment\n");
  const parse::LexedToken &nl = l.raw[l.raw.size() - 2];
  EXPECT_EQ(shown(nl), "NL");
  EXPECT_EQ(nl.loc.line, 1u);
  EXPECT_EQ(nl.loc.col, 19u);
}

TEST(IndentLexer, TokenPositionsAreOneBasedByteColumns) {
  // The caret renderer counts bytes: a multi-byte character before a token
  // moves its column by its byte length.
  Lexed l = lex("x = \"\xC3\xA9\" y\n");
  ASSERT_EQ(l.tokens, "x = \"\xC3\xA9\" y NL EOF");
  EXPECT_EQ(l.raw[0].loc.col, 1u);
  EXPECT_EQ(l.raw[2].loc.col, 5u);
  EXPECT_EQ(l.raw[3].loc.col, 10u);
}

TEST(IndentLexer, TabInIndentationIsAnErrorAtTheTab) {
  Lexed l = lex("if a:\n  \tpass\n");
  EXPECT_EQ(l.diags, "2:3: tab character in indentation; indent with spaces [TabIndent]\n");
  EXPECT_EQ(l.tokens, "if a : NL EOF"); // the stream ends at the first error
  // A tab between tokens is ordinary whitespace.
  EXPECT_EQ(lex("x =\t1\n").diags, "");
}

TEST(IndentLexer, DedentMustMatchAnOpenBlock) {
  Lexed l = lex("if a:\n    if b:\n        pass\n  x\n");
  EXPECT_EQ(l.diags,
            "4:3: unindent does not match any outer indentation level [InconsistentDedent]\n");
}

TEST(IndentLexer, UnbalancedBrackets) {
  EXPECT_EQ(lex("x = (a + [b\n").diags, "1:10: '[' has no matching ']' [UnbalancedBracket]\n");
  EXPECT_EQ(lex("x = a)\n").diags, "1:6: ')' has no matching '(' [UnbalancedBracket]\n");
  EXPECT_EQ(lex("x = (a]\n").diags, "1:5: '(' has no matching ')' [UnbalancedBracket]\n");
}

TEST(IndentLexer, BracketNestingLimit) {
  EXPECT_EQ(lex("x = " + repeat("(", 256) + "1" + repeat(")", 256) + "\n").diags, "");
  Lexed deep = lex("x = " + repeat("(", 3000) + "1" + repeat(")", 3000) + "\n");
  EXPECT_EQ(deep.diags, "1:261: brackets nested more than 256 deep [NestingTooDeep]\n");
  EXPECT_EQ(deep.raw.back().type, antlr4::Token::EOF);
}

TEST(IndentLexer, BlockNestingLimit) {
  auto nest = [](int depth) {
    std::string s;
    for (int d = 0; d < depth; ++d)
      s += std::string(4 * d, ' ') + "if a:\n";
    return s + std::string(4 * depth, ' ') + "pass\n";
  };
  EXPECT_EQ(lex(nest(256)).diags, "");
  EXPECT_EQ(lex(nest(257)).diags, "258:1029: blocks nested more than 256 deep [NestingTooDeep]\n");
}

TEST(IndentLexer, PrefixOperatorLimitCountsOnlyPrefixOperators) {
  EXPECT_EQ(lex("x = " + repeat("- ", 256) + "1\n").diags, "");
  EXPECT_EQ(lex("x = " + repeat("not ", 257) + "b\n").diags,
            "1:1029: prefix operators nested more than 256 deep [NestingTooDeep]\n");
  // Binary minus resets the run: a - -b - -c ...
  EXPECT_EQ(lex("x = a" + repeat(" - -b", 300) + "\n").diags, "");
}

TEST(IndentLexer, StatementOperatorLimit) {
  std::string ok = "x = 1" + repeat(" + 1", 2048) + "\n";
  EXPECT_EQ(lex(ok).diags, "");
  Lexed l = lex("x = 1" + repeat(" + 1", 2049) + "\n" + "y = 1" + repeat(" + 1", 2000) + "\n");
  EXPECT_EQ(l.diags,
            "1:8199: statement has more than 2048 operators and brackets; split it "
            "[StatementTooComplex]\n");
  // The count restarts on each line.
  std::string two = "x = 1" + repeat(" + 1", 2000) + "\ny = 1" + repeat(" + 1", 2000) + "\n";
  EXPECT_EQ(lex(two).diags, "");
}

TEST(IndentLexer, BadCharactersAndStrings) {
  EXPECT_EQ(lex("x = $\n").diags, "1:5: invalid character '$' in program text [InvalidCharacter]\n");
  EXPECT_EQ(lex(std::string("x = \x01\n")).diags,
            "1:5: invalid character '\\x01' in program text [InvalidCharacter]\n");
  EXPECT_EQ(lex("x = \"abc\n").diags, "1:5: string literal has no closing quote [UnterminatedString]\n");
  EXPECT_EQ(lex("x = 'a\\'b' + \"c\\\"d\"\n").diags, "");
  // Malformed UTF-8 is found before lexing, at its byte.
  Lexed bad = lex("pass\nx = 1 \xFF\n");
  EXPECT_EQ(bad.diags, "2:7: invalid character '\\xff' in program text [InvalidCharacter]\n");
  EXPECT_EQ(bad.tokens, "EOF");
}

TEST(IndentLexer, TokenTypeNames) {
  EXPECT_EQ(parse::token_type_name(grammar::ExgLexer::NAME), "NAME");
  EXPECT_EQ(parse::token_type_name(grammar::ExgLexer::INDENT), "INDENT");
  EXPECT_EQ(parse::token_type_name(grammar::ExgLexer::COLON), "':'");
  EXPECT_EQ(parse::token_type_name(antlr4::Token::EOF), "EOF");
}

TEST(Parse, FlagshipSyntaxParses) {
  SourceManager sm;
  DiagEngine diag(sm);
  uint32_t f = sm.add("t.exg",
                      "import cuda.sm90a as sm90\n"
                      "export a, b\n"
                      "proc a(n: size, x: [f32][n] @ CudaGmemLinear):\n"
                      "    m = x[:] @ Sm90_tensorMap(128, 16, 4)\n"
                      "    raw: barrier[((n + 31) / 32) @ ring(4)] @ CudaMbarrier(pre_arrive=4)\n"
                      "    sm90.f(x[0:4], N=4) >> raw[0] >> raw[1:]\n"
                      "schedule b from a:\n"
                      "    p = f(p, c.body()[0:4], k=-1)\n"
                      "check b(n=16)\n");
  std::unique_ptr<parse::ParsedFile> pf = parse::parse_file(f, sm, diag);
  ASSERT_TRUE(pf);
  EXPECT_EQ(pf->tree->decl().size(), 5u);
  EXPECT_FALSE(diag.has_errors());
}

TEST(Parse, OnlyTheFirstSyntaxErrorIsReported) {
  SourceManager sm;
  DiagEngine diag(sm);
  uint32_t f = sm.add("t.exg", "proc f(n: size):\n    for i in seq(0, n)\n        x = = 1\n"
                               "proc g(:):\n");
  EXPECT_FALSE(parse::parse_file(f, sm, diag));
  ASSERT_EQ(diag.diagnostics().size(), 1u);
  EXPECT_EQ(diag.diagnostics()[0].message, "expected ':' after the loop header");
  EXPECT_EQ(diag.diagnostics()[0].loc.line, 2u);
  EXPECT_EQ(diag.diagnostics()[0].loc.col, 23u);
}
