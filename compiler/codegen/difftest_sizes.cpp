// difftest_sizes.cpp - the difftest program's choice of sizes -------------//
#include "compiler/codegen/difftest_sizes.h"

namespace exgc::codegen {

namespace {

const char *kSizeSearch = R"(
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

)";

} // namespace

const char *difftest_size_search() { return kSizeSearch; }

} // namespace exgc::codegen
