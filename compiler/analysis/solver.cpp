// solver.cpp - IR control expressions to Z3, and cached validity queries ---//
#include "compiler/analysis/solver.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <set>

namespace exgc::analysis {

std::string Counterexample::str() const {
  std::string s;
  for (const auto &[name, value] : values) {
    if (!s.empty())
      s += ", ";
    s += name + " = " + value;
  }
  return s;
}

std::string Counterexample::value_of(const std::string &name) const {
  for (const auto &[n, v] : values)
    if (n == name)
      return v;
  return "";
}

namespace {
std::atomic<unsigned> default_limit{IndexSolver::kDefaultRlimit};
} // namespace

void IndexSolver::set_default_rlimit(unsigned rlimit) { default_limit = rlimit; }
unsigned IndexSolver::default_rlimit() { return default_limit; }

IndexSolver::IndexSolver()
    : shared_(shared_for_thread()), ctx_(shared_->ctx), rlimit_(default_limit) {}

std::shared_ptr<IndexSolver::Shared> IndexSolver::shared_for_thread() {
  // Per thread: Z3 contexts are not thread-safe. Kept alive by the solvers
  // using it, and by this slot for the next one.
  thread_local std::shared_ptr<Shared> shared;
  if (!shared)
    shared = std::make_shared<Shared>();
  return shared;
}

std::unique_ptr<z3::solver> &IndexSolver::solver() {
  std::unique_ptr<z3::solver> &slot = shared_->solvers[rlimit_];
  if (!slot) {
    slot = std::make_unique<z3::solver>(ctx_);
    z3::params p(ctx_);
    // Z3 counts the limit from where each check starts.
    if (rlimit_)
      p.set("rlimit", rlimit_);
    slot->set(p);
  }
  return slot;
}

z3::expr IndexSolver::var(const Sym &s) {
  std::string key = s.name + "!" + std::to_string(s.id);
  display_.emplace(key, s.name);
  return ctx_.int_const(key.c_str());
}

z3::expr IndexSolver::opaque(const std::string &key, const std::string &display) {
  std::string name = "?" + key;
  display_.emplace(name, display);
  return ctx_.int_const(name.c_str());
}

void IndexSolver::bind(const Sym &s, const z3::expr &e) {
  bound_[{s.id, s.name}].push_back(e);
}

void IndexSolver::unbind(const Sym &s) {
  auto it = bound_.find({s.id, s.name});
  EXGC_CHECK(it != bound_.end() && !it->second.empty()) << "unbind of unbound " << s.name;
  it->second.pop_back();
  if (it->second.empty())
    bound_.erase(it);
}

namespace {

/// The value of a ground integer term, when it simplifies to a numeral.
bool constant_of(const z3::expr &e, int64_t &out) {
  z3::expr s = e.simplify();
  return s.is_numeral() && s.is_numeral_i64(out);
}

bool fail(std::string *why, const Expr &e, const char *what) {
  if (why && why->empty())
    *why = what;
  (void)e;
  return false;
}

} // namespace

bool IndexSolver::translate(const Expr &e, z3::expr &out, std::string *why) {
  if (!e)
    return fail(why, e, "missing expression");
  if (const auto *i = e.as<IntImm>()) {
    out = ctx_.int_val(i->value);
    return true;
  }
  if (const auto *b = e.as<BoolImm>()) {
    out = ctx_.bool_val(b->value);
    return true;
  }
  if (const auto *v = e.as<Var>()) {
    auto it = bound_.find({v->name.id, v->name.name});
    if (it != bound_.end()) {
      out = it->second.back();
      return true;
    }
    if (v->name.is_global())
      return fail(why, e, "a global name is not an index value");
    if (v->type == ValueType::Bool) {
      std::string key = v->name.name + "!" + std::to_string(v->name.id);
      display_.emplace(key, v->name.name);
      out = ctx_.bool_const(key.c_str());
      return true;
    }
    if (!is_control(v->type))
      return fail(why, e, "a data value is not an index value");
    out = var(v->name);
    return true;
  }
  if (const auto *u = e.as<UnOp>()) {
    z3::expr a(ctx_);
    if (!translate(u->a, a, why))
      return false;
    if (u->op == UnOpKind::Neg) {
      if (!a.is_int())
        return fail(why, e, "'-' of a non-integer");
      out = -a;
      return true;
    }
    if (!a.is_bool())
      return fail(why, e, "'not' of a non-bool");
    out = !a;
    return true;
  }
  if (const auto *b = e.as<BinOp>()) {
    z3::expr x(ctx_), y(ctx_);
    if (!translate(b->a, x, why) || !translate(b->b, y, why))
      return false;
    bool ints = x.is_int() && y.is_int();
    bool bools = x.is_bool() && y.is_bool();
    switch (b->op) {
    case BinOpKind::Add:
    case BinOpKind::Sub:
      if (!ints)
        return fail(why, e, "arithmetic on a non-integer");
      out = b->op == BinOpKind::Add ? x + y : x - y;
      return true;
    case BinOpKind::Mul: {
      int64_t c;
      if (!ints)
        return fail(why, e, "arithmetic on a non-integer");
      if (!constant_of(x, c) && !constant_of(y, c))
        return fail(why, e, "a product of two non-constants");
      out = x * y;
      return true;
    }
    case BinOpKind::Div:
    case BinOpKind::Mod: {
      int64_t c;
      if (!ints)
        return fail(why, e, "arithmetic on a non-integer");
      if (!constant_of(y, c) || c <= 0)
        return fail(why, e, "a division by something other than a positive constant");
      z3::expr d = ctx_.int_val(c);
      // Euclidean div/mod == floor div/mod for a positive divisor.
      out = b->op == BinOpKind::Div ? z3::expr(ctx_, Z3_mk_div(ctx_, x, d))
                                    : z3::expr(ctx_, Z3_mk_mod(ctx_, x, d));
      return true;
    }
    case BinOpKind::Lt: case BinOpKind::Le: case BinOpKind::Gt: case BinOpKind::Ge:
      if (!ints)
        return fail(why, e, "an ordering of non-integers");
      out = b->op == BinOpKind::Lt ? x < y : b->op == BinOpKind::Le ? x <= y
          : b->op == BinOpKind::Gt ? x > y : x >= y;
      return true;
    case BinOpKind::Eq:
    case BinOpKind::Ne:
      if (!ints && !bools)
        return fail(why, e, "a comparison of different kinds");
      out = b->op == BinOpKind::Eq ? x == y : x != y;
      return true;
    case BinOpKind::And:
    case BinOpKind::Or:
      if (!bools)
        return fail(why, e, "'and'/'or' of non-bools");
      out = b->op == BinOpKind::And ? x && y : x || y;
      return true;
    }
    EXGC_UNREACHABLE("binop kind");
  }
  if (const auto *c = e.as<Call>()) {
    if (call_hook_ && call_hook_(*c, out))
      return true;
    std::vector<z3::expr> a;
    for (const Expr &arg : c->args) {
      z3::expr t(ctx_);
      if (!translate(arg, t, why))
        return false;
      if (!t.is_int())
        return fail(why, e, "a built-in of a non-integer");
      a.push_back(t);
    }
    if ((c->func == "min" || c->func == "max") && a.size() == 2) {
      out = c->func == "min" ? z3::ite(a[0] <= a[1], a[0], a[1])
                             : z3::ite(a[0] >= a[1], a[0], a[1]);
      return true;
    }
    if (c->func == "select" && a.size() == 4) {
      out = z3::ite(a[0] < a[1], a[2], a[3]);
      return true;
    }
    return fail(why, e, "a call outside the index language");
  }
  return fail(why, e, "an expression outside the index language");
}

void IndexSolver::collect_vars(const z3::expr &e, std::vector<z3::expr> &out,
                               std::vector<unsigned> &seen) {
  unsigned id = e.id();
  if (std::find(seen.begin(), seen.end(), id) != seen.end())
    return;
  seen.push_back(id);
  if (e.is_app()) {
    if (e.num_args() == 0 && e.decl().decl_kind() == Z3_OP_UNINTERPRETED) {
      out.push_back(e);
      return;
    }
    for (unsigned i = 0; i < e.num_args(); ++i)
      collect_vars(e.arg(i), out, seen);
  } else if (e.is_quantifier()) {
    // The free variables of a quantified goal (its bound ones are not apps).
    collect_vars(e.body(), out, seen);
  }
}

namespace {
std::atomic<size_t> total_queries{0}, total_hits{0};
std::atomic<uint64_t> max_used{0};

/// Z3's resource count so far in the context of `s` (it only grows).
uint64_t rlimit_count(const z3::solver &s) {
  z3::stats st = s.statistics();
  for (unsigned i = 0; i < st.size(); ++i)
    if (st.key(i) == "rlimit count")
      return st.is_uint(i) ? st.uint_value(i) : static_cast<uint64_t>(st.double_value(i));
  return 0;
}
/// A query's cache key: the ids of its facts. Z3 shares structurally equal
/// terms, so equal ids are equal terms while the terms live, and the cache
/// keeps each key's terms alive (CacheEntry::pinned). Printing the terms
/// instead cost two thirds of a large reorder_stmts (issue 27).
std::string ast_ids(const std::vector<z3::expr> &facts) {
  std::string key;
  for (const z3::expr &f : facts)
    key += " " + std::to_string(f.id());
  return key;
}
} // namespace

IndexSolver::Totals IndexSolver::totals() {
  Totals t;
  t.queries = total_queries.load();
  t.cache_hits = total_hits.load();
  t.max_rlimit_used = max_used.load();
  return t;
}

namespace {
thread_local QueryMeter *current_meter = nullptr;
} // namespace

QueryMeter::QueryMeter(std::function<void(bool)> on_query)
    : on_query_(std::move(on_query)), outer_(current_meter) {
  current_meter = this;
}

QueryMeter::~QueryMeter() { current_meter = outer_; }

void QueryMeter::tick(bool cached) {
  if (current_meter)
    current_meter->on_query_(cached);
}

/// One check of `facts` on this limit's incremental solver: the answer, the
/// counterexample (the variables connected to the negated goal) or why Z3
/// gave up, into `entry`.
void IndexSolver::check_once(const std::vector<z3::expr> &facts, CacheEntry &entry) {
  // One incremental solver per context: creating a solver per query costs
  // more than most of the queries themselves.
  std::unique_ptr<z3::solver> &slot = solver();
  z3::solver &s = *slot;
  // The solver may be shared: whatever happens, the query's facts go (or,
  // should Z3 fail to pop them, the solver with them).
  struct Frame {
    std::unique_ptr<z3::solver> &slot;
    explicit Frame(std::unique_ptr<z3::solver> &x) : slot(x) { slot->push(); }
    ~Frame() {
      try {
        slot->pop();
      } catch (...) {
        slot.reset();
      }
    }
  } frame(slot);
  for (const z3::expr &f : facts)
    s.add(f);
  z3::check_result r;
  try {
    uint64_t before = rlimit_count(s);
    r = s.check();
    uint64_t after = rlimit_count(s);
    uint64_t used = after >= before ? after - before : after;
    for (uint64_t m = max_used.load(); used > m && !max_used.compare_exchange_weak(m, used);) {
    }
  } catch (const z3::exception &ex) {
    r = z3::unknown;
    entry.reason = ex.msg();
  }
  if (r == z3::unsat) {
    entry.result = Validity::Valid;
  } else if (r == z3::sat) {
    entry.result = Validity::Invalid;
    z3::model m = s.get_model();
    // Show the variables connected to the last fact (the negated goal), in
    // order of first use: that is the part of the model that explains it.
    std::vector<std::vector<z3::expr>> vars_of;
    for (const z3::expr &f : facts) {
      std::vector<z3::expr> vs;
      std::vector<unsigned> seen;
      collect_vars(f, vs, seen);
      vars_of.push_back(vs);
    }
    std::set<unsigned> wanted;
    if (!vars_of.empty())
      for (const z3::expr &v : vars_of.back())
        wanted.insert(v.id());
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto &vs : vars_of) {
        bool touches = std::any_of(vs.begin(), vs.end(),
                                   [&](const z3::expr &v) { return wanted.count(v.id()); });
        if (!touches)
          continue;
        for (const z3::expr &v : vs)
          grew |= wanted.insert(v.id()).second;
      }
    }
    std::set<unsigned> shown;
    for (const auto &vs : vars_of)
      for (const z3::expr &v : vs) {
        if (!wanted.count(v.id()) || !shown.insert(v.id()).second)
          continue;
        auto d = display_.find(v.decl().name().str());
        if (d == display_.end())
          continue;
        z3::expr val = m.eval(v, true);
        std::string text = val.is_bool() ? (val.is_true() ? "true" : "false") : val.to_string();
        if (text.size() > 3 && text[0] == '(' && text[1] == '-') // Z3 prints "(- 3)"
          text = "-" + text.substr(3, text.size() - 4);
        entry.cex.values.emplace_back(d->second, text);
      }
  } else if (entry.reason.empty()) {
    entry.reason = s.reason_unknown();
  }
}

Validity IndexSolver::run(const std::vector<z3::expr> &facts, const std::string &query,
                          Counterexample *cex) {
  // A limit can change the answer (Unknown), so it is part of the question.
  std::string key = std::to_string(rlimit_) + ":" + query;
  auto hit = shared_->cache.find(key);
  QueryMeter::tick(hit != shared_->cache.end());
  ++num_queries_;
  ++total_queries;
  if (hit != shared_->cache.end()) {
    ++num_hits_;
    ++total_hits;
    if (cex)
      *cex = hit->second.cex;
    last_reason_ = hit->second.reason;
    return hit->second.result;
  }
  CacheEntry entry{Validity::Unknown, {}, "", facts};
  check_once(facts, entry);
  if (entry.result == Validity::Unknown && entry.reason == "canceled") {
    // The incremental solver's history can make a query run past its limit
    // that a fresh solver answers well within it (seen in a file of 300
    // procs): ask a fresh solver once, and keep it, so that a proc's verdict
    // does not hang on the procs checked before it.
    shared_->solvers[rlimit_].reset();
    entry = CacheEntry{Validity::Unknown, {}, "", facts};
    check_once(facts, entry);
  }
  last_reason_ = entry.reason;
  if (cex)
    *cex = entry.cex;
  return shared_->cache.emplace(key, std::move(entry)).first->second.result;
}

Validity IndexSolver::is_valid(const std::vector<z3::expr> &assumptions, const z3::expr &goal,
                               Counterexample *cex) {
  std::vector<z3::expr> facts(assumptions.begin(), assumptions.end());
  facts.push_back(!goal);
  std::string key = "valid" + ast_ids(facts);
  return run(facts, key, cex);
}

Validity IndexSolver::is_valid(const std::vector<Expr> &assumptions, const Expr &goal,
                               Counterexample *cex) {
  std::vector<z3::expr> as;
  for (const Expr &a : assumptions) {
    z3::expr t(ctx_);
    if (translate(a, t) && t.is_bool())
      as.push_back(t);
  }
  z3::expr g(ctx_);
  std::string why;
  if (!translate(goal, g, &why) || !g.is_bool()) {
    last_reason_ = why.empty() ? "the goal is not a condition" : why;
    return Validity::Unknown;
  }
  return is_valid(as, g, cex);
}

Validity IndexSolver::is_satisfiable(const std::vector<z3::expr> &facts, Counterexample *model) {
  std::vector<z3::expr> fs(facts.begin(), facts.end());
  std::string key = "sat" + ast_ids(fs);
  Validity v = run(fs, key, model);
  // run() answers for "facts are unsatisfiable": Valid means unsat.
  if (v == Validity::Valid)
    return Validity::Invalid;
  if (v == Validity::Invalid)
    return Validity::Valid;
  return Validity::Unknown;
}

} // namespace exgc::analysis
