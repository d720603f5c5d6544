// window.cpp - an index through a window, in the buffer under it -----------//
#include "compiler/ir/window.h"

namespace exgc {

Expr plain_sum(const Expr &a, const Expr &b) { return BinOp::make(BinOpKind::Add, a, b); }

namespace {

template <typename IsSlice, typename Start>
std::vector<Expr> to_buffer(size_t rank, IsSlice is_slice, Start start,
                            const std::vector<Expr> &idx, IndexSum sum) {
  std::vector<Expr> out;
  out.reserve(rank);
  size_t next = 0;
  for (size_t d = 0; d < rank; ++d)
    out.push_back(is_slice(d) && next < idx.size() ? sum(start(d), idx[next++]) : start(d));
  return out;
}

} // namespace

std::vector<Expr> window_to_buffer(const std::vector<bool> &is_slice,
                                   const std::vector<Expr> &start, const std::vector<Expr> &idx,
                                   IndexSum sum) {
  return to_buffer(
      start.size(), [&](size_t d) { return is_slice[d]; }, [&](size_t d) { return start[d]; },
      idx, sum);
}

std::vector<Expr> window_to_buffer(const std::vector<WindowIdx> &window,
                                   const std::vector<Expr> &idx, IndexSum sum) {
  return to_buffer(
      window.size(), [&](size_t d) { return window[d].is_slice; },
      [&](size_t d) { return window[d].lo; }, idx, sum);
}

} // namespace exgc
