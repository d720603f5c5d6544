// difftest.cpp - write the differential test program of schedule steps -----//
#include "compiler/codegen/difftest.h"

#include <map>
#include <sstream>

#include "compiler/codegen/abi.h"
#include "compiler/codegen/c_names.h"
#include "compiler/codegen/cpp_backend.h"
#include "compiler/codegen/effects.h"

namespace exgc {

using namespace codegen;

namespace {

const char *kRuntime = R"(
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
namespace exgdt {

int64_t fdiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t fmod(int64_t a, int64_t b) { return a - fdiv(a, b) * b; }

struct Rng {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  int64_t in(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
};

const int64_t kPool[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256};
const int kPoolSize = int(sizeof kPool / sizeof kPool[0]);
const int64_t kMaxElems = int64_t(1) << 20;

/// A control argument for attempt `a`: all equal to the pool's a-th value
/// first (shapes that must agree), then random pool values.
int64_t pick_size(Rng &r, int a) { return a < kPoolSize ? kPool[a] : kPool[r.in(0, kPoolSize - 1)]; }
int64_t pick_index(Rng &r, int a) { return a < kPoolSize ? kPool[a] - 1 : r.in(0, 16); }

template <typename T> T random_value(Rng &r) {
  if (T(0.5) != T(0))
    return T(double(r.in(-8, 8)) / 4.0); // exact binary fractions
  if (T(-1) < T(0))
    return T(r.in(-8, 8));
  return T(r.in(0, 16));
}

template <typename T> void fill(std::vector<T> &v, Rng &r) {
  for (T &x : v)
    x = random_value<T>(r);
}

template <typename T> bool same(T a, T b) {
  if (T(0.5) == T(0))
    return a == b;
  double x = double(a), y = double(b);
  if (x == y || (std::isnan(x) && std::isnan(y)))
    return true;
  double m = std::fabs(x) > std::fabs(y) ? std::fabs(x) : std::fabs(y);
  return std::fabs(x - y) <= 1e-5 * (m > 1 ? m : 1);
}

/// Index of the first element that differs, or -1.
template <typename T> int64_t first_diff(const std::vector<T> &a, const std::vector<T> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i]))
      return int64_t(i);
  return -1;
}

int passed = 0, failed = 0;

} // namespace exgdt
} // namespace
)";

std::string join(const std::vector<std::string> &xs, const std::string &sep) {
  std::string out;
  for (size_t i = 0; i < xs.size(); ++i)
    out += (i ? sep : "") + xs[i];
  return out;
}

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// Control expressions (extents, asserts) as C++ over the size variables.
class CtrlPrinter {
public:
  std::map<uint32_t, std::string> vars; // Sym id -> C++ variable
  bool ok = true;

  std::string print(const Expr &e) {
    if (const auto *i = e.as<IntImm>())
      return "int64_t(" + std::to_string(i->value) + ")";
    if (const auto *b = e.as<BoolImm>())
      return b->value ? "true" : "false";
    if (const auto *v = e.as<Var>()) {
      auto it = vars.find(v->name.id);
      if (it != vars.end())
        return it->second;
    }
    if (const auto *u = e.as<UnOp>())
      return std::string(u->op == UnOpKind::Neg ? "(-" : "(!") + print(u->a) + ")";
    if (const auto *b = e.as<BinOp>()) {
      std::string a = print(b->a), c = print(b->b);
      switch (b->op) {
      case BinOpKind::Div: return "exgdt::fdiv(" + a + ", " + c + ")";
      case BinOpKind::Mod: return "exgdt::fmod(" + a + ", " + c + ")";
      case BinOpKind::And: return "(" + a + " && " + c + ")";
      case BinOpKind::Or: return "(" + a + " || " + c + ")";
      default: return "(" + a + " " + binop_spelling(b->op) + " " + c + ")";
      }
    }
    if (const auto *c = e.as<Call>(); c && (c->func == "min" || c->func == "max") && c->args.size() == 2)
      return "std::" + c->func + "(" + print(c->args[0]) + ", " + print(c->args[1]) + ")";
    ok = false;
    return "0";
  }
};

class DiffWriter {
public:
  DiffWriter(const Program &program, DiagEngine &diag) : fx_(program, diag, "C++"), diag_(diag) {}

  /// The body of `static void case_N()`; false (with `why`) when the case
  /// cannot be tested.
  bool write_case(const DiffCase &c, const std::string &before_fn, const std::string &after_fn,
                  std::ostream &o, std::string &why) {
    ProcAbi ab, aa;
    NameScope n1, n2;
    if (!make_abi(*c.before, fx_.written(c.before.get()), n1, diag_, "C++", ab) ||
        !make_abi(*c.after, fx_.written(c.after.get()), n2, diag_, "C++", aa))
      return false;
    if (ab.params.size() != aa.params.size()) {
      why = "the two procs take different arguments";
      return false;
    }
    const ProcNode &p = *c.before;
    CtrlPrinter cp;
    std::vector<std::string> controls, sizes_shown;
    for (size_t i = 0; i < p.args.size(); ++i) {
      const Arg &a = p.args[i];
      const Arg &b = c.after->args[i];
      if (a.type.kind != b.type.kind || a.type.scalar != b.type.scalar ||
          a.type.shape.size() != b.type.shape.size() || a.type.window != b.type.window) {
        why = "argument '" + a.name.name + "' has another type after the step";
        return false;
      }
      if (a.type.kind == Type::Kind::Control) {
        std::string v = "c" + std::to_string(i);
        cp.vars[a.name.id] = v;
        controls.push_back(v);
      }
    }
    o << "  exgdt::Rng rng;\n  int found = 0;\n  bool ok = true;\n";
    o << "  for (int attempt = 0; attempt < 3000 && found < 3 && ok; ++attempt) {\n";
    for (size_t i = 0; i < p.args.size(); ++i) {
      const Arg &a = p.args[i];
      if (a.type.kind != Type::Kind::Control)
        continue;
      std::string v = cp.vars[a.name.id];
      if (a.type.scalar == ValueType::Bool)
        o << "    bool " << v << " = rng.in(0, 1) == 1;\n";
      else
        o << "    int64_t " << v << " = exgdt::pick_"
          << (a.type.scalar == ValueType::Size ? "size" : "index") << "(rng, attempt);\n";
      sizes_shown.push_back("\"" + a.name.name + "=\" << " + v);
    }
    for (const Expr &pred : p.preds)
      o << "    if (!(" << cp.print(pred) << ")) continue;\n";
    // Elements of each buffer.
    std::vector<std::string> counts(p.args.size());
    for (size_t i = 0; i < p.args.size(); ++i) {
      const Arg &a = p.args[i];
      if (a.type.kind != Type::Kind::Data)
        continue;
      std::vector<std::string> dims{"int64_t(1)"};
      for (const Expr &e : a.type.shape)
        dims.push_back(cp.print(e));
      counts[i] = "n" + std::to_string(i);
      o << "    int64_t " << counts[i] << " = " << join(dims, " * ") << ";\n";
      o << "    if (" << counts[i] << " < 1 || " << counts[i] << " > exgdt::kMaxElems) continue;\n";
    }
    if (!cp.ok) {
      why = "an extent or assert is not plain integer arithmetic";
      return false;
    }
    o << "    ++found;\n";
    std::vector<std::string> args_b, args_a, compares;
    for (size_t i = 0; i < p.args.size(); ++i) {
      const Arg &a = p.args[i];
      const ParamAbi &pb = ab.params[i], &pa = aa.params[i];
      std::string id = std::to_string(i);
      if (a.type.kind == Type::Kind::Barrier)
        continue;
      if (a.type.kind == Type::Kind::Control) {
        args_b.push_back(cp.vars[a.name.id]);
        args_a.push_back(cp.vars[a.name.id]);
        continue;
      }
      const std::string &t = pb.ctype;
      o << "    std::vector<" << t << "> d" << id << "(" << counts[i] << ");\n"
        << "    exgdt::fill(d" << id << ", rng);\n"
        << "    std::vector<" << t << "> b" << id << " = d" << id << ", a" << id << " = d" << id
        << ";\n";
      auto pass = [&](const ParamAbi &x, const std::string &buf, std::vector<std::string> &out) {
        switch (x.pass) {
        case ParamAbi::Pass::Value: out.push_back(buf + "[0]"); return;
        case ParamAbi::Pass::Pointer:
        case ParamAbi::Pass::Dense: out.push_back(buf + ".data()"); return;
        case ParamAbi::Pass::Strided: {
          out.push_back(buf + ".data()");
          // Dense row-major strides of the window's shape.
          for (size_t d = 0; d < a.type.shape.size(); ++d) {
            std::vector<std::string> later{"int64_t(1)"};
            for (size_t k = d + 1; k < a.type.shape.size(); ++k)
              later.push_back(cp.print(a.type.shape[k]));
            out.push_back(join(later, " * "));
          }
          return;
        }
        case ParamAbi::Pass::None: return;
        }
      };
      pass(pb, "b" + id, args_b);
      pass(pa, "a" + id, args_a);
      compares.push_back(id);
    }
    o << "    int rb = " << before_fn << "(" << join(args_b, ", ") << ");\n";
    o << "    int ra = " << after_fn << "(" << join(args_a, ", ") << ");\n";
    std::string where = quote(diag_.sources().name(c.loc.file) + ":" + std::to_string(c.loc.line) +
                              ": " + c.label);
    std::string sizes = sizes_shown.empty() ? "\"\"" : join(sizes_shown, " << \" \" << ");
    o << "    std::ostringstream sizes;\n    sizes << " << sizes << ";\n";
    o << "    if (rb != ra) {\n      std::printf(\"%s: FAILED: returns %d, its input returns %d "
         "(%s)\\n\", "
      << where << ", ra, rb, sizes.str().c_str());\n      ok = false;\n      break;\n    }\n";
    for (const std::string &id : compares) {
      size_t i = std::stoul(id);
      o << "    if (int64_t at = exgdt::first_diff(b" << id << ", a" << id << "); at >= 0) {\n"
        << "      std::printf(\"%s: FAILED: element %lld of '%s' is %g, its input computes %g "
           "(%s)\\n\", "
        << where << ", (long long)at, " << quote(p.args[i].name.name) << ", double(a" << id
        << "[at]), double(b" << id << "[at]), sizes.str().c_str());\n"
        << "      ok = false;\n      break;\n    }\n";
    }
    o << "  }\n";
    o << "  if (ok && found == 0) {\n    std::printf(\"%s: FAILED: no sizes from the pool satisfy "
         "the asserts\\n\", "
      << where << ");\n    ok = false;\n  }\n";
    o << "  if (ok)\n    std::printf(\"%s: ok (%d sizes)\\n\", " << where << ", found);\n";
    o << "  ++(ok ? exgdt::passed : exgdt::failed);\n";
    return true;
  }

private:
  Effects fx_;
  DiagEngine &diag_;
};

} // namespace

bool emit_difftest(const Program &program, const std::vector<DiffCase> &cases, std::ostream &out,
                   DiagEngine &diag) {
  // Each distinct proc once, under a name of its own: steps of a schedule
  // share the schedule's proc names.
  std::map<const ProcNode *, std::string> fn;
  std::vector<Proc> procs;
  auto add = [&](const Proc &p) {
    if (fn.count(p.get()))
      return;
    auto copy = std::make_shared<ProcNode>(*p);
    copy->name = "exgdt_" + std::to_string(procs.size());
    fn[p.get()] = copy->name;
    procs.push_back(copy);
  };
  for (const DiffCase &c : cases) {
    add(c.before);
    add(c.after);
  }
  // The copies' effects and ABI are computed on the copies themselves.
  std::map<std::string, Proc> by_name;
  for (const Proc &p : procs)
    by_name[p->name] = p;
  std::ostringstream ref;
  if (!procs.empty() && !emit_cpp(program, procs, ref, diag))
    return false;
  std::ostringstream body;
  DiffWriter w(program, diag);
  std::vector<std::string> calls;
  for (size_t i = 0; i < cases.size(); ++i) {
    const DiffCase &c = cases[i];
    Proc before = by_name[fn[c.before.get()]], after = by_name[fn[c.after.get()]];
    DiffCase copy{c.label, c.loc, before, after};
    std::ostringstream o;
    std::string why;
    if (!w.write_case(copy, before->name, after->name, o, why)) {
      if (diag.has_errors())
        return false;
      std::string where = diag.sources().name(c.loc.file) + ":" + std::to_string(c.loc.line);
      body << "static void exgdt_case_" << i << "() {\n  std::printf(\"%s\\n\", "
           << quote(where + ": " + c.label + ": not tested: " + why) << ");\n}\n\n";
    } else {
      body << "static void exgdt_case_" << i << "() {\n" << o.str() << "}\n\n";
    }
    calls.push_back("  exgdt_case_" + std::to_string(i) + "();\n");
  }
  out << "// Generated by exgc (--emit=difftest): every schedule step run against its input\n"
         "// on random data. Prints 'N passed, M failed'; exits 1 when a step changed a result.\n";
  out << ref.str();
  out << "#include <algorithm>\n#include <cmath>\n#include <cstdint>\n#include <sstream>\n"
         "#include <vector>\n"
      << kRuntime << "\n" << body.str();
  out << "int main() {\n" << join(calls, "") << "  std::printf(\"%d passed, %d failed\\n\", "
      << "exgdt::passed, exgdt::failed);\n  return exgdt::failed ? 1 : 0;\n}\n";
  return true;
}

} // namespace exgc
