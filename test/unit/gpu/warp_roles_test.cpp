// warp_roles_test.cpp - warp roles and CudaWarps ranges as KernelFacts ----//
// The facts codegen and the sync lowering read: absolute warp ranges of the
// roles (laid out from warp 0) and of CudaWarps blocks (relative to their
// role), setmaxnreg per role, and the register budget, including the launch
// registers a role without setmaxnreg keeps.
#include <gtest/gtest.h>

#include "compiler/gpu/warp_roles.h"
#include "compiler/support/source_manager.h"

namespace exgc::gpu {
namespace {

Expr role(const std::string &name, int64_t warps, const char *key = nullptr, int64_t regs = 0) {
  std::vector<KwArg> kw;
  if (key)
    kw.push_back(KwArg{key, IntImm::make(regs), {}});
  return Call::make("warp_role", {StrImm::make(name), IntImm::make(warps)}, kw);
}

struct WarpRoles : ::testing::Test {
  SourceManager sources;
  DiagEngine diag{sources};
};

TEST_F(WarpRoles, GemmRolesAndTheirCudaWarps) {
  std::vector<WarpRole> roles;
  int64_t block_dim = 0;
  Expr list = ListExpr::make({role("producer", 4, "setmaxnreg_dec", 40),
                              role("consumer", 8, "setmaxnreg_inc", 232)});
  ASSERT_TRUE(read_warp_roles(list, 1, diag, roles, block_dim));
  EXPECT_EQ(block_dim, 384);
  ASSERT_EQ(roles.size(), 2u);
  EXPECT_EQ(roles[1].lo, 4);
  EXPECT_EQ(roles[1].hi, 12);
  EXPECT_EQ(roles[1].setmaxnreg, 232);
  EXPECT_TRUE(roles[1].increase);
  EXPECT_FALSE(roles[0].increase);

  // CudaWarps(0, 1, name="producer") is warp 0; CudaWarps(1, 3, name="consumer") warps 5-7.
  WarpsBlockFacts w;
  Expr ctx = Call::make("CudaWarps", {IntImm::make(1), IntImm::make(3)},
                        {KwArg{"name", StrImm::make("consumer"), {}}});
  ASSERT_TRUE(read_warps_block(*ctx.as<Call>(), roles, 12, diag, w));
  EXPECT_EQ(w.lo, 5);
  EXPECT_EQ(w.hi, 7);
  EXPECT_EQ(w.role, 1);
  EXPECT_FALSE(diag.has_errors());
}

TEST_F(WarpRoles, LaunchRegistersOfRolesWithoutSetmaxnreg) {
  // ptxas 13 -v: __launch_bounds__(384, 1) gives 168, (256, 1) 255, and a
  // kernel whose largest setmaxnreg is lower launches with that count.
  EXPECT_EQ(launch_registers(384, 1, {}), 168); // 65536 / 384 = 170.7, down to a multiple of 8
  EXPECT_EQ(launch_registers(32, 1, {}), 255);  // at most 255
  EXPECT_EQ(launch_registers(256, 1, {}), 255);
  WarpRole inc;
  inc.setmaxnreg = 232;
  inc.increase = true;
  EXPECT_EQ(launch_registers(256, 1, {inc}), 232);
  EXPECT_EQ(launch_registers(384, 1, {inc}), 168);
  // The CTA's pool: 256 threads x launch(256, 2) = 128 is 32,768 < 128 x 200 + 128 x 128.
  std::vector<WarpRole> roles;
  int64_t block_dim = 0;
  Expr list = ListExpr::make({role("a", 4, "setmaxnreg_inc", 200), role("b", 4)});
  EXPECT_FALSE(read_warp_roles(list, 2, diag, roles, block_dim));
  ASSERT_EQ(diag.diagnostics().size(), 1u);
  EXPECT_EQ(diag.diagnostics()[0].kind, DiagKind::WarpRegisterBudget);
}

} // namespace
} // namespace exgc::gpu
