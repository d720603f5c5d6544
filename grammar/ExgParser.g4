// ExgParser.g4 - the syntax of .exg files ------------------------------------//
//
// One grammar for the whole language (docs/language-syntax-notes.md): procs,
// instrs, schedule scripts, imports, exports and checks. Statements and
// expressions are shared by proc bodies and script bodies; the front end
// (compiler/frontend/build*.cpp) decides what each form means where it
// appears and reports forms that do not belong there. Types are expressions
// too (`f32[M, K] @ CudaGmemLinear` is an index then an annotation), which
// keeps `@` in one place and lets barrier dimensions carry `@ ring(R)`.
//
// The token stream comes from the indenting lexer: NEWLINE ends a logical
// line, INDENT and DEDENT bracket a block, and no NEWLINE appears inside
// brackets.
parser grammar ExgParser;

options { tokenVocab = ExgLexer; }

file_ : NEWLINE* decl* EOF;

decl
  : importDecl
  | exportDecl
  | checkDecl
  | procDecl
  | defDecl
  | scheduleDecl
  | valueDecl
  ;

importDecl   : IMPORT dottedName (AS NAME)? NEWLINE;
dottedName   : NAME (DOT NAME)*;
exportDecl   : EXPORT NAME (COMMA NAME)* COMMA? NEWLINE;
checkDecl    : CHECK dottedName LPAREN args? RPAREN NEWLINE;
procDecl     : kind=(PROC | INSTR) NAME LPAREN params? RPAREN COLON suite;
params       : param (COMMA param)* COMMA?;
param        : NAME COLON expr;
defDecl      : DEF NAME LPAREN (NAME (COMMA NAME)* COMMA?)? RPAREN COLON suite;
scheduleDecl : SCHEDULE NAME FROM dottedName COLON suite;
valueDecl    : NAME ASSIGN expr NEWLINE;     // a script value: `T = 128` (exgc -D T=64)

// A block: on the same line after the ':' (one simple statement), or indented
// on the following lines.
suite
  : simpleStmt NEWLINE
  | NEWLINE INDENT stmt+ DEDENT
  ;

stmt
  : simpleStmt NEWLINE
  | ifStmt
  | forStmt
  | withStmt
  ;

simpleStmt
  : PASS                                 # passStmt
  | RETURN expr?                         # returnStmt
  | ASSERT expr                          # assertStmt
  | NAME COLON expr (COMMA expr)*        # declStmt     // alloc, or an instr attribute line
  | expr op=(ASSIGN | PLUS_ASSIGN) expr  # assignStmt   // also window statements
  | expr (SHR expr)*                     # exprStmt     // calls, with trailing barriers
  ;

ifStmt     : IF expr COLON suite elifClause* elseClause?;
elifClause : ELIF expr COLON suite;
elseClause : ELSE COLON suite;
forStmt    : FOR NAME IN expr COLON suite;
withStmt   : WITH expr COLON suite;

// Earlier alternatives bind tighter (ANTLR's rule for left-recursive rules):
// postfix, unary minus, * / %, + -, comparisons, not, and, or, then '@'
// (annotation: types, memories, tensor-map windows, barrier rings).
expr
  : atom                                              # atomExpr
  | expr DOT NAME                                     # attrExpr
  | expr LPAREN args? RPAREN                          # callExpr
  | expr LBRACK subscripts RBRACK                     # indexExpr
  | MINUS expr                                        # negExpr
  | expr op=(STAR | SLASH | PERCENT) expr             # mulExpr
  | expr op=(PLUS | MINUS) expr                       # addExpr
  | expr op=(LT | LE | GT | GE | EQ | NE) expr        # cmpExpr
  | NOT expr                                          # notExpr
  | expr AND expr                                     # andExpr
  | expr OR expr                                      # orExpr
  | expr AT expr                                      # annotExpr
  ;

atom
  : NAME                                              # nameAtom
  | INT                                               # intAtom
  | FLOAT                                             # floatAtom
  | STRING                                            # stringAtom
  | TRUE                                              # trueAtom
  | FALSE                                             # falseAtom
  | INF                                               # infAtom
  | LPAREN expr RPAREN                                # parenAtom
  | LBRACK (expr (COMMA expr)* COMMA?)? RBRACK        # listAtom
  ;

args : arg (COMMA arg)* COMMA?;
arg
  : NAME ASSIGN expr                                  # kwArg
  | expr                                              # posArg
  ;

subscripts : subscript (COMMA subscript)* COMMA?;
subscript
  : lo=expr? COLON hi=expr?                           # sliceSub
  | expr                                              # pointSub
  ;
