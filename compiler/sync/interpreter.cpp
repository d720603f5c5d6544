// interpreter.cpp - sequential walk, thread boxes, barrier counts ---------//
#include "compiler/sync/interpreter_impl.h"

#include <cstdio>

namespace exgc::sync {
namespace detail {

bool Interpreter::bind(const Block &b) {
  bool has_tasks = false;
  for (const StmtP &sp : b) {
    const Stmt &s = *sp;
    bind(s.value);
    bind(s.hi);
    for (const Expr &d : s.dims)
      bind(d);
    for (const Index &t : s.targets)
      bind(t);
    for (const BarrierRef &r : s.bars) {
      r.sym = tensor_slot(r.name);
      bind(r.idx);
    }
    switch (s.kind) {
    case StmtKind::Let: case StmtKind::Seq: case StmtKind::Tasks: case StmtKind::Threads:
      s.sym = value_slot(s.name);
      break;
    case StmtKind::Data: case StmtKind::Barrier: case StmtKind::Free: case StmtKind::Access:
      s.sym = tensor_slot(s.name);
      break;
    default:
      break;
    }
    if (!s.guard.empty())
      tensor_slot(s.guard);
    bool inner = bind(s.body);
    inner = bind(s.else_body) || inner;
    if (s.kind == StmtKind::Tasks)
      s.innermost = inner ? 0 : 1;
    has_tasks = has_tasks || inner || s.kind == StmtKind::Tasks;
  }
  return has_tasks;
}

bool Interpreter::run() {
  bind(prog_.body);
  vals_.assign(value_slots_.size(), 0);
  defined_.assign(value_slots_.size(), 0);
  cur_tensor_.assign(tensor_slots_.size(), -1);
  cpu_threads_ = std::make_shared<const ThreadSet>(ThreadSet::all());
  threads_ = cpu_threads_;
  try {
    exec_block(prog_.body);
  } catch (const Stop &) {
    return false;
  } catch (const BudgetExceeded &b) {
    hazard_ = Hazard();
    hazard_.kind = HazardKind::ResourceLimit;
    hazard_.seq = seq_;
    hazard_.stmt = running_;
    hazard_.threads = threads_;
    hazard_.message = b.message + "; " + reached();
    hazard_.iters = iters_;
    return false;
  }
  return true;
}

std::string Interpreter::reached() const {
  std::string r = "it stopped";
  if (!task_ranges_.empty()) {
    // The task being run, in C order over the tasks loops around it.
    int64_t index = 0, total = 1;
    for (const TaskRange &t : task_ranges_) {
      const int64_t n = t.hi - t.lo;
      index = index * n + (iters_[t.iter].second - t.lo);
      total = total > INT64_MAX / std::max<int64_t>(n, 1) ? INT64_MAX : total * n;
    }
    r += " in task " + std::to_string(index + 1) + " of " + std::to_string(total);
  }
  if (opts_.meter) {
    char buf[80];
    std::snprintf(buf, sizeof buf, " after %.3f s, having grown by %.0f MiB",
                  opts_.meter->seconds(), opts_.meter->grown_bytes() / 1048576.0);
    r += buf;
  }
  return r;
}

void Interpreter::fail(const Stmt &s, HazardKind k, const std::string &msg) {
  fail_element(s, k, -1, -1, msg);
}

void Interpreter::fail_element(const Stmt &s, HazardKind k, int t, int64_t lin,
                               const std::string &msg) {
  hazard_ = Hazard();
  if (t >= 0)
    set_element(t, lin);
  hazard_.kind = k;
  hazard_.seq = seq_;
  hazard_.stmt = &s;
  hazard_.threads = threads_;
  hazard_.message = msg;
  hazard_.iters = iters_;
  throw Stop();
}

void Interpreter::set_element(int t, int64_t lin) {
  hazard_.tensor_id = t;
  hazard_.linear = lin;
  hazard_.tensor = tensors_[t].name;
  hazard_.element = tensors_[t].unlinear(lin);
}

void Interpreter::machine_failed(const Stmt &s) {
  hazard_ = m_.hazard();
  hazard_.seq = seq_;
  hazard_.stmt = &s;
  hazard_.threads = threads_;
  hazard_.iters = iters_;
  if (hazard_.tensor_id >= 0) {
    hazard_.tensor = tensors_[hazard_.tensor_id].name;
    hazard_.element = tensors_[hazard_.tensor_id].unlinear(hazard_.linear);
  }
  throw Stop();
}

int64_t Interpreter::eval(const Expr &e, const Stmt &s) {
  switch (e->kind) {
  case ExprKind::Int: return e->value;
  case ExprKind::Var:
    if (!defined_[e->slot])
      fail(s, HazardKind::InvalidProgram, "'" + e->name + "' is not defined");
    return vals_[e->slot];
  case ExprKind::Neg: {
    int64_t a = eval(e->a, s);
    if (a == INT64_MIN)
      fail(s, HazardKind::InvalidProgram, "'" + expr_string(e) + "' overflows 64 bits");
    return -a;
  }
  case ExprKind::Not: return !eval(e->a, s);
  case ExprKind::And: return eval(e->a, s) && eval(e->b, s);
  case ExprKind::Or: return eval(e->a, s) || eval(e->b, s);
  default: break;
  }
  int64_t a = eval(e->a, s), b = eval(e->b, s);
  switch (e->kind) {
  case ExprKind::Add:
  case ExprKind::Sub:
  case ExprKind::Mul: {
    int64_t r = 0;
    bool over = e->kind == ExprKind::Add   ? __builtin_add_overflow(a, b, &r)
                : e->kind == ExprKind::Sub ? __builtin_sub_overflow(a, b, &r)
                                           : __builtin_mul_overflow(a, b, &r);
    if (over)
      fail(s, HazardKind::InvalidProgram, "'" + expr_string(e) + "' overflows 64 bits");
    return r;
  }
  case ExprKind::Div:
  case ExprKind::Mod: {
    if (b == 0)
      fail(s, HazardKind::InvalidProgram, "division by zero in '" + expr_string(e) + "'");
    // INT64_MIN / -1 is the one quotient that does not fit (and traps).
    if (a == INT64_MIN && b == -1) {
      if (e->kind == ExprKind::Mod)
        return 0;
      fail(s, HazardKind::InvalidProgram, "'" + expr_string(e) + "' overflows 64 bits");
    }
    int64_t q = floor_div(a, b);
    return e->kind == ExprKind::Div ? q : a - q * b;
  }
  case ExprKind::Lt: return a < b;
  case ExprKind::Le: return a <= b;
  case ExprKind::Gt: return a > b;
  case ExprKind::Ge: return a >= b;
  case ExprKind::Eq: return a == b;
  case ExprKind::Ne: return a != b;
  default: return 0;
  }
}

void Interpreter::intern(ThreadSet &&t) {
  if (interned_task_ != task_) {
    interned_.clear();
    interned_task_ = task_;
  }
  auto &bucket = interned_[t.hash()];
  for (const ThreadSetP &p : bucket)
    if (*p == t) {
      threads_ = p;
      return;
    }
  bucket.push_back(std::make_shared<const ThreadSet>(std::move(t)));
  threads_ = bucket.back();
}

void Interpreter::set_threads() {
  if (!in_device_) {
    threads_ = cpu_threads_;
    return;
  }
  ThreadSet t;
  const size_t n = domain_.size();
  // The innermost dims the box covers fully form contiguous runs.
  size_t k = n; // dims [k, n) are full
  while (k > 0 && lo_[k - 1] == 0 && hi_[k - 1] == domain_[k - 1])
    --k;
  int64_t inner = 1;
  for (size_t d = k; d < n; ++d)
    inner *= domain_[d];
  uint64_t base = thread_base_;
  if (k == 0) {
    t.append(base, base + inner);
    intern(std::move(t));
    return;
  }
  // Dim k-1 gives the run length; dims [0, k-1) are enumerated (odometer).
  int64_t run_lo = lo_[k - 1] * inner, run_len = (hi_[k - 1] - lo_[k - 1]) * inner;
  std::vector<int64_t> idx(lo_.begin(), lo_.begin() + (k - 1));
  for (;;) {
    int64_t off = 0, stride = inner * domain_[k - 1];
    for (size_t d = k - 1; d-- > 0;) {
      off += idx[d] * stride;
      stride *= domain_[d];
    }
    t.append(base + off + run_lo, base + off + run_lo + run_len);
    int d = static_cast<int>(k) - 2;
    while (d >= 0) {
      if (++idx[d] < hi_[d])
        break;
      idx[d] = lo_[d];
      --d;
    }
    if (d < 0)
      break;
  }
  intern(std::move(t));
}

void Interpreter::exec_loop(const Stmt &s) {
  int64_t lo = eval(s.value, s), hi = eval(s.hi, s);
  int slot = s.sym;
  int64_t saved = vals_[slot];
  char saved_def = defined_[slot];
  iters_.push_back({s.name, 0});
  if (s.kind == StmtKind::Tasks) {
    task_vars_.push_back(s.name);
    task_ranges_.push_back({lo, hi, iters_.size() - 1});
  }
  defined_[slot] = 1;
  if (s.kind == StmtKind::Seq) {
    exec_seq(s, lo, hi);
  } else {
    for (int64_t i = lo; i < hi; ++i) {
      running_ = &s; // an empty body ticks here only
      tick();
      vals_[slot] = i;
      iters_.back().second = i;
      if (s.kind == StmtKind::Tasks)
        exec_task(s);
      else
        exec_threads_iter(s, i);
    }
  }
  iters_.pop_back();
  if (s.kind == StmtKind::Tasks) {
    task_vars_.pop_back();
    task_ranges_.pop_back();
  }
  vals_[slot] = saved;
  defined_[slot] = saved_def;
}

bool Interpreter::box_is_full() const {
  for (size_t d = 0; d < domain_.size(); ++d)
    if (lo_[d] != 0 || hi_[d] != domain_[d])
      return false;
  return true;
}

void Interpreter::exec_threads_iter(const Stmt &s, int64_t i) {
  if (!in_device_)
    fail(s, HazardKind::InvalidProgram, "a threads loop must be inside a device block");
  if (s.dim < 0 || s.dim >= static_cast<int>(domain_.size()))
    fail(s, HazardKind::InvalidProgram,
         "threads loop dimension " + std::to_string(s.dim) + " is not in the domain");
  int64_t d_lo = lo_[s.dim], d_hi = hi_[s.dim];
  int64_t step = 0, a = 0, b = 0;
  if (__builtin_mul_overflow(i, s.stride, &step) || __builtin_add_overflow(d_lo, s.offset, &a) ||
      __builtin_add_overflow(a, step, &a) || __builtin_add_overflow(a, s.width, &b))
    fail(s, HazardKind::InvalidProgram,
         "threads loop iteration " + std::to_string(i) + " overflows 64 bits");
  if (a < d_lo || b > d_hi)
    fail(s, HazardKind::InvalidProgram,
         "threads loop iteration " + std::to_string(i) + " takes threads [" +
             std::to_string(a) + ", " + std::to_string(b) + ") of dimension " +
             std::to_string(s.dim) + ", outside the current box [" + std::to_string(d_lo) +
             ", " + std::to_string(d_hi) + ")");
  lo_[s.dim] = a;
  hi_[s.dim] = b;
  set_threads();
  exec_block(s.body);
  lo_[s.dim] = d_lo;
  hi_[s.dim] = d_hi;
  set_threads();
}

bool Interpreter::start_task() {
  task_ = next_task_++;
  if (next_thread_base_ > kAllThreads - std::max<uint64_t>(per_task_, 1))
    return false;
  thread_base_ = next_thread_base_;
  next_thread_base_ += per_task_;
  return true;
}

void Interpreter::exec_device(const Stmt &s) {
  if (in_device_)
    fail(s, HazardKind::InvalidProgram, "device blocks do not nest");
  in_device_ = true;
  domain_ = s.ints;
  lo_.assign(domain_.size(), 0);
  hi_ = domain_;
  per_task_ = 1;
  for (int64_t d : domain_) {
    if (static_cast<uint64_t>(d) > (uint64_t(1) << 31) / per_task_)
      fail(s, HazardKind::InvalidProgram, "device domain is too large");
    per_task_ *= static_cast<uint64_t>(d);
  }
  if (!start_task())
    fail(s, HazardKind::InvalidProgram, "too many tasks for 62-bit thread ids");
  set_threads();
  exec_block(s.body);
  in_device_ = false;
  set_threads();
}

void Interpreter::exec_reshape(const Stmt &s) {
  if (!in_device_ || s.dim < 0 || s.dim >= static_cast<int>(domain_.size()))
    fail(s, HazardKind::InvalidProgram, "reshape of a dimension that is not in the domain");
  const size_t d = s.dim;
  int64_t prod = 1;
  for (int64_t f : s.ints) {
    if (f > domain_[d] || prod > domain_[d] / f + 1) { // no overflow: prod stays small
      prod = -1;
      break;
    }
    prod *= f;
  }
  if (prod != domain_[d])
    fail(s, HazardKind::InvalidProgram,
         "reshape factors do not multiply to the extent " + std::to_string(domain_[d]) +
             " of dimension " + std::to_string(d));
  // The box [a, b) of dim d must stay a box in the factored dims.
  const int64_t a = lo_[d], b = hi_[d];
  const size_t k = s.ints.size();
  std::vector<int64_t> nlo(k), nhi(k);
  bool ok = false;
  int64_t inner = 1;
  for (size_t j = k; j-- > 0;) {
    int64_t blk = inner * s.ints[j];
    if (a % inner == 0 && b % inner == 0 && a / blk == (b - 1) / blk) {
      int64_t prefix = a / blk;
      for (size_t q = k; q-- > 0;) {
        if (q > j) {
          nlo[q] = 0;
          nhi[q] = s.ints[q];
        } else if (q == j) {
          nlo[q] = (a / inner) % s.ints[q];
          nhi[q] = nlo[q] + (b - a) / inner;
        } else {
          nlo[q] = nhi[q] = prefix % s.ints[q];
          ++nhi[q];
          prefix /= s.ints[q];
        }
      }
      ok = true;
      break;
    }
    inner = blk;
  }
  if (!ok)
    fail(s, HazardKind::InvalidProgram, "the current thread box is not a box after reshape");
  auto sd = domain_, sl = lo_, sh = hi_;
  domain_.erase(domain_.begin() + d);
  lo_.erase(lo_.begin() + d);
  hi_.erase(hi_.begin() + d);
  domain_.insert(domain_.begin() + d, s.ints.begin(), s.ints.end());
  lo_.insert(lo_.begin() + d, nlo.begin(), nlo.end());
  hi_.insert(hi_.begin() + d, nhi.begin(), nhi.end());
  exec_block(s.body);
  domain_ = sd;
  lo_ = sl;
  hi_ = sh;
}

void Interpreter::exec(const Stmt &s) {
  running_ = &s;
  tick();
  switch (s.kind) {
  case StmtKind::Let:
    vals_[s.sym] = eval(s.value, s);
    defined_[s.sym] = 1;
    return;
  case StmtKind::Data: return exec_data(s);
  case StmtKind::Barrier: return exec_barrier(s);
  case StmtKind::Free: return exec_free(s);
  case StmtKind::Access: return exec_access(s);
  case StmtKind::Fence:
    ++seq_;
    ++stats.events;
    m_.fence(ctx(s), s.l1.full, s.l2);
    return;
  case StmtKind::Arrive: return exec_arrive(s);
  case StmtKind::Await: return exec_await(s);
  case StmtKind::Join:
    ++seq_;
    ++stats.events;
    m_.join(ctx(s));
    return;
  case StmtKind::Seq: case StmtKind::Tasks: case StmtKind::Threads:
    return exec_loop(s);
  case StmtKind::Device: return exec_device(s);
  case StmtKind::Reshape: return exec_reshape(s);
  case StmtKind::If:
    if (eval(s.value, s))
      exec_block(s.body);
    else
      exec_block(s.else_body);
    return;
  }
}

} // namespace detail

bool run_program(const Program &p, Machine &m, Hazard &hazard, RunStats *stats,
                 const RunOptions &opts) {
  detail::Interpreter in(p, m, hazard, opts);
  bool ok = in.run();
  if (stats)
    *stats = in.stats;
  return ok;
}

} // namespace exgc::sync
