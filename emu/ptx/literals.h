// emu/ptx/literals.h - the meaning of PTX words: numbers, types, special registers //
// Owns: the small tables and number syntax the parser consults; no state.
#pragma once

#include <cstdint>
#include <string_view>

namespace emu::ptx {

/// Reads an unsigned integer literal: decimal, `0x` hex, `0b` binary, octal
/// (a leading 0), with an optional `U` suffix. Returns nullptr and sets
/// `value`, or a message (malformed, or past 64 bits).
const char *parse_unsigned(std::string_view word, uint64_t &value);

/// Reads `0fXXXXXXXX` (is_f64 false) or `0dXXXXXXXXXXXXXXXX` (true) into
/// `bits`. Returns false when `word` is not written that way.
bool parse_float_bits(std::string_view word, uint64_t &bits, bool &is_f64);

/// Reads a decimal floating literal ("1.5", "2e3") as an f64's bits.
bool parse_decimal_float(std::string_view word, uint64_t &bits);

/// The width in bits of a PTX fundamental type named without its dot ("b32",
/// "pred" -> 1, "f16x2" -> 32), or 0 when it is not one.
uint32_t type_bits(std::string_view type);

/// Whether `word` can name a register, variable, function or label: starts
/// with a letter, `_`, `$` or `%`, and has no `.` or `:`.
bool is_name(std::string_view word);

/// Whether `word` names a special register ("%tid.x", "%laneid", "%envreg3").
bool is_special_register(std::string_view word);

} // namespace emu::ptx
