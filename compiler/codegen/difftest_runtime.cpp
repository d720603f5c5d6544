// difftest_runtime.cpp - the fixed part of the difftest program ------------//
#include "compiler/codegen/difftest_runtime.h"

namespace exgc::codegen {

namespace {

// Kept as one raw string: the program must compile alone, with no header of
// exgc's. The parts, in order: options, sizes, data, comparison, driver.
// Written plainly (no <string>, <set> or sorting templates, messages in char
// buffers): every difftest program compiles this, so its compile time is
// most of what the difftest ctest costs.
const char *kRuntime = R"(
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
namespace exgdt {

int64_t fdiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t fmod(int64_t a, int64_t b) { return a - fdiv(a, b) * b; }

// ---- Options: --sizes=N, --seed=S, --show-sizes ----------------------------

int sizes_wanted = 32;    // size tuples per case
uint64_t seed = 1;        // sizes drawn at random and the data depend on it
bool show_sizes = false;  // print every tuple tried

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

struct Case {
  const char *where;          // "k.exg:14: step 'divide_loop' of schedule 'g'"
  std::vector<Var> vars;      // the control arguments
  std::vector<int64_t> consts; // integer constants of both procs, ascending
  bool (*admissible)(const int64_t *c);                   // asserts hold, buffers fit
  bool (*run)(const int64_t *c, int run, char *msg); // false: a difference, in msg (kMsg)
};

// Work is the product of the sizes of a tuple (a triple loop nest's trip
// count): at most kMaxWork for one tuple, and kWorkPerSize times the sizes
// wanted for all the runs of a case, so that the smallest tuples come first
// and large shapes cannot make the program slow.
const int64_t kMaxElems = int64_t(1) << 20; // elements of one buffer
const int64_t kMaxWork = int64_t(1) << 20;
const int64_t kWorkPerSize = int64_t(1) << 18;
int64_t case_budget() { return kWorkPerSize * sizes_wanted; }
const int64_t kFree = -0x7fffffffffffffffll; // in a goal: left to the search
const int kMsg = 512;                         // bytes of a message buffer

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
int64_t abs64(int64_t a) { return a < 0 ? -a : a; }
int64_t sum(const Tuple &t) {
  int64_t s = 0;
  for (int64_t v : t)
    s += abs64(v);
  return s;
}

/// Every extent of a buffer is >= 0 and it has at most kMaxElems elements.
bool fits(std::initializer_list<int64_t> extents) {
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

int64_t count(const std::vector<int64_t> &extents) {
  int64_t n = 1;
  for (int64_t e : extents)
    n *= e;
  return n;
}

int64_t work(const Case &k, const Tuple &t) {
  int64_t w = 1;
  for (size_t i = 0; i < t.size(); ++i)
    if (k.vars[i].kind == kSize && (w *= t[i]) > kMaxWork)
      return kMaxWork + 1;
  return w;
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

// ---- Sizes -------------------------------------------------------------------
//
// A goal fixes some control arguments (the others kFree); `complete` finds an
// admissible tuple, not tried yet, that agrees with it. Goals come in groups
// (smallest tuples; values around the constants; medium values; pairs of
// different values; the range of each index; random), taken in turns until
// `want` tuples are found or every group is spent (docs/scheduling.md).
//
// The search runs for milliseconds; unoptimized, the program compiles
// faster (GCC; other compilers optimize it as asked).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("O0")
#endif

class SizeSearch {
public:
  SizeSearch(const Case &k, int want) : k_(k), want_(want), rng_(seed) {}

  std::vector<Tuple> run() {
    smallest();
    std::vector<Tuple> consts = around_constants(), medium = medium_values(), pairs = pair_goals();
    size_t ci = 0, mi = 0, pi = 0, ii = 0;
    int random_left = 4 * want_;
    for (bool progress = true; progress && !full();) {
      progress = false;
      for (int twice = 0; twice < 2; ++twice)
        progress |= next_of(consts, ci);
      progress |= index_goal(ii++);
      progress |= next_of(medium, mi);
      progress |= next_of(pairs, pi);
      for (; random_left > 0 && !full(); --random_left)
        if (complete(Tuple(k_.vars.size(), kFree))) {
          progress = true;
          break;
        }
    }
    return chosen_;
  }

private:
  bool full() const { return int(chosen_.size()) >= want_; }

  bool admissible(const Tuple &t) const {
    for (size_t i = 0; i < t.size(); ++i)
      if ((k_.vars[i].kind == kSize && t[i] < 1) || (k_.vars[i].kind == kBool && t[i] != 0 && t[i] != 1))
        return false;
    return work(k_, t) <= kMaxWork && k_.admissible(t.data());
  }

  bool tried(const Tuple &t) const {
    for (const Tuple &c : chosen_)
      if (c == t)
        return true;
    return false;
  }

  bool take(const Tuple &t) {
    if (full() || tried(t) || !admissible(t) || spent_ + work(k_, t) > case_budget())
      return false;
    chosen_.push_back(t);
    spent_ += work(k_, t);
    return true;
  }

  /// Takes the first goal of `goals` from `at` on that completes.
  bool next_of(const std::vector<Tuple> &goals, size_t &at) {
    while (at < goals.size() && !full())
      if (complete(goals[at++]))
        return true;
    return false;
  }

  bool complete(const Tuple &goal) {
    if (full())
      return false;
    size_t n = goal.size();
    Tuple t(n);
    // The free arguments of a tuple already taken (the smallest first).
    for (size_t a = 0; a < chosen_.size(); ++a) {
      for (size_t i = 0; i < n; ++i)
        t[i] = goal[i] == kFree ? chosen_[a][i] : goal[i];
      if (take(t))
        return true;
    }
    // Free sizes equal to a fixed one (shapes that must agree).
    for (size_t j = 0; j < n; ++j) {
      if (goal[j] == kFree || k_.vars[j].kind != kSize)
        continue;
      for (size_t i = 0; i < n; ++i)
        t[i] = goal[i] != kFree ? goal[i]
               : k_.vars[i].kind == kSize ? goal[j]
               : chosen_.empty() ? 0 : chosen_[0][i];
      if (take(t))
        return true;
    }
    for (int attempt = 0; attempt < 64; ++attempt) {
      for (size_t i = 0; i < n; ++i)
        t[i] = goal[i] == kFree ? random_value(i) : goal[i];
      if (take(t))
        return true;
    }
    return false;
  }

  int64_t random_value(size_t i) {
    switch (k_.vars[i].kind) {
    case kBool: return rng_.in(0, 1);
    case kIndex: return rng_.in(0, 3) == 0 ? rng_.in(-64, 256) : rng_.in(-2, 16);
    case kSize: break;
    }
    if (rng_.in(0, 1) && !k_.consts.empty()) {
      int64_t c = k_.consts[size_t(rng_.in(0, int64_t(k_.consts.size()) - 1))];
      return c * rng_.in(1, 3) + rng_.in(-1, 1);
    }
    int64_t bits = rng_.in(0, 9); // log-uniform in [1, 1023]
    return rng_.in(int64_t(1) << bits, (int64_t(2) << bits) - 1);
  }

  /// The admissible tuples of a small grid by increasing sum: the first three,
  /// then for each argument the tuples with its three smallest values. Without
  /// any in the grid: the smallest equal sizes that fit, then for each
  /// argument its two smallest values with the others completed.
  void smallest() {
    size_t n = k_.vars.size();
    std::vector<std::vector<int64_t>> grid(n);
    int64_t total = 1;
    for (int small = 8; small >= 2; small /= 2) {
      total = 1;
      for (size_t i = 0; i < n; ++i) {
        grid[i].clear();
        for (int64_t v = k_.vars[i].kind == kSize ? 1 : k_.vars[i].kind == kIndex ? -2 : 0;
             v <= (k_.vars[i].kind == kBool ? 1 : small); ++v)
          grid[i].push_back(v);
        total *= int64_t(grid[i].size());
      }
      if (total <= 20000)
        break;
    }
    // best[0]: the three of least sum; best[1 + i]: argument i's three
    // smallest values, each with its tuple of least sum (ties: the first).
    struct Best {
      int64_t key, sum;
      Tuple t;
    };
    std::vector<std::vector<Best>> best(n + 1);
    auto offer = [](std::vector<Best> &list, int64_t key, int64_t s, const Tuple &t, bool by_sum) {
      size_t at = 0;
      while (at < list.size() && (by_sum ? list[at].sum <= s : list[at].key < key))
        ++at;
      if (!by_sum && at < list.size() && list[at].key == key) {
        if (s < list[at].sum)
          list[at].sum = s, list[at].t = t;
        return;
      }
      if (at < 3)
        list.insert(list.begin() + long(at), Best{key, s, t});
      if (list.size() > 3)
        list.pop_back();
    };
    bool any = false;
    if (total <= 20000) {
      Tuple t(n);
      for (int64_t code = 0; code < total; ++code) {
        int64_t rest = code;
        for (size_t i = 0; i < n; ++i) {
          t[i] = grid[i][size_t(rest % int64_t(grid[i].size()))];
          rest /= int64_t(grid[i].size());
        }
        if (!admissible(t))
          continue;
        any = true;
        offer(best[0], 0, sum(t), t, true);
        for (size_t i = 0; i < n; ++i)
          offer(best[1 + i], t[i], sum(t), t, false);
      }
    }
    for (const std::vector<Best> &list : best)
      for (const Best &b : list)
        take(b.t);
    if (any)
      return;
    for (int64_t v = 1; v <= 4096 && chosen_.empty(); ++v)
      complete(all_sizes(v));
    for (size_t i = 0; i < n; ++i) {
      size_t had = chosen_.size();
      for (int64_t v = k_.vars[i].kind == kIndex ? -256 : 1;
           k_.vars[i].kind != kBool && v <= 4096 && chosen_.size() < had + 2; ++v)
        complete(one(i, v));
    }
  }

  /// Every size at v; with `indices`, every index too.
  Tuple all_sizes(int64_t v, bool indices = false) const {
    Tuple g(k_.vars.size(), kFree);
    for (size_t i = 0; i < g.size(); ++i)
      if (k_.vars[i].kind == kSize || (indices && k_.vars[i].kind == kIndex))
        g[i] = v;
    return g;
  }

  Tuple one(size_t i, int64_t v) const {
    Tuple g(k_.vars.size(), kFree);
    g[i] = v;
    return g;
  }

  /// c + 1 and 2c + 1 (a tail of one past one and two tiles), c - 1 (less
  /// than a tile), c, 2c and 3c: first all arguments at once (indices with
  /// the sizes, then without), then one argument at a time, alternating.
  std::vector<Tuple> around_constants() const {
    std::vector<Tuple> all, each;
    const int64_t mul[] = {1, 2, 1, 1, 2, 3}, add[] = {1, 1, -1, 0, 0, 0};
    for (int f = 0; f < 6; ++f)
      for (int64_t c : k_.consts) {
        int64_t v = mul[f] * c + add[f];
        all.push_back(all_sizes(v, true));
        all.push_back(all_sizes(v));
        for (size_t i = 0; i < k_.vars.size(); ++i)
          if (k_.vars[i].kind != kBool)
            each.push_back(one(i, v));
      }
    return interleave(all, each);
  }

  std::vector<Tuple> medium_values() const {
    std::vector<Tuple> all, each;
    for (int64_t m : {9, 16, 17, 31, 33, 64, 65, 100}) {
      all.push_back(all_sizes(m, true));
      all.push_back(all_sizes(m));
      for (size_t i = 0; i < k_.vars.size(); ++i)
        if (k_.vars[i].kind != kBool)
          each.push_back(one(i, m));
    }
    return interleave(all, each);
  }

  /// For every two arguments, tuples where they differ: 1 against c + 1,
  /// c + 1 against another constant's c + 1 or 2c + 1, ...; the pairs in turns.
  std::vector<Tuple> pair_goals() const {
    std::vector<int64_t> vals; // ascending, distinct
    auto add = [&](int64_t v) {
      size_t at = 0;
      while (at < vals.size() && vals[at] < v)
        ++at;
      if (at == vals.size() || vals[at] != v)
        vals.insert(vals.begin() + long(at), v);
    };
    add(1);
    for (int64_t c : k_.consts)
      add(c + 1), add(2 * c + 1);
    add(17);
    add(33);
    std::vector<std::vector<Tuple>> per_pair;
    for (size_t i = 0; i < k_.vars.size(); ++i)
      for (size_t j = i + 1; j < k_.vars.size(); ++j) {
        if (k_.vars[i].kind == kBool || k_.vars[j].kind == kBool)
          continue;
        std::vector<Tuple> goals;
        for (size_t d = 1; d < vals.size(); ++d)
          for (size_t p = 0; p + d < vals.size(); p += d) {
            Tuple g(k_.vars.size(), kFree);
            g[i] = vals[p], g[j] = vals[p + d];
            goals.push_back(g);
            g[i] = vals[p + d], g[j] = vals[p];
            goals.push_back(g);
          }
        per_pair.push_back(goals);
      }
    std::vector<Tuple> out;
    for (size_t r = 0;; ++r) {
      bool any = false;
      for (const std::vector<Tuple> &g : per_pair)
        if (r < g.size()) {
          out.push_back(g[r]);
          any = true;
        }
      if (!any)
        return out;
    }
  }

  static std::vector<Tuple> interleave(const std::vector<Tuple> &a, const std::vector<Tuple> &b) {
    std::vector<Tuple> out;
    for (size_t i = 0; i < a.size() || i < b.size(); ++i) {
      if (i < a.size())
        out.push_back(a[i]);
      if (i < b.size())
        out.push_back(b[i]);
    }
    return out;
  }

  /// The turn-th look at the index arguments: with the other arguments of a
  /// tuple taken so far, the lowest, then the highest, admissible value of
  /// one index in [-256, 256 + the largest size].
  bool index_goal(size_t turn) {
    std::vector<size_t> idx;
    for (size_t i = 0; i < k_.vars.size(); ++i)
      if (k_.vars[i].kind == kIndex)
        idx.push_back(i);
    if (idx.empty() || chosen_.empty() || full())
      return false;
    size_t i = idx[(turn / 2) % idx.size()];
    Tuple t = chosen_[(turn / (2 * idx.size()) * 5) % chosen_.size()];
    int64_t hi = 256;
    for (size_t j = 0; j < t.size(); ++j)
      if (k_.vars[j].kind == kSize)
        hi = max64(hi, 256 + t[j]);
    bool low = turn % 2 == 0;
    for (int64_t v = low ? -256 : hi; low ? v <= hi : v >= -256; v += low ? 1 : -1) {
      t[i] = v;
      if (admissible(t))
        return take(t);
    }
    return false;
  }

  const Case &k_;
  int want_;
  Rng rng_;
  std::vector<Tuple> chosen_; // distinct, in the order taken
  int64_t spent_ = 0; // work of the tuples chosen
};

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

// ---- Data --------------------------------------------------------------------
//
// Element k of buffer b in run r is perm[(k + 37 b + 101 r) % 251]: distinct
// values for any 251 consecutive elements, and other values in each buffer.
// Floats are numerators / 32 in [-3.9, 3.9] (products and sums of products are
// exact in f32 until magnitudes pass 2^14, so a reordered float sum gives the
// same bits); integers are the numerators (+ 125 when unsigned). Each run also
// puts special values (0, -0.0 or the type's smallest, a large value) at
// positions of its own; a buffer under 8 elements gets one of them per run.

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

template <typename T> bool is_float() { return T(0.5) != T(0); }
template <typename T> bool is_signed() { return T(-1) < T(0); }

/// 0: zero; 1: -0.0, or the smallest 8-bit value, -30001, or 1 when
/// unsigned; 2: a large value.
template <typename T> T special(int which) {
  if (is_float<T>())
    return which == 0 ? T(0) : which == 1 ? -T(0) : T(256.5);
  bool narrow = sizeof(T) == 1;
  if (which == 0)
    return T(0);
  if (which == 1)
    return is_signed<T>() ? T(narrow ? -128 : -30001) : T(1);
  return is_signed<T>() ? T(narrow ? 127 : 30000) : T(narrow ? 255 : 4095);
}

template <typename T> void fill(std::vector<T> &v, int64_t n, int buf, int run) {
  int off = (37 * buf + 101 * run) % 251;
  for (int64_t k = 0; k < n; ++k) {
    int num = perm[(k + off) % 251];
    v[size_t(k)] = is_float<T>() ? T(num / 32.0) : T(is_signed<T>() ? num : num + 125);
  }
  if (n >= 8) {
    Rng r(seed + uint64_t(buf) * 7919 + uint64_t(run) * 104729);
    for (int s = 0; s < 3; ++s)
      v[size_t(r.in(0, n - 1))] = special<T>(s);
  } else if (n > 0 && (run + buf) % 4 < 3) {
    v[size_t((run / 4) % n)] = special<T>((run + buf) % 4);
  }
}

// ---- Comparison ----------------------------------------------------------------

template <typename T> bool same(T a, T b) {
  if (!is_float<T>())
    return a == b;
  double x = double(a), y = double(b);
  if (x == y || (std::isnan(x) && std::isnan(y)))
    return true;
  double m = std::fabs(x) > std::fabs(y) ? std::fabs(x) : std::fabs(y);
  return std::fabs(x - y) <= 1e-5 * (m > 1 ? m : 1);
}

/// False, with the first differing element in `msg`, when `after` differs.
template <typename T>
bool compare(const std::vector<T> &before, const std::vector<T> &after,
             const std::vector<int64_t> &extents, const char *name, char *msg) {
  int64_t n = count(extents);
  for (int64_t k = 0; k < n; ++k) {
    if (same(before[size_t(k)], after[size_t(k)]))
      continue;
    int64_t at[16], rest = k, d = int64_t(extents.size());
    for (int64_t i = d; i-- > 0;)
      at[i < 16 ? i : 15] = rest % extents[size_t(i)], rest /= extents[size_t(i)];
    int len = 0;
    if (d)
      len = std::snprintf(msg, kMsg, "element [");
    for (int64_t i = 0; i < d && i < 16; ++i)
      len += std::snprintf(msg + len, size_t(kMsg - len), "%s%lld", i ? ", " : "", (long long)at[i]);
    std::snprintf(msg + len, size_t(kMsg - len), "%s'%s' is %g, its input computes %g",
                  d ? "] of " : "", name, double(after[size_t(k)]), double(before[size_t(k)]));
    return false;
  }
  return true;
}

bool returns_differ(int before, int after, char *msg) {
  std::snprintf(msg, kMsg, "returns %d, its input returns %d", after, before);
  return false;
}

// ---- Driver --------------------------------------------------------------------

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
    std::printf("%s: FAILED: no sizes satisfy the asserts\n", k.where);
    ++failed;
    return;
  }
  int fails = 0, runs = 0;
  int64_t spent = 0;
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
    if (k.run(t.data(), r, msg))
      continue;
    if (fails++ == 0 || smaller(k, t, sizes[shown])) {
      shown = size_t(r) % sizes.size();
      std::memcpy(shown_msg, msg, sizeof msg);
    }
  }
  if (fails) {
    describe(k, sizes[shown], tuple);
    std::printf("%s: FAILED: %s (%s); %d of %d runs differ\n", k.where, shown_msg, tuple, fails, runs);
  } else {
    std::printf("%s: ok (%d size%s", k.where, int(sizes.size()), sizes.size() == 1 ? "" : "s");
    std::printf(size_t(runs) > sizes.size() ? ", %d runs)\n" : ")\n", runs);
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

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

} // namespace exgdt
} // namespace
)";

} // namespace

const char *difftest_runtime() { return kRuntime; }

} // namespace exgc::codegen
