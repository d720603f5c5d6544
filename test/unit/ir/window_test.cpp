// window_test.cpp - an index through a window, in the buffer under it ------//
#include <gtest/gtest.h>

#include "compiler/ir/inliner.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/window.h"
#include "test/unit/ir_build.h"

using namespace exgc;
using namespace exgc::testing;

namespace {

std::string show(const std::vector<Expr> &es) {
  std::string s;
  for (const Expr &e : es)
    s += (s.empty() ? "" : ", ") + print_expr(e);
  return s;
}

// A[i, 4:12, 2:] is a 2-D window of a 3-D buffer: its (x, y) is A[i, 4 + x, 2 + y].
TEST(Window, PointsKeepTheirIndexAndSlicesAddTheirStart) {
  Expr i = var(Sym::fresh("i")), x = var(Sym::fresh("x")), y = var(Sym::fresh("y"));
  std::vector<WindowIdx> w = {WindowIdx::point(i), WindowIdx::slice(lit(4), lit(12)),
                              WindowIdx::slice(lit(2), Expr())};
  EXPECT_EQ(show(window_to_buffer(w, {x, y}, plain_sum)), "i, 4 + x, 2 + y");
  // As the effect analysis writes it: flags and starts.
  EXPECT_EQ(show(window_to_buffer({false, true, true}, {i, lit(4), lit(2)}, {x, y}, plain_sum)),
            "i, 4 + x, 2 + y");
}

TEST(Window, TheSumIsTheCallersAndAMissingCoordinateIsTheStart) {
  Expr x = var(Sym::fresh("x"));
  std::vector<WindowIdx> w = {WindowIdx::slice(lit(0), lit(8)),
                              WindowIdx::slice(lit(3), lit(9))};
  // Folded (the inliner's): 0 + x is x, 3 + 1 is 4.
  EXPECT_EQ(show(window_to_buffer(w, {x, lit(1)}, plus_folded)), "x, 4");
  EXPECT_EQ(show(window_to_buffer(w, {x, lit(1)}, plain_sum)), "0 + x, 3 + 1");
  // Fewer coordinates than slices: the rest are at their start.
  EXPECT_EQ(show(window_to_buffer(w, {x}, plain_sum)), "0 + x, 3");
}

} // namespace
