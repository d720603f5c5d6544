// ExgLexer.g4 - the tokens of .exg files -----------------------------------//
//
// This grammar only splits characters into tokens. Layout (NEWLINE, INDENT,
// DEDENT), bracket balance, nesting limits and bad characters are handled by
// the indenting lexer in compiler/parse/indent_lexer.cpp, which wraps the
// lexer generated from this file, so the parser never sees a malformed stream.
// ERRCHAR and UNTERMINATED_STRING exist so that this lexer never fails: they
// turn into diagnostics there.
lexer grammar ExgLexer;

// Made by the indenting lexer, never by a rule here.
tokens { INDENT, DEDENT }

// Keywords. Everything else (types, loop modes, memories, units, timelines,
// sync statements) is a NAME that the front end interprets by position.
IMPORT   : 'import';
AS       : 'as';
EXPORT   : 'export';
PROC     : 'proc';
INSTR    : 'instr';
DEF      : 'def';
SCHEDULE : 'schedule';
FROM     : 'from';
CHECK    : 'check';
FOR      : 'for';
IN       : 'in';
IF       : 'if';
ELIF     : 'elif';
ELSE     : 'else';
PASS     : 'pass';
RETURN   : 'return';
WITH     : 'with';
ASSERT   : 'assert';
AND      : 'and';
OR       : 'or';
NOT      : 'not';
TRUE     : 'True';
FALSE    : 'False';
INF      : 'inf';   // the float literal infinity (`-inf` is its negation)

NAME  : [a-zA-Z_] [a-zA-Z_0-9]*;
FLOAT : DIGITS '.' DIGITS? EXPONENT? | '.' DIGITS EXPONENT? | DIGITS EXPONENT;
INT   : DIGITS;
STRING
  : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"'
  | '\'' (~['\\\r\n] | '\\' ~[\r\n])* '\''
  ;
// A string that reaches the end of its line: reported, never parsed.
UNTERMINATED_STRING
  : '"' (~["\\\r\n] | '\\' ~[\r\n])* '\\'?
  | '\'' (~['\\\r\n] | '\\' ~[\r\n])* '\\'?
  ;

LPAREN      : '(';
RPAREN      : ')';
LBRACK      : '[';
RBRACK      : ']';
COMMA       : ',';
COLON       : ':';
DOT         : '.';
PLUS_ASSIGN : '+=';
SHR         : '>>';
LE          : '<=';
GE          : '>=';
EQ          : '==';
NE          : '!=';
ASSIGN      : '=';
AT          : '@';
PLUS        : '+';
MINUS       : '-';
STAR        : '*';
SLASH       : '/';
PERCENT     : '%';
LT          : '<';
GT          : '>';

// Only '\n' ends a line (as for the SourceManager's line numbers); a '\r'
// before it, or anywhere else, is whitespace.
NEWLINE : '\r'? '\n';
// U+FEFF: a byte-order mark at the start of the file.
WS      : [ \t\f\r\uFEFF]+ -> skip;
COMMENT : '#' ~[\r\n]* -> skip;

// Any other character: reported by the indenting lexer.
ERRCHAR : .;

fragment DIGITS   : [0-9]+;
fragment EXPONENT : [eE] [+-]? DIGITS;
