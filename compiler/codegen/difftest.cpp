// difftest.cpp - write the differential test program of schedule steps -----//
#include "compiler/codegen/difftest.h"

#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "compiler/analysis/effects.h"
#include "compiler/codegen/abi.h"
#include "compiler/codegen/c_names.h"
#include "compiler/codegen/cpp_backend.h"
#include "compiler/codegen/difftest_ctrl.h"
#include "compiler/codegen/difftest_runtime.h"
#include "compiler/codegen/difftest_work.h"
#include "compiler/codegen/effects.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/support/join.h"

namespace exgc {

using namespace codegen;

namespace {

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// The integer constants a proc mentions (loop bounds, split factors, guard
/// bounds, assert moduli), as magnitudes in [2, 2^20]: sizes around them are
/// where tails, guards and empty loops change.
class ConstCollector : public IRVisitor {
public:
  std::set<int64_t> values;

protected:
  void visit_node(const IntImm *op) override {
    int64_t v = op->value < 0 ? -op->value : op->value;
    if (v >= 2 && v <= (int64_t(1) << 20))
      values.insert(v);
  }
};

/// "k.exg:14: step 'divide_loop' of schedule 'g'": how the program names a case.
std::string case_where(const DiagEngine &diag, const DiffCase &c) {
  return diag.sources().name(c.loc.file) + ":" + std::to_string(c.loc.line) + ": " + c.label;
}

/// `t` as a C++ literal that reads back as the same double.
std::string tolerance_literal(double t) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", t);
  return buf;
}

const size_t kMaxConsts = 24; // the smallest ones: more goals than any run tries

class DiffWriter {
public:
  DiffWriter(const Program &program, DiagEngine &diag)
      : program_(program), fx_(program, diag, "C++"), diag_(diag),
        work_([this](const ProcNode *q, const std::string &name) { return fx_.callee(q, name); }) {}

  /// The work functions of the procs of the cases written so far.
  const std::string &work_functions() const { return work_.definitions(); }

  /// Writes `exgdt_admit_<id>`, `exgdt_work_<id>`, `exgdt_shape_<id>`,
  /// `exgdt_call_<id>` and the exgdt::Case `exgdt_case_<id>` naming them;
  /// false (with `why`) when the case cannot be tested.
  bool write_case(const DiffCase &c, const std::string &before_fn, const std::string &after_fn,
                  size_t id, std::ostream &o, std::string &why) {
    ProcAbi ab, aa;
    NameScope n1, n2;
    if (!make_abi(*c.before, fx_.written(c.before.get()), n1, diag_, "C++", ab, true) ||
        !make_abi(*c.after, fx_.written(c.after.get()), n2, diag_, "C++", aa, true))
      return false;
    if (ab.params.size() != aa.params.size()) {
      why = "the two procs take different arguments";
      return false;
    }
    const ProcNode &p = *c.before;
    CtrlPrinter cp;
    std::string unpack;
    std::vector<std::string> vars;
    for (size_t i = 0; i < p.args.size(); ++i) {
      const Arg &a = p.args[i];
      const Arg &b = c.after->args[i];
      if (a.type.kind != b.type.kind || a.type.scalar != b.type.scalar ||
          a.type.shape.size() != b.type.shape.size() || a.type.window != b.type.window) {
        why = "argument '" + a.name.name + "' has another type after the step";
        return false;
      }
      if (a.type.kind != Type::Kind::Control)
        continue;
      std::string v = "c" + std::to_string(i), at = "c[" + std::to_string(vars.size()) + "]";
      cp.vars[a.name.id] = v;
      cp.vars[b.name.id] = v;
      bool is_bool = a.type.scalar == ValueType::Bool;
      unpack += "  [[maybe_unused]] " + std::string(is_bool ? "bool " : "int64_t ") + v + " = " + at +
                (is_bool ? " != 0" : "") + ";\n";
      vars.push_back("{" + quote(a.name.name) + ", exgdt::" +
                     (is_bool ? "kBool" : a.type.scalar == ValueType::Index ? "kIndex" : "kSize") + "}");
    }
    // Extents of every data argument (a scalar has none).
    std::vector<std::vector<std::string>> extents(p.args.size());
    for (size_t i = 0; i < p.args.size(); ++i)
      for (const Expr &e : p.args[i].type.shape)
        extents[i].push_back(cp.print(e));
    std::string admit = "static bool exgdt_admit_" + std::to_string(id) + "(const int64_t *c) {\n" +
                        unpack;
    for (const Expr &pred : p.preds)
      admit += "  if (!(" + cp.print(analysis::size_conditions(pred)) + "))\n    return false;\n";
    for (size_t i = 0; i < p.args.size(); ++i)
      if (p.args[i].type.kind == Type::Kind::Data && !p.args[i].type.shape.empty())
        admit += "  if (!exgdt::fits({" + join(extents[i], ", ") + "}))\n    return false;\n";
    admit += "  return true;\n}\n\n";
    if (!cp.ok) {
      why = "an extent or assert is not plain integer arithmetic";
      return false;
    }

    // What a run of the dearer proc costs (the size search keeps a case's runs cheap).
    auto work_of = [&](const ProcNode &q) {
      std::vector<std::string> ctrl;
      for (const Arg &a : q.args)
        if (a.type.kind == Type::Kind::Control)
          ctrl.push_back(cp.vars[a.name.id]);
      return work_.of(q) + "(" + join(ctrl, ", ") + ")";
    };
    std::string work = "static int64_t exgdt_work_" + std::to_string(id) + "(const int64_t *c) {\n" +
                       unpack + "  return exgdt::max64(" + work_of(p) + ", " + work_of(*c.after) +
                       ");\n}\n\n";

    // The data arguments: their extents, one after another, and the calls of
    // both procs on buffers of them (the runtime's run_case fills, runs and
    // compares them).
    std::string shape = "static void exgdt_shape_" + std::to_string(id) +
                        "(const int64_t *c, int64_t *e) {\n" + unpack;
    std::vector<std::string> params, args_b, args_a;
    size_t at = 0, data = 0;
    for (size_t i = 0; i < p.args.size(); ++i) {
      const Arg &a = p.args[i];
      if (a.type.kind == Type::Kind::Barrier)
        continue;
      if (a.type.kind == Type::Kind::Control) {
        args_b.push_back(cp.vars[a.name.id]);
        args_a.push_back(cp.vars[a.name.id]);
        continue;
      }
      std::string k = std::to_string(data++);
      for (const std::string &e : extents[i])
        shape += "  e[" + std::to_string(at++) + "] = " + e + ";\n";
      params.push_back("{exgdt::ops<" + ab.params[i].ctype + ">(), " +
                       std::to_string(a.type.shape.size()) + ", " + std::to_string(i) + ", " +
                       quote(a.name.name) + "}");
      pass_buffer(ab.params[i], a.type.shape.size(), k, args_b);
      pass_buffer(aa.params[i], a.type.shape.size(), k, args_a);
    }
    shape += "}\n\n";
    std::string call = "static int exgdt_call_" + std::to_string(id) +
                       "(int which, const int64_t *c, void *const *b, const int64_t *const *s) {\n" +
                       unpack + "  (void)b;\n  (void)s;\n  if (which == 0)\n    return " + before_fn +
                       "(" + join(args_b, ", ") + ");\n  return " + after_fn + "(" +
                       join(args_a, ", ") + ");\n}\n\n";

    std::vector<std::string> consts;
    for (int64_t v : constants(c))
      consts.push_back(std::to_string(v));
    std::string where = case_where(diag_, c);
    std::string n = std::to_string(id);
    o << admit << work << shape << call << "static const exgdt::Case exgdt_case_" << n << " = {"
      << quote(where) << ", {" << join(vars, ", ") << "}, {" << join(consts, ", ") << "}, exgdt_admit_"
      << n << ", exgdt_work_" << n << ", {" << join(params, ", ") << "}, exgdt_shape_" << n
      << ", exgdt_call_" << n << ", " << tolerance_literal(c.tolerance) << "};\n\n";
    return true;
  }

private:
  /// Passes data argument `k` (of rank `rank`) from the runtime's buffers
  /// `b[k]`, of extents `s[k]`, as the proc's ABI takes it.
  static void pass_buffer(const ParamAbi &x, size_t rank, const std::string &k,
                          std::vector<std::string> &out) {
    std::string ptr = "static_cast<" + x.ctype + " *>(b[" + k + "])";
    switch (x.pass) {
    case ParamAbi::Pass::Value: out.push_back("*" + ptr); return;
    case ParamAbi::Pass::Pointer:
    case ParamAbi::Pass::Dense: out.push_back(ptr); return;
    case ParamAbi::Pass::Strided:
      out.push_back(ptr);
      // Dense row-major strides of the window's shape.
      for (size_t d = 0; d < rank; ++d) {
        std::vector<std::string> later{"int64_t(1)"};
        for (size_t r = d + 1; r < rank; ++r)
          later.push_back("s[" + k + "][" + std::to_string(r) + "]");
        out.push_back(join(later, " * "));
      }
      return;
    case ParamAbi::Pass::None: return;
    }
  }

  /// The constants of both procs and of the procs they call.
  std::vector<int64_t> constants(const DiffCase &c) {
    std::vector<Proc> all;
    ConstCollector cc;
    // A fresh AbiEffects: collect_procs lists each proc only once per object.
    AbiEffects fx(program_, diag_, "C++");
    if (fx.collect_procs({c.before, c.after}, all))
      for (const Proc &q : all)
        cc.visit_proc(*q);
    std::vector<int64_t> out(cc.values.begin(), cc.values.end());
    if (out.size() > kMaxConsts)
      out.resize(kMaxConsts);
    return out;
  }

  const Program &program_;
  AbiEffects fx_;
  DiagEngine &diag_;
  WorkFunctions work_;
};

} // namespace

bool emit_difftest(const Program &program, const std::vector<DiffCase> &cases, std::ostream &out,
                   DiagEngine &diag) {
  // Each distinct proc once, under a name of its own: steps of a schedule
  // share the schedule's proc names, and schedules that differ only in later
  // steps (a GEMM's tile-size variants) reach the same code. Procs that differ
  // only where the CPU reference ignores (loop modes, `with`, sync
  // statements, memories) compile to the same C++ and are one function too.
  std::map<const ProcNode *, std::string> fn;
  std::map<std::string, std::string> fn_of_text; // printed, all named "exgdt"
  // The signature (the extents and asserts a case reads) and the C++ of a
  // proc named "exgdt".
  std::map<std::string, std::string> fn_of_code;
  std::vector<Proc> procs;
  auto add = [&](const Proc &p) {
    if (fn.count(p.get()))
      return;
    auto copy = std::make_shared<ProcNode>(*p);
    copy->name = "exgdt";
    std::string name = "exgdt_" + std::to_string(procs.size());
    auto [printed, fresh] = fn_of_text.emplace(print_proc(*copy), name);
    if (fresh) {
      // What the C++ backend cannot translate is reported by the real run
      // below, once.
      DiagEngine quiet(diag.sources());
      std::ostringstream code;
      if (emit_cpp(program, {copy}, code, quiet, /*difftest_model=*/true)) {
        std::string key = print_proc_header(*copy) + code.str();
        printed->second = fn_of_code.emplace(key, name).first->second;
      }
    }
    fn[p.get()] = printed->second;
    if (printed->second != name)
      return;
    copy->name = name;
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
  if (!procs.empty() && !emit_cpp(program, procs, ref, diag, /*difftest_model=*/true))
    return false;
  std::ostringstream body;
  DiffWriter w(program, diag);
  std::vector<std::string> calls;
  for (size_t i = 0; i < cases.size(); ++i) {
    const DiffCase &c = cases[i];
    Proc before = by_name[fn[c.before.get()]], after = by_name[fn[c.after.get()]];
    std::string where = case_where(diag, c);
    if (before == after && c.before != c.after) {
      // A step the CPU reference cannot see: both run the same code, which
      // no run could tell apart. (A proc against itself, --emit=runall, runs.)
      calls.push_back("  exgdt::same_code(" + quote(where) + ");\n");
      continue;
    }
    DiffCase copy{c.label, c.loc, before, after, c.tolerance};
    std::ostringstream o;
    std::string why;
    if (w.write_case(copy, before->name, after->name, i, o, why)) {
      body << o.str();
      calls.push_back("  exgdt::check(exgdt_case_" + std::to_string(i) + ");\n");
      continue;
    }
    if (diag.has_errors())
      return false;
    calls.push_back("  std::printf(\"%s\\n\", " + quote(where + ": not tested: " + why) + ");\n");
  }
  out << "// Generated by exgc (--emit=difftest): every schedule step run against its input\n"
         "// at many sizes on chosen data. Prints 'N passed, M failed'; exits 1 when a step\n"
         "// changed a result. Options: --sizes=N --seed=S --show-sizes.\n";
  // EXGDT_RUNTIME_ONLY keeps the runtime alone (difftest_runtime.h).
  out << "#ifndef EXGDT_RUNTIME_ONLY\n" << ref.str() << "#endif // EXGDT_RUNTIME_ONLY\n"
      << difftest_runtime() << "\n#ifndef EXGDT_RUNTIME_ONLY\n"
      << "void exgdt::set_unset([[maybe_unused]] uint64_t seed, [[maybe_unused]] int sign) {\n"
      << (procs.empty() ? "" // no CPU reference, no case
                        : "  exg_impl::exg_unset_seed = seed;\n  exg_impl::exg_unset_sign = sign;\n")
      << "}\n\n"
      << w.work_functions() << body.str();
  out << "int main(int argc, char **argv) {\n  if (!exgdt::parse_args(argc, argv))\n    return 2;\n"
         "  exgdt::init_data();\n"
      << join(calls, "") << "  std::printf(\"%d passed, %d failed\\n\", "
      << "exgdt::passed, exgdt::failed);\n  return exgdt::failed ? 1 : 0;\n}\n"
      << "#endif // EXGDT_RUNTIME_ONLY\n";
  return true;
}

} // namespace exgc
