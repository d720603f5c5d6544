// emu/ptx/ast.h - a parsed PTX module, as the emulator's front end hands it on //
// Owns: the data the parser (parse.h) produces and the engine (emu/exec/)
// decodes. The parser resolves what needs scope: register names to slots
// (nested `{ .reg ... }` blocks of inline asm shadow outer names), labels to
// instruction indices, and `.loc` directives to each instruction. Opcode
// modifiers stay as written (split at '.'), so the engine alone decides what
// an instruction means and reports one it does not know at its PTX line.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace emu::ptx {

/// A state space of a variable or a memory instruction.
enum class Space { Reg, Param, Global, Shared, Local, Const, Generic };

/// One operand of an instruction.
struct Operand {
  enum class Kind {
    Reg,     ///< a register slot: `reg` (a predicate may carry `negated`, as in `!%p1`)
    Special, ///< a special register, `name` as written: "%tid.x", "%cluster_ctarank", ...
    Imm,     ///< an integer literal (decimal, 0x hex, 0b, octal), value in `imm`
    FloatImm,///< `0fXXXXXXXX` (bits in `imm`, `is_f64` false) or `0dXXXXXXXXXXXXXXXX` (true)
    Symbol,  ///< a variable, parameter or function name used as a value (its address): `name`
    Label,   ///< a branch target: `target` is the instruction index in the function
    Address, ///< `[base+offset]`: `base` is one operand (Reg, Symbol or Imm), `imm` the offset;
             ///< tensor forms `[map, {c0, c1}]` add the rest after the base in `elems`
    Vector,  ///< `{a, b, ...}`: `elems` (registers, immediates or sinks)
    Pair,    ///< `a|b` (two destinations, e.g. `%r1|%p2`, `_|p`): `elems` has two
    Sink,    ///< `_`
  };
  Kind kind = Kind::Reg;
  uint32_t reg = 0;          ///< Reg: slot index into Function::regs
  bool negated = false;      ///< Reg (predicate): written `!%p`
  bool is_f64 = false;       ///< FloatImm: `0d` form
  int64_t imm = 0;           ///< Imm, FloatImm (bits), Address (byte offset)
  int32_t target = -1;       ///< Label: index into Function::body
  std::string name;          ///< Special, Symbol, Label (as written)
  std::vector<Operand> elems;///< Vector, Pair; Address: elems[0] is the base
};

/// A register declaration (after `%r<N>` expansion, one per register).
struct RegDecl {
  std::string name; ///< "%r5", "p" (inline-asm scope), ...
  std::string type; ///< ".b32", ".pred", ".f32", ".u64", ... as written, without the dot
  uint32_t bits = 0;///< 1 for .pred, else the type's width
};

/// A variable in the global, const, shared or local space (module or function scope),
/// or a kernel parameter (space Param).
struct VarDecl {
  Space space = Space::Global;
  std::string name;
  std::string type;            ///< element type without the dot: "b8", "u64", "f32"
  uint32_t align = 0;          ///< `.align N`, else the element size
  uint64_t elem_bytes = 0;     ///< size of one element
  uint64_t count = 1;          ///< number of elements (array size; 0 for `[]`)
  bool is_extern = false;      ///< `.extern .shared ... x[]` (dynamic shared memory)
  std::vector<uint8_t> init;   ///< initializer bytes (empty: none; zero-filled if shorter)
  uint64_t bytes() const { return elem_bytes * count; }
};

/// A source position from `.loc F L C` (`file` indexes Module::files; 0: none).
/// `inlined_*` is the `inlined_at` call site when the directive has one.
struct Loc {
  int file = 0, line = 0, col = 0;
  int inlined_file = 0, inlined_line = 0, inlined_col = 0;
};

/// One instruction: `@guard opcode.mods operands;`.
struct Instr {
  std::string opcode;             ///< the base mnemonic: "ld", "wgmma", "mbarrier", "cp", ...
  std::vector<std::string> mods;  ///< the rest, split at '.', in order:
                                  ///< "cp.async.bulk.tensor.2d.shared::cluster..." ->
                                  ///< opcode "cp", mods {"async","bulk","tensor","2d",
                                  ///< "shared::cluster", ...}
  int32_t guard = -1;             ///< predicate register slot, or -1
  bool guard_negated = false;     ///< `@!%p`
  std::vector<Operand> operands;
  uint32_t ptx_line = 0;          ///< 1-based line in the PTX text
  Loc loc;                        ///< the last `.loc` before it
  std::string text;               ///< the instruction as written (for reports)
};

/// A kernel (`.entry`) or device function (`.func`).
struct Function {
  std::string name;
  bool is_entry = false;
  std::vector<VarDecl> params;   ///< in order; space Param
  std::vector<VarDecl> returns;  ///< `.func (.param ... ret) name(...)`
  std::vector<RegDecl> regs;     ///< every register of every scope; Operand::reg indexes it
  std::vector<VarDecl> vars;     ///< function-scope .shared / .local / .const variables, and
                                 ///< the .param ones of call sequences (nested scopes may
                                 ///< repeat a name: `param0` in each `{ // callseq }` block)
  std::vector<Instr> body;
  std::map<std::string, int32_t> labels; ///< label -> index into body (labels are scoped by
                                         ///< blocks: a name repeated in inline asm blocks
                                         ///< keeps its first; Operand::target is exact)
  // Performance directives (0: absent).
  uint32_t maxntid[3] = {0, 0, 0}, reqntid[3] = {0, 0, 0};
  uint32_t reqnctapercluster[3] = {0, 0, 0};
  bool explicitcluster = false;
  uint32_t maxnreg = 0, minnctapersm = 0, maxclusterrank = 0;
  uint32_t decl_line = 0;        ///< PTX line of the `.entry`/`.func`
  bool is_declaration = false;   ///< declared without a body (`.extern .func vprintf`):
                                 ///< something outside the module must provide it
};

/// A whole PTX module.
struct Module {
  std::string version, target;   ///< ".version 9.0" -> "9.0"; ".target sm_90a" -> "sm_90a"
  uint32_t address_size = 64;
  std::vector<VarDecl> vars;     ///< module-scope .global / .const / .shared variables
  std::vector<Function> functions;
  std::map<int, std::string> files; ///< `.file N "path"`
  std::string origin;            ///< where the text came from (for reports)

  const Function *find(const std::string &name) const {
    for (const Function &f : functions)
      if (f.name == name)
        return &f;
    return nullptr;
  }
};

} // namespace emu::ptx
