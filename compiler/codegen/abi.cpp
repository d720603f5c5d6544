// abi.cpp - parameter lists of generated functions ------------------------//
#include "compiler/codegen/abi.h"

namespace exgc::codegen {

const char *swizzle_enumerator(int64_t bytes) {
  return bytes == 128 ? "B128" : bytes == 64 ? "B64" : bytes == 32 ? "B32" : bytes == 0 ? "None"
                                                                                      : nullptr;
}

std::vector<std::string> dense_strides(const std::vector<Expr> &shape, ExprEmitter &ex) {
  std::vector<std::string> s(shape.size());
  int64_t cprod = 1;
  bool all_const = true;
  std::string prod;
  for (size_t d = shape.size(); d-- > 0;) {
    if (all_const)
      s[d] = std::to_string(cprod);
    else
      s[d] = prod;
    int64_t c;
    if (all_const && const_int(shape[d], c) && c >= 0 && c < (int64_t(1) << 31) &&
        cprod < (int64_t(1) << 31)) {
      cprod *= c;
      continue;
    }
    std::string e = paren(ex.ctrl(shape[d]));
    if (all_const) {
      prod = cprod == 1 ? e : e + " * " + std::to_string(cprod);
      all_const = false;
    } else {
      prod = e + " * " + prod;
    }
    prod = paren(prod);
  }
  return s;
}

bool make_abi(const ProcNode &p, const std::vector<bool> &written, NameScope &names, DiagEngine &diag, const std::string &backend, ProcAbi &out, bool f32_in_f64) {
  bool ok = true;
  for (size_t i = 0; i < p.args.size(); ++i) {
    const Arg &a = p.args[i];
    ParamAbi pa;
    pa.arg = &a;
    if (a.type.kind == Type::Kind::Barrier) {
      pa.pass = ParamAbi::Pass::None;
      out.params.push_back(pa);
      continue;
    }
    pa.ctype = c_type(a.type.scalar, f32_in_f64);
    if (pa.ctype.empty()) {
      ok = diag.report(a.type.loc.valid() ? a.type.loc : a.loc, DiagKind::CodegenNotSupported,
                       std::string("element type '") + value_type_name(a.type.scalar) + "'",
                       backend);
      continue;
    }
    pa.name = names.take(a.name.name);
    bool w = i < written.size() && written[i];
    if (a.type.kind == Type::Kind::Control) {
      pa.pass = ParamAbi::Pass::Value;
    } else if (!a.type.is_tensor()) {
      pa.pass = w ? ParamAbi::Pass::Pointer : ParamAbi::Pass::Value;
    } else {
      pa.is_const = !w;
      pa.pass = a.type.window ? ParamAbi::Pass::Strided : ParamAbi::Pass::Dense;
      if (pa.pass == ParamAbi::Pass::Strided)
        for (size_t d = 0; d < a.type.shape.size(); ++d)
          pa.stride_names.push_back(names.take(a.name.name + "_stride" + std::to_string(d)));
    }
    out.params.push_back(pa);
  }
  return ok;
}

std::string param_decls(const ProcAbi &abi, bool maybe_unused) {
  std::string s;
  auto add = [&](const std::string &d) {
    s += (s.empty() ? "" : ", ") + std::string(maybe_unused ? "[[maybe_unused]] " : "") + d;
  };
  for (const ParamAbi &p : abi.params) {
    switch (p.pass) {
    case ParamAbi::Pass::None:
      break;
    case ParamAbi::Pass::Value:
      add(p.ctype + " " + p.name);
      break;
    case ParamAbi::Pass::Pointer:
      add(p.ctype + " *" + p.name);
      break;
    case ParamAbi::Pass::Dense:
    case ParamAbi::Pass::Strided:
      add((p.is_const ? "const " : "") + p.ctype + " *" + p.name);
      for (const std::string &s : p.stride_names)
        add("int64_t " + s);
      break;
    }
  }
  return s;
}

void set_extents(CxxBinding &b, const std::vector<Expr> &shape, ExprEmitter &ex) {
  b.in_lo.assign(shape.size(), "0");
  b.in_hi.clear();
  for (const Expr &e : shape)
    b.in_hi.push_back(ex.ctrl(e));
}

std::string forward_args(const ProcAbi &abi) {
  std::string args;
  auto add = [&](const std::string &a) { args += (args.empty() ? "" : ", ") + a; };
  for (const ParamAbi &pa : abi.params) {
    if (pa.pass == ParamAbi::Pass::None)
      continue;
    add(pa.name);
    if (pa.pass == ParamAbi::Pass::Strided)
      for (const std::string &s : pa.stride_names)
        add(s);
  }
  return args;
}

namespace {

/// One 16-bit float type `name` (its bits in a struct, for C and C++) with the
/// C++ conversions `from_float` (a constructor from f32 setting `bits`) and
/// `to_float` (the body of `operator float`), guarded by EXG_<GUARD>_DEFINED.
std::string float16_struct(const std::string &name, const std::string &guard,
                           const std::string &what, const std::string &from_float,
                           const std::string &to_float) {
  return "#ifndef EXG_" + guard + "_DEFINED\n#define EXG_" + guard + "_DEFINED\n// " + what +
         " (docs/abi.md).\n#ifdef __cplusplus\nstruct " + name + " {\n  uint16_t bits;\n  " +
         name + "() = default;\n" + from_float +
         "  EXG_FLOAT16_FN operator float() const {\n" + to_float + "  }\n};\n#else\n" +
         "typedef struct " + name + " { uint16_t bits; } " + name + ";\n#endif\n#endif\n";
}

} // namespace

std::string float16_definitions(const std::string &code) {
  const bool bf16 = code.find("exg_bf16") != std::string::npos;
  const bool f16 = code.find("exg_f16") != std::string::npos;
  if (!bf16 && !f16)
    return "";
  // Each type is guarded by its own macro, so that a header and the file
  // including it (or two generated headers) may both hold it.
  std::string out = R"(#if defined(__cplusplus) && !defined(EXG_FLOAT16_FN)
#include <cstring>
#ifdef __CUDACC__
#define EXG_FLOAT16_FN __host__ __device__ inline
#else
#define EXG_FLOAT16_FN inline
#endif
#endif
)";
  if (bf16)
    out += float16_struct("exg_bf16", "BF16", "bf16: the upper 16 bits of an IEEE binary32",
                          R"(  // Round to nearest, ties to even, as __float2bfloat16_rn; a NaN stays quiet NaN.
  EXG_FLOAT16_FN exg_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bits = (u & 0x7fffffffu) > 0x7f800000u ? uint16_t((u >> 16) | 0x40u)
                                           : uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  // Exact: every bf16 is an f32.
)",
                          R"(    uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
)");
  if (f16)
    out += float16_struct("exg_f16", "F16", "f16: an IEEE binary16",
                          R"(  // Round to nearest, ties to even, as __float2half_rn: past 65520 infinity,
  // below 2^-14 the subnormals (steps of 2^-24); a NaN stays quiet NaN.
  EXG_FLOAT16_FN exg_f16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) {
      bits = uint16_t(sign | 0x7e00u);
    } else if (a >= 0x477ff000u) {
      bits = uint16_t(sign | 0x7c00u);
    } else if (a >= 0x38800000u) {
      // Normal: rebias the exponent (127 -> 15) and round off 13 mantissa bits;
      // a carry into the exponent is the right result.
      const uint32_t v = a - 0x38000000u;
      bits = uint16_t(sign | ((v + 0xfffu + ((v >> 13) & 1u)) >> 13));
    } else if (a < 0x33000000u) {
      bits = uint16_t(sign); // below 2^-25, half the least subnormal
    } else {
      // Subnormal: the significand (implicit bit set) in units of 2^-24.
      const uint32_t m = (a & 0x7fffffu) | 0x800000u, s = 126u - (a >> 23);
      const uint32_t q = m >> s, r = m & ((1u << s) - 1u), half = 1u << (s - 1u);
      bits = uint16_t(sign | (q + ((r > half || (r == half && (q & 1u))) ? 1u : 0u)));
    }
  }
  // Exact: every f16 is an f32.
)",
                          R"(    const uint32_t sign = uint32_t(bits & 0x8000u) << 16, e = (bits >> 10) & 0x1fu,
                   m = bits & 0x3ffu;
    if (e == 0) // zero or subnormal: m x 2^-24, exact in f32
      return (sign ? -1.0f : 1.0f) * float(m) * 5.9604644775390625e-8f;
    const uint32_t u = sign | (e == 0x1fu ? 0x7f800000u : (e + 112u) << 23) | (m << 13);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
)");
  return out + "\n";
}

namespace {
/// `a::b` -> {a, b}.
std::vector<std::string> namespace_names(const std::string &path) {
  std::vector<std::string> names;
  for (size_t start = 0;;) {
    size_t end = path.find("::", start);
    names.push_back(path.substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos)
      return names;
    start = end + 2;
  }
}
} // namespace

std::string entry_scope_open(const EntryNaming &entries) {
  if (entries.cxx_namespace.empty())
    return "extern \"C\" {\n";
  std::string out;
  for (const std::string &n : namespace_names(entries.cxx_namespace))
    out += "namespace " + n + " {\n";
  return out;
}

std::string entry_scope_close(const EntryNaming &entries) {
  if (entries.cxx_namespace.empty())
    return "} // extern \"C\"\n";
  std::vector<std::string> names = namespace_names(entries.cxx_namespace);
  std::string out;
  for (size_t i = names.size(); i-- > 0;)
    out += "} // namespace " + names[i] + "\n";
  return out;
}

std::string c_header(const std::string &comment, const std::string &includes,
                     const std::string &decls, const EntryNaming &entries) {
  std::string head = comment + "#pragma once\n";
  if (entries.cxx_namespace.empty())
    return head + includes + "#include <stdint.h>\n" +
           "#ifndef __cplusplus\n#include <stdbool.h>\n#endif\n\n" + float16_definitions(decls) +
           "#ifdef __cplusplus\n" + entry_scope_open(entries) + "#endif\n\n" + decls +
           "\n#ifdef __cplusplus\n" + entry_scope_close(entries) + "#endif\n";
  return head + "#ifndef __cplusplus\n#error \"these functions are C++ ones, in namespace " +
         entries.cxx_namespace + " (exgc --namespace)\"\n#endif\n" + includes +
         "#include <stdint.h>\n\n" + float16_definitions(decls) + entry_scope_open(entries) +
         "\n" + decls + "\n" + entry_scope_close(entries);
}

void bind_params(const ProcAbi &abi, ExprEmitter &ex) {
  // Scalars first: dense strides are expressions of the size arguments.
  for (int pass = 0; pass < 2; ++pass) {
    for (const ParamAbi &p : abi.params) {
      const Arg &a = *p.arg;
      CxxBinding b;
      b.sym = a.name;
      b.type = a.type.scalar;
      b.ctype = p.ctype;
      b.mem = a.type.mem;
      b.decl_loc = a.loc;
      bool tensor = p.pass == ParamAbi::Pass::Dense || p.pass == ParamAbi::Pass::Strided;
      if (tensor != (pass == 1))
        continue;
      switch (p.pass) {
      case ParamAbi::Pass::None:
        b.kind = CxxBinding::Kind::Barrier;
        break;
      case ParamAbi::Pass::Value:
        b.expr = p.name;
        break;
      case ParamAbi::Pass::Pointer:
        b.expr = "(*" + p.name + ")";
        b.writable = true;
        break;
      case ParamAbi::Pass::Dense:
        b.kind = CxxBinding::Kind::View;
        b.expr = p.name;
        b.is_const = p.is_const;
        b.strides = dense_strides(a.type.shape, ex);
        b.dense = true;
        set_extents(b, a.type.shape, ex);
        break;
      case ParamAbi::Pass::Strided:
        b.kind = CxxBinding::Kind::View;
        b.expr = p.name;
        b.is_const = p.is_const;
        b.strides = p.stride_names;
        set_extents(b, a.type.shape, ex);
        break;
      }
      ex.env().bind(a.name, b);
    }
  }
}

} // namespace exgc::codegen
