// c_names.cpp - C++ spellings of names, types and literals ----------------//
#include "compiler/codegen/c_names.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "compiler/support/identifier.h"

namespace exgc::codegen {

namespace {
// C++17 keywords and alternative tokens, names the generated files declare
// or call at global scope (a proc named `abort` or `main` would otherwise
// clash with them), and the macros their headers define (`NAN`, `M_PI`).
const std::set<std::string> kReserved = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char16_t", "char32_t", "class", "compl", "const", "constexpr",
    "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "return", "short", "signed", "sizeof", "static", "static_assert",
    "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true", "try",
    "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
    "wchar_t", "while", "xor", "xor_eq", "main", "std", "abort", "exit", "int8_t", "uint8_t",
    "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t", "threadIdx",
    "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "min", "max", "sqrt", "abs", "fmod",
    "assert", "NULL", "errno", "stdin", "stdout", "stderr", "INT64_C",
#include "compiler/codegen/c_macro_names.inc"
};
} // namespace

std::string c_identifier(const std::string &name) {
  std::string s;
  for (char c : name)
    s += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    s = "v" + s;
  // `__x` and `_X` are reserved to the implementation; `exg_` to us.
  if (kReserved.count(s) || s.rfind("exg_", 0) == 0 || s.find("__") != std::string::npos ||
      (s.size() > 1 && s[0] == '_' && std::isupper(static_cast<unsigned char>(s[1]))) ||
      (s.rfind("cuda", 0) == 0) || s.rfind("CU", 0) == 0 ||
      (s.size() > 2 && s[0] == 'c' && s[1] == 'u' && std::isupper(static_cast<unsigned char>(s[2]))))
    s += "_";
  return s;
}

namespace {
/// What reserves `name` for someone else (C++, exgc, CUDA), or "".
std::string reserved_problem(const std::string &name) {
  if (!is_c_identifier(name))
    return "not a C identifier (letters, digits and '_', not starting with a digit)";
  if (name.rfind("exg_", 0) == 0 || name == "exg")
    return "'exg' and names starting with 'exg_' are exgc's own";
  if (name.find("__") != std::string::npos ||
      (name.size() > 1 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1]))))
    return "names with '__' or starting with '_' and a capital letter are reserved to C++";
  return "";
}
} // namespace

std::string function_prefix_problem(const std::string &prefix) {
  if (std::string problem = reserved_problem(prefix); !problem.empty())
    return problem;
  if (prefix.rfind("cuda", 0) == 0 || prefix.rfind("CU", 0) == 0)
    return "names starting with 'cuda' or 'CU' are CUDA's";
  return "";
}

std::string namespace_problem(const std::string &path) {
  size_t start = 0;
  while (true) {
    size_t end = path.find("::", start);
    std::string part = path.substr(start, end == std::string::npos ? end : end - start);
    if (part.empty())
      return "it has an empty name (the form is 'a' or 'a::b')";
    if (std::string problem = reserved_problem(part); !problem.empty())
      return "'" + part + "': " + problem;
    if (kReserved.count(part))
      return "'" + part + "': a C++ keyword or a name the generated code uses";
    if (end == std::string::npos)
      return "";
    start = end + 2;
  }
}

std::string NameScope::take(const std::string &base) { return take_internal(c_identifier(base)); }

std::string NameScope::take_internal(const std::string &b) {
  if (used_.insert(b).second)
    return b;
  for (int i = 1;; ++i) {
    // "int_" + "1", not "int__1": a double underscore is reserved in C++.
    std::string n = b + (b.back() == '_' ? "" : "_") + std::to_string(i);
    if (used_.insert(n).second)
      return n;
  }
}

std::string c_type(ValueType t, bool f32_in_f64) {
  switch (t) {
  case ValueType::Int: case ValueType::Size: case ValueType::Index: return "int64_t";
  case ValueType::Bool: return "bool";
  // R is a precision not chosen yet: computed as f32, as the reference's C backend does.
  case ValueType::F32: case ValueType::R: return f32_in_f64 ? "double" : "float";
  case ValueType::F64: return "double";
  case ValueType::I8: return "int8_t";
  case ValueType::U8: return "uint8_t";
  case ValueType::U16: return "uint16_t";
  case ValueType::I32: return "int32_t";
  case ValueType::BF16: return "exg_bf16"; // float16_definitions() (abi.h)
  case ValueType::F16: return "exg_f16";
  case ValueType::E4M3: case ValueType::E5M2: case ValueType::Str: case ValueType::Meta:
    return "";
  }
  return "";
}

bool is_integer_ctype(const std::string &t) {
  return t == "int8_t" || t == "uint8_t" || t == "uint16_t" || t == "int32_t" || t == "int64_t";
}

std::string c_convert(const std::string &value, const std::string &from, const std::string &to) {
  if (from == to)
    return value;
  if (is_integer_ctype(to) && !is_integer_ctype(from) && from != "bool")
    return "exg_to_int<" + to + ">(" + value + ")";
  return "static_cast<" + to + ">(" + value + ")";
}

std::string c_int_literal(int64_t v) {
  std::string s = std::to_string(v);
  if (v > INT32_MAX || v < INT32_MIN)
    s += "LL";
  return v < 0 ? "(" + s + ")" : s;
}

std::string c_literal(double v, const std::string &ctype) {
  if (ctype == "float" || ctype == "double") {
    if (std::isnan(v))
      return ctype == "float" ? "__builtin_nanf(\"\")" : "__builtin_nan(\"\")";
    if (std::isinf(v))
      return std::string(v < 0 ? "(-" : "(") +
             (ctype == "float" ? "__builtin_inff())" : "__builtin_inf())");
    char buf[64];
    std::snprintf(buf, sizeof buf, ctype == "float" ? "%.9g" : "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos)
      s += ".0";
    if (ctype == "float")
      s += "f";
    return v < 0 ? "(" + s + ")" : s;
  }
  if (ctype == "exg_bf16" || ctype == "exg_f16") // rounded from the f32 literal, as a store would be
    return ctype + "(" + c_literal(v, "float") + ")";
  if (ctype == "bool")
    return v != 0 ? "true" : "false";
  // A floating value saturates, as exg_to_int converts one (and C++ would not).
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (ctype == "int8_t")
    lo = INT8_MIN, hi = INT8_MAX;
  else if (ctype == "uint8_t")
    lo = 0, hi = UINT8_MAX;
  else if (ctype == "uint16_t")
    lo = 0, hi = UINT16_MAX;
  else if (ctype == "int32_t")
    lo = INT32_MIN, hi = INT32_MAX;
  int64_t i = std::isnan(v)                         ? 0
              : v <= static_cast<double>(lo)        ? lo
              : v >= static_cast<double>(hi)        ? hi
                                                    : static_cast<int64_t>(v);
  if (ctype == "int64_t" || ctype.empty())
    return c_int_literal(i);
  return ctype + "(" + c_int_literal(i) + ")";
}

bool is_digits(const std::string &s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

std::string paren(const std::string &s) {
  bool atom = !s.empty();
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
      atom = false;
  if (atom)
    return s;
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') {
    // Only when the outer parentheses match each other: "(a) + (b)" is not wrapped.
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
      if (depth == 0 && i + 1 < s.size())
        return "(" + s + ")";
    }
    return s;
  }
  return "(" + s + ")";
}

} // namespace exgc::codegen
