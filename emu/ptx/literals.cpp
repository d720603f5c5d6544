// emu/ptx/literals.cpp - the meaning of PTX words ----------------------------------//
#include "emu/ptx/literals.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace emu::ptx {
namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

bool parse_hex(std::string_view digits, uint64_t &value) {
  value = 0;
  for (char c : digits) {
    int d = digit_value(c);
    if (d >= 16)
      return false;
    value = value << 4 | uint64_t(d);
  }
  return true;
}

// Special registers with .x/.y/.z components, then those without.
constexpr const char *kVectorSpecials[] = {"%tid",       "%ntid",          "%ctaid",
                                           "%nctaid",    "%clusterid",     "%nclusterid",
                                           "%cluster_ctaid", "%cluster_nctaid"};
constexpr const char *kScalarSpecials[] = {
    "%laneid",          "%warpid",          "%nwarpid",          "%smid",
    "%nsmid",           "%gridid",          "%cluster_ctarank",  "%cluster_nctarank",
    "%is_explicit_cluster", "%clock",       "%clock_hi",         "%clock64",
    "%globaltimer",     "%globaltimer_lo",  "%globaltimer_hi",   "%lanemask_eq",
    "%lanemask_lt",     "%lanemask_le",     "%lanemask_gt",      "%lanemask_ge",
    "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size", "%current_graph_exec",
    "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
    "%reserved_smem_offset_0", "%reserved_smem_offset_1"};

// `prefix` followed by a decimal number below `limit`.
bool numbered(std::string_view word, std::string_view prefix, int limit) {
  if (word.size() <= prefix.size() || word.size() > prefix.size() + 2 ||
      word.substr(0, prefix.size()) != prefix)
    return false;
  int n = 0;
  for (char c : word.substr(prefix.size())) {
    if (c < '0' || c > '9')
      return false;
    n = n * 10 + (c - '0');
  }
  return n < limit;
}

} // namespace

const char *parse_unsigned(std::string_view w, uint64_t &value) {
  if (!w.empty() && (w.back() == 'U' || w.back() == 'u'))
    w.remove_suffix(1);
  if (w.empty())
    return "malformed integer literal";
  unsigned base = 10;
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
    base = 16;
    w.remove_prefix(2);
  } else if (w.size() > 2 && w[0] == '0' && (w[1] == 'b' || w[1] == 'B')) {
    base = 2;
    w.remove_prefix(2);
  } else if (w.size() > 1 && w[0] == '0') {
    base = 8;
    w.remove_prefix(1);
  }
  value = 0;
  for (char c : w) {
    int d = digit_value(c);
    if (unsigned(d) >= base)
      return "malformed integer literal";
    if (value > (UINT64_MAX - uint64_t(d)) / base)
      return "integer literal does not fit in 64 bits";
    value = value * base + uint64_t(d);
  }
  return nullptr;
}

bool parse_float_bits(std::string_view w, uint64_t &bits, bool &is_f64) {
  if (w.size() < 2 || w[0] != '0')
    return false;
  if ((w[1] == 'f' || w[1] == 'F') && w.size() == 10) {
    is_f64 = false;
    return parse_hex(w.substr(2), bits);
  }
  if ((w[1] == 'd' || w[1] == 'D') && w.size() == 18) {
    is_f64 = true;
    return parse_hex(w.substr(2), bits);
  }
  return false;
}

bool parse_decimal_float(std::string_view w, uint64_t &bits) {
  if (w.empty() || w.size() > 64 || !((w[0] >= '0' && w[0] <= '9') || w[0] == '.'))
    return false;
  for (char c : w)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E'))
      return false;
  std::string s(w);
  char *end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size())
    return false;
  std::memcpy(&bits, &d, sizeof bits);
  return true;
}

uint32_t type_bits(std::string_view t) {
  if (t == "pred")
    return 1;
  if (t == "b8" || t == "u8" || t == "s8" || t == "e4m3" || t == "e5m2")
    return 8;
  if (t == "b16" || t == "u16" || t == "s16" || t == "f16" || t == "bf16" || t == "e4m3x2" ||
      t == "e5m2x2")
    return 16;
  if (t == "b32" || t == "u32" || t == "s32" || t == "f32" || t == "f16x2" || t == "bf16x2" ||
      t == "tf32")
    return 32;
  if (t == "b64" || t == "u64" || t == "s64" || t == "f64")
    return 64;
  if (t == "b128")
    return 128;
  return 0;
}

bool is_name(std::string_view w) {
  char c = w.empty() ? 0 : w[0];
  bool start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
  return start && w.find('.') == std::string_view::npos && w.find(':') == std::string_view::npos;
}

bool is_special_register(std::string_view w) {
  if (w.size() < 2 || w[0] != '%')
    return false;
  for (const char *s : kScalarSpecials)
    if (w == s)
      return true;
  std::string_view base = w, comp;
  if (size_t dot = w.find('.'); dot != std::string_view::npos) {
    base = w.substr(0, dot);
    comp = w.substr(dot + 1);
    if (comp != "x" && comp != "y" && comp != "z")
      return false;
  }
  for (const char *s : kVectorSpecials)
    if (base == s)
      return true;
  return comp.empty() && (numbered(w, "%envreg", 32) || numbered(w, "%pm", 8));
}

} // namespace emu::ptx
