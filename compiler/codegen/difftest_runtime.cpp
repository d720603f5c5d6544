// difftest_runtime.cpp - the fixed part of the difftest program ------------//
#include "compiler/codegen/difftest_runtime.h"

#include "compiler/codegen/difftest_sizes.h"

namespace exgc::codegen {

namespace {

// Kept as raw strings: the program must compile alone, with no header of
// exgc's. Written plainly (no <string>, <set> or sorting templates, messages
// in char buffers): every difftest program compiles this, so its compile time
// is most of what the difftest ctest costs.
//
// Two parts, so that a build of many programs can compile the second once
// (docs/scheduling.md, "Many programs"): the interface (types, inline
// helpers and templates the cases instantiate, declarations), then the
// definitions of the options, the size search, the data and the driver,
// left out under EXGDT_RUNTIME_APART. EXGDT_RUNTIME_ONLY (difftest.cpp) keeps
// only this runtime, to compile it alone.
const char *kInterface = R"(
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace exgdt {

inline int64_t fdiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
inline int64_t fmod(int64_t a, int64_t b) { return a - fdiv(a, b) * b; }

// ---- Options: --sizes=N, --seed=S, --show-sizes ----------------------------

extern int sizes_wanted;  // size tuples per case
extern uint64_t seed;     // sizes drawn at random and the data depend on it
extern bool show_sizes;   // print every tuple tried
bool parse_args(int argc, char **argv);

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  int64_t in(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
};

// ---- Cases, as difftest.cpp writes them ------------------------------------

enum Kind { kSize, kIndex, kBool };
struct Var {
  const char *name;
  Kind kind;
};
using Tuple = std::vector<int64_t>;

struct Ops; // an element type's data operations (below)

/// A data argument of a case: its element type, rank, position among the
/// proc's arguments (which picks its data) and name.
struct Param {
  const Ops *ops;
  int rank, index;
  const char *name;
};

struct Case {
  const char *where;          // "k.exg:14: step 'divide_loop' of schedule 'g'"
  std::vector<Var> vars;      // the control arguments
  std::vector<int64_t> consts; // integer constants of both procs, ascending
  bool (*admissible)(const int64_t *c);                   // asserts hold, buffers fit
  int64_t (*work)(const int64_t *c); // statements a run of the dearer proc executes (saturating)
  std::vector<Param> params;         // the data arguments
  // Writes the extents of every data argument, one after another.
  void (*shape)(const int64_t *c, int64_t *extents);
  // Calls the input (`which` 0) or the output (1) on the buffers `b` of the
  // data arguments, of extents `s`; returns what the proc returns.
  int (*call)(int which, const int64_t *c, void *const *b, const int64_t *const *s);
  double tolerance; // floats agree within it, relative to the larger magnitude (at least 1)
};

extern double tolerance; // the case's being checked

// Work is the larger of the product of the sizes of a tuple (the elements
// its buffers may hold) and a kStatementsPerWork-th of the statements a run of
// the dearer proc executes (the case's `work`, from their loop nests): at most
// kMaxWork for one tuple, and kWorkPerSize times the sizes wanted for all the
// runs of a case, so that the smallest tuples come first and large shapes
// cannot make the program slow. Eight statements a unit keep the sizes of
// kernels whose loops the product measured well (a tiled GEMM runs up to
// eight times M N K statements at its smallest sizes, its K padded to a
// whole tile); a nest deeper than its sizes (a triple loop over n) is what it
// no longer lets through.
const int64_t kMaxElems = int64_t(1) << 20; // elements of one buffer
const int64_t kMaxWork = int64_t(1) << 20;
const int64_t kWorkPerSize = int64_t(1) << 18;
const int64_t kStatementsPerWork = 8;
const int64_t kFree = -0x7fffffffffffffffll; // in a goal: left to the search
const int kMsg = 512;                         // bytes of a message buffer

inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
inline int64_t abs64(int64_t a) { return a < 0 ? -a : a; }

// Statement counts: anything past kStatementsPerWork * kMaxWork is one more
// (too much).
inline int64_t wcap(int64_t a) {
  const int64_t most = kStatementsPerWork * kMaxWork;
  return a > most ? most + 1 : a;
}
inline int64_t wadd(int64_t a, int64_t b) { return wcap(wcap(a) + wcap(b)); }
inline int64_t wmul(int64_t a, int64_t b) {
  a = wcap(a);
  b = wcap(b);
  return a == 0 || b == 0 ? 0 : a > wcap(INT64_MAX) / b ? wcap(INT64_MAX) : wcap(a * b);
}
inline int64_t wsum(std::initializer_list<int64_t> xs) {
  int64_t s = 0;
  for (int64_t x : xs)
    s = wadd(s, x);
  return s;
}
/// Iterations of `for i in seq(lo, hi)`.
inline int64_t trips(int64_t lo, int64_t hi) { return hi <= lo ? 0 : wcap(hi - lo); }
/// A loop whose body's work depends on its iterator: its trips times the
/// dearer of its first and last iteration.
template <class Body> int64_t wloop(int64_t lo, int64_t hi, Body body) {
  int64_t t = trips(lo, hi);
  return t ? wmul(t, max64(body(lo), body(hi - 1))) : 0;
}

/// Every extent of a buffer is >= 0 and it has at most kMaxElems elements.
inline bool fits(std::initializer_list<int64_t> extents) {
  int64_t n = 1;
  for (int64_t e : extents) {
    if (e < 0 || e > kMaxElems)
      return false;
    n *= e;
    if (n > kMaxElems)
      return false;
  }
  return true;
}

// ---- Data --------------------------------------------------------------------
//
// Element k of buffer b in run r is perm[(k + 37 b + 101 r) % 251]: distinct
// values for any 251 consecutive elements, and other values in each buffer.
// Floats are numerators / 32 in [-3.9, 3.9] (products and sums of products are
// exact in double, which f32 is computed in here, until magnitudes pass 2^43,
// so a reordered float sum gives the same bits); integers are the numerators (+ 125 when unsigned). Each run also
// puts special values (0, -0.0 or the type's smallest, a large value) at
// positions of its own; a buffer under 8 elements gets one in three runs of four.

extern int perm[251];
void init_data();

template <typename T> bool is_float() { return T(0.5) != T(0); }
template <typename T> bool is_signed() { return T(-1) < T(0); }

/// 0: zero; 1: -0.0, or the smallest 8-bit value, -30001, or 1 when
/// unsigned; 2: a large value.
template <typename T> T special(int which) {
  if (is_float<T>())
    return which == 0 ? T(0) : which == 1 ? T(-0.0) : T(256.5);
  bool narrow = sizeof(T) == 1;
  if (which == 0)
    return T(0);
  if (which == 1)
    return is_signed<T>() ? T(narrow ? -128 : -30001) : T(1);
  return is_signed<T>() ? T(narrow ? 127 : 30000) : T(narrow ? 255 : 4095);
}

template <typename T> void fill(void *data, int64_t n, int buf, int run) {
  T *v = static_cast<T *>(data);
  int off = (37 * buf + 101 * run) % 251;
  for (int64_t k = 0; k < n; ++k) {
    int num = perm[(k + off) % 251];
    v[k] = is_float<T>() ? T(num / 32.0) : T(is_signed<T>() ? num : num + 125);
  }
  if (n >= 8) {
    Rng r(seed + uint64_t(buf) * 7919 + uint64_t(run) * 104729);
    for (int s = 0; s < 3; ++s)
      v[r.in(0, n - 1)] = special<T>(s);
  } else if (n > 0 && (run + buf) % 4 < 3) {
    v[(run / 4) % n] = special<T>((run + buf) % 4);
  }
}

// ---- Comparison ----------------------------------------------------------------

template <typename T> bool same(T a, T b) {
  if (!is_float<T>())
    return a == b;
  double x = double(a), y = double(b);
  if (x == y || (std::isnan(x) && std::isnan(y)))
    return true;
  if (std::isinf(x) || std::isinf(y) || std::isnan(x) || std::isnan(y))
    return false; // no tolerance relative to an infinity admits a finite value
  double m = std::fabs(x) > std::fabs(y) ? std::fabs(x) : std::fabs(y);
  return std::fabs(x - y) <= tolerance * (m > 1 ? m : 1);
}

/// The seed of the first values of the allocations of a proc's call
/// (exg_unset_seed): `fill` 0 gives zeros, each other fill other values in
/// each run.
uint64_t unset_seed(int run, int fill);

template <typename T> bool identical(T a, T b) {
  return a == b || (is_float<T>() && a != a && b != b);
}

/// What the runtime does with the elements of one type, instantiated by the
/// program for the types its cases use (exg_f16 and exg_bf16 are the
/// program's): the per-case code is then a call of its two procs alone.
struct Ops {
  size_t size;
  void (*fill)(void *v, int64_t n, int buf, int run);
  bool (*same)(const void *a, const void *b, int64_t k);
  bool (*identical)(const void *a, const void *b, int64_t k);
  double (*value)(const void *v, int64_t k);
};
template <typename T> bool same_at(const void *a, const void *b, int64_t k) {
  return same(static_cast<const T *>(a)[k], static_cast<const T *>(b)[k]);
}
template <typename T> bool identical_at(const void *a, const void *b, int64_t k) {
  return identical(static_cast<const T *>(a)[k], static_cast<const T *>(b)[k]);
}
template <typename T> double value_at(const void *v, int64_t k) {
  return double(static_cast<const T *>(v)[k]);
}
template <typename T> const Ops *ops() {
  static const Ops o = {sizeof(T), fill<T>, same_at<T>, identical_at<T>, value_at<T>};
  return &o;
}
/// Sets the first values of the allocations of the procs called next
/// (exg_unset_seed and exg_unset_sign of the CPU reference; the program
/// defines it).
void set_unset(uint64_t seed, int sign);

// ---- Driver --------------------------------------------------------------------

extern int passed, failed;
void check(const Case &k);
/// A case whose two procs compile to the same code: ok, not run.
void same_code(const char *where);

} // namespace exgdt
)";

// The definitions, up to the size search (difftest_sizes.cpp).
const char *kDefinitionsStart = R"(
#ifndef EXGDT_RUNTIME_APART
namespace exgdt {

int sizes_wanted = 32;
uint64_t seed = 1;
bool show_sizes = false;

bool parse_args(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!std::strncmp(a, "--sizes=", 8) && std::atoi(a + 8) > 0)
      sizes_wanted = std::atoi(a + 8);
    else if (!std::strncmp(a, "--seed=", 7))
      seed = std::strtoull(a + 7, nullptr, 10);
    else if (!std::strcmp(a, "--show-sizes"))
      show_sizes = true;
    else {
      std::fprintf(stderr, "usage: %s [--sizes=N (default 32)] [--seed=S] [--show-sizes]\n",
                   argv[0]);
      return false;
    }
  }
  return true;
}

double tolerance = 1e-5;

int64_t case_budget() { return kWorkPerSize * sizes_wanted; }

int64_t sum(const Tuple &t) {
  int64_t s = 0;
  for (int64_t v : t)
    s += abs64(v);
  return s;
}

int64_t work(const Case &k, const Tuple &t) {
  int64_t w = 1;
  for (size_t i = 0; i < t.size(); ++i)
    if (k.vars[i].kind == kSize && (w *= t[i]) > kMaxWork)
      return kMaxWork + 1;
  // Rounded up: past the statements allowed is past kMaxWork.
  return k.work ? max64(w, (k.work(t.data()) + kStatementsPerWork - 1) / kStatementsPerWork) : w;
}

/// Less work, then a smaller sum of magnitudes.
bool smaller(const Case &k, const Tuple &a, const Tuple &b) {
  int64_t wa = work(k, a), wb = work(k, b);
  return wa != wb ? wa < wb : sum(a) < sum(b);
}

/// "M=8 N=8 K=8" (kMsg bytes at most).
void describe(const Case &k, const Tuple &t, char *out) {
  int n = 0;
  out[0] = 0;
  for (size_t i = 0; i < t.size() && n < kMsg - 64; ++i)
    n += k.vars[i].kind == kBool
             ? std::snprintf(out + n, kMsg - n, "%s%s=%s", i ? " " : "", k.vars[i].name, t[i] ? "true" : "false")
             : std::snprintf(out + n, kMsg - n, "%s%s=%lld", i ? " " : "", k.vars[i].name, (long long)t[i]);
  if (t.empty())
    std::snprintf(out, kMsg, "no control arguments");
}

)";

// After the size search.
const char *kDefinitionsEnd = R"(
int perm[251];

void init_data() {
  Rng r(seed ^ 0x5DEECE66Dull);
  for (int i = 0; i < 251; ++i)
    perm[i] = i - 125;
  for (int i = 250; i > 0; --i) {
    int j = int(r.in(0, i)), x = perm[i];
    perm[i] = perm[j];
    perm[j] = x;
  }
}

uint64_t unset_seed(int run, int fill) {
  return fill == 0 ? 0 : (seed * 1000003ull + uint64_t(run)) * 8 + uint64_t(fill);
}

// Elements of the case being checked that the input computed from memory no
// statement wrote (their value is unspecified), which were not compared.
int64_t unset_elements = 0;

// The fills of the input's extra runs: {unset_seed's fill (0: zeros),
// exg_unset_sign}. An element that reads unwritten memory only through a
// multiple of a power of two (a prefix sum's coefficients mod 2^32) keeps a few
// bits of it, so one random fill agrees with the zeros now and then: each more
// makes that rarer. One that reads it through a clamp (a float saturating into
// an i8) takes one value for most moderate fills: the large fills of either
// sign get past it.
struct ExtraFill {
  int fill, sign;
};
const ExtraFill kExtraFills[] = {{3, 0}, {4, 0}, {5, 1}, {6, -1}, {0, 0}};
const int kExtraRuns = int(sizeof kExtraFills / sizeof kExtraFills[0]);

using Bytes = std::vector<unsigned char>;

/// The data arguments' buffers of one run of one proc.
struct Buffers {
  std::vector<Bytes> data;
  std::vector<void *> ptrs;
  explicit Buffers(const std::vector<Bytes> &from) : data(from), ptrs(from.size()) {
    for (size_t i = 0; i < data.size(); ++i)
      ptrs[i] = data[i].data();
  }
};

/// False, with the first differing element in `msg`, when `after` differs
/// from `before` at an element the input computes the same in its runs with
/// other first values of its allocations (`others`, from zeros included).
bool compare(const Param &p, const void *before, const void *after, const void *const *others,
             const int64_t *extents, int64_t n, char *msg) {
  for (int64_t k = 0; k < n; ++k) {
    if (p.ops->same(before, after, k))
      continue;
    // The input computes a written element the same, bit for bit, from any
    // first values; a tolerance here could take a small dependence for none.
    bool unset = false;
    for (int f = 0; f < kExtraRuns; ++f)
      unset = unset || !p.ops->identical(before, others[f], k);
    if (unset) {
      ++unset_elements;
      continue;
    }
    int64_t at[16], rest = k, d = p.rank;
    for (int64_t i = d; i-- > 0;)
      at[i < 16 ? i : 15] = rest % extents[i], rest /= extents[i];
    int len = 0;
    if (d)
      len = std::snprintf(msg, kMsg, "element [");
    for (int64_t i = 0; i < d && i < 16; ++i)
      len += std::snprintf(msg + len, size_t(kMsg - len), "%s%lld", i ? ", " : "", (long long)at[i]);
    std::snprintf(msg + len, size_t(kMsg - len), "%s'%s' is %g, its input computes %g",
                  d ? "] of " : "", p.name, p.ops->value(after, k), p.ops->value(before, k));
    return false;
  }
  return true;
}

/// One run of a case at the control values `c`: the input on its data (b),
/// the output on the same (a); where they differ, the input again from other
/// first values of its allocations (kExtraFills). False, with the first
/// difference in `msg`, when the output changed a result.
bool run_case(const Case &k, const int64_t *c, int run, char *msg) {
  size_t np = k.params.size(), ranks = 0;
  for (const Param &p : k.params)
    ranks += size_t(p.rank);
  std::vector<int64_t> extents(ranks + 1), n(np);
  k.shape(c, extents.data());
  std::vector<const int64_t *> s(np);
  std::vector<Bytes> d(np);
  for (size_t i = 0, at = 0; i < np; at += size_t(k.params[i].rank), ++i) {
    const Param &p = k.params[i];
    s[i] = extents.data() + at;
    n[i] = 1;
    for (int r = 0; r < p.rank; ++r)
      n[i] *= s[i][r];
    d[i].resize(size_t(max64(n[i], 1)) * p.ops->size);
    p.ops->fill(d[i].data(), n[i], p.index, run);
  }
  Buffers b(d), a(d);
  set_unset(unset_seed(run, 1), 0);
  int rb = k.call(0, c, b.ptrs.data(), s.data());
  set_unset(unset_seed(run, 2), 0);
  int ra = k.call(1, c, a.ptrs.data(), s.data());
  if (rb != ra) {
    std::snprintf(msg, kMsg, "returns %d, its input returns %d", ra, rb);
    return false;
  }
  bool equal = true;
  for (size_t i = 0; i < np && equal; ++i)
    for (int64_t e = 0; e < n[i] && equal; ++e)
      equal = k.params[i].ops->same(b.ptrs[i], a.ptrs[i], e);
  if (equal)
    return true;
  // Elements the input computes from memory it never wrote may differ: run it
  // again from other first values of its allocations (and from zeros).
  std::vector<Buffers> extra;
  extra.reserve(kExtraRuns);
  for (int f = 0; f < kExtraRuns; ++f) {
    extra.emplace_back(d);
    set_unset(unset_seed(run, kExtraFills[f].fill), kExtraFills[f].sign);
    k.call(0, c, extra.back().ptrs.data(), s.data());
  }
  for (size_t i = 0; i < np; ++i) {
    const void *others[kExtraRuns];
    for (int f = 0; f < kExtraRuns; ++f)
      others[f] = extra[size_t(f)].ptrs[i];
    if (!compare(k.params[i], b.ptrs[i], a.ptrs[i], others, s[i], n[i], msg))
      return false;
  }
  return true;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("O0")
#endif

int passed = 0, failed = 0;

/// Runs both procs of `k` at every chosen tuple (and, when the asserts admit
/// fewer tuples than wanted, on more data sets: up to 8 per tuple); prints
/// the smallest tuple that shows a difference, or `ok`.
void check(const Case &k) {
  std::vector<Tuple> sizes = SizeSearch(k, sizes_wanted).run();
  if (sizes.empty()) {
    std::printf("%s: FAILED: no sizes satisfy the asserts within the work limit\n", k.where);
    ++failed;
    return;
  }
  int fails = 0, runs = 0;
  int64_t spent = 0;
  unset_elements = 0;
  tolerance = k.tolerance;
  size_t shown = 0;
  char msg[kMsg], shown_msg[kMsg], tuple[kMsg];
  for (int r = 0;; ++r, ++runs) {
    const Tuple &t = sizes[size_t(r) % sizes.size()];
    // Past the tuples, more data sets while the budget lasts (8 per tuple at most).
    bool more = size_t(r) < sizes.size() ||
                (r < sizes_wanted && size_t(r) < 8 * sizes.size() && spent + work(k, t) <= case_budget());
    if (!more)
      break;
    spent += work(k, t);
    msg[0] = 0;
    if (run_case(k, t.data(), r, msg))
      continue;
    if (fails++ == 0 || smaller(k, t, sizes[shown])) {
      shown = size_t(r) % sizes.size();
      std::memcpy(shown_msg, msg, sizeof msg);
    }
  }
  if (fails) {
    describe(k, sizes[shown], tuple);
    std::printf("%s: FAILED: %s (%s); %d of %d runs differ", k.where, shown_msg, tuple, fails, runs);
    if (k.tolerance > 1e-5)
      std::printf("; floats compared within %g, as the steps round otherwise", k.tolerance);
    std::printf("\n");
  } else {
    std::printf("%s: ok (%d size%s", k.where, int(sizes.size()), sizes.size() == 1 ? "" : "s");
    if (size_t(runs) > sizes.size())
      std::printf(", %d runs", runs);
    if (k.tolerance > 1e-5)
      std::printf("; floats within %g, as the steps round otherwise", k.tolerance);
    if (unset_elements)
      std::printf("; %lld elements computed from unwritten memory not compared",
                  (long long)unset_elements);
    std::printf(")\n");
  }
  if (show_sizes) {
    std::printf("  sizes:");
    for (size_t i = 0; i < sizes.size(); ++i) {
      describe(k, sizes[i], tuple);
      std::printf("%s %s", i ? "," : "", tuple);
    }
    std::printf("\n");
  }
  ++(fails ? failed : passed);
}

void same_code(const char *where) {
  std::printf("%s: ok (the same C++ code as its input)\n", where);
  ++passed;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

} // namespace exgdt
#endif // EXGDT_RUNTIME_APART
)";

} // namespace

std::string difftest_runtime() {
  return std::string(kInterface) + kDefinitionsStart + difftest_size_search() + kDefinitionsEnd;
}

} // namespace exgc::codegen
