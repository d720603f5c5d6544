// parse.cpp - run the indenting lexer and the parser over one file ---------//
#include "compiler/parse/parse.h"

#include <cstdio>

#include "compiler/parse/syntax_errors.h"

namespace exgc::parse {

namespace {

/// Finds the first byte that does not start or continue a well-formed UTF-8
/// sequence (overlong forms, surrogates and code points past U+10FFFF count
/// as malformed). ANTLR's decoder would throw on them.
bool find_bad_utf8(const std::string &s, size_t &bad) {
  size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else {
      bad = i;
      return true;
    }
    if (i + len > n) {
      bad = i;
      return true;
    }
    for (size_t k = 1; k < len; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) {
        bad = i;
        return true;
      }
      cp = (cp << 6) | (d & 0x3F);
    }
    bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
      bad = i;
      return true;
    }
    i += len;
  }
  return false;
}

/// Reports malformed UTF-8 as an invalid character at its byte position.
bool check_utf8(uint32_t file, const std::string &text, DiagEngine &diag) {
  size_t bad;
  if (!find_bad_utf8(text, bad))
    return true;
  uint32_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < bad; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[bad]));
  diag.report(SrcLoc{file, line, static_cast<uint32_t>(bad - line_start + 1)},
              DiagKind::InvalidCharacter, buf);
  return false;
}

} // namespace

std::unique_ptr<ParsedFile> parse_file(uint32_t file, const SourceManager &sources,
                                       DiagEngine &diag) {
  const std::string &text = sources.text(file);
  if (!check_utf8(file, text, diag))
    return nullptr;
  auto pf = std::make_unique<ParsedFile>();
  std::shared_ptr<FirstErrorStrategy> strategy;
  try {
    pf->positions = std::make_unique<PositionMap>(file, sources);
    pf->input = std::make_unique<antlr4::ANTLRInputStream>(text);
    pf->lexer = std::make_unique<IndentLexer>(pf->input.get(), *pf->positions, diag);
    pf->lexer->removeErrorListeners();
    pf->tokens = std::make_unique<antlr4::CommonTokenStream>(pf->lexer.get());
    // Lex everything first: layout and bracket errors are reported before
    // the parser runs, and the parser never sees a stream that nests too deep.
    pf->tokens->fill();
    if (pf->lexer->failed())
      return nullptr;
    pf->parser = std::make_unique<grammar::ExgParser>(pf->tokens.get());
    pf->parser->removeErrorListeners();
    strategy = std::make_shared<FirstErrorStrategy>(*pf->positions, diag);
    pf->parser->setErrorHandler(strategy);
    pf->tree = pf->parser->file_();
  } catch (const antlr4::ParseCancellationException &) {
    // The strategy reported the error before cancelling.
  } catch (const std::exception &e) {
    diag.report(SrcLoc{file, 0, 0}, DiagKind::InternalFailure,
                "parsing '" + sources.name(file) + "'", e.what());
    return nullptr;
  }
  if (!strategy || strategy->reported() || !pf->tree)
    return nullptr;
  return pf;
}

std::vector<LexedToken> lex_file(uint32_t file, const SourceManager &sources, DiagEngine &diag) {
  std::vector<LexedToken> out;
  const std::string &text = sources.text(file);
  if (check_utf8(file, text, diag)) {
    PositionMap positions(file, sources);
    antlr4::ANTLRInputStream input(text);
    IndentLexer lexer(&input, positions, diag);
    lexer.removeErrorListeners();
    for (;;) {
      std::unique_ptr<antlr4::Token> t = lexer.nextToken();
      out.push_back({t->getType(), t->getText(), positions.loc(t.get())});
      if (t->getType() == antlr4::Token::EOF)
        return out;
    }
  }
  out.push_back({antlr4::Token::EOF, "<EOF>", SrcLoc{file, 1, 1}});
  return out;
}

std::string token_type_name(size_t type) {
  if (type == antlr4::Token::EOF)
    return "EOF";
  const antlr4::dfa::Vocabulary &v = grammar::ExgLexer(nullptr).getVocabulary();
  std::string lit = v.getLiteralName(type);
  return lit.empty() ? v.getSymbolicName(type) : lit;
}

} // namespace exgc::parse
