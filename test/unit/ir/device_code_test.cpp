// device_code_test.cpp - which code of a body runs on the GPU --------------//
#include <gtest/gtest.h>

#include "compiler/ir/device_code.h"
#include "test/unit/ir_build.h"

using namespace exgc;
using namespace exgc::testing;

namespace {

Stmt call(const char *callee) { return CallStmt::make(callee, {}, {}, {}); }
Stmt with(const char *context, Block body) {
  return With::make(Call::make(context, {}, {}), std::move(body));
}

TEST(DeviceCode, FindsAKernelAtAnyDepthAndTheProcsItCalls) {
  Block body = {call("setup"),
                For::make(Sym::fresh("i"), lit(0), lit(4), LoopMode{"seq", {}},
                          {with("CudaDeviceFunction", {call("helper"), call("store")})})};
  DeviceCode code = device_code(body);
  EXPECT_TRUE(code.has_device_function);
  EXPECT_EQ(code.device_callees, (std::set<std::string>{"helper", "store"}));
  EXPECT_EQ(code.callees, (std::set<std::string>{"helper", "setup", "store"}));
}

TEST(DeviceCode, OtherContextsAreNotDeviceCode) {
  Block body = {with("CudaWarps", {call("helper")}), call("setup")};
  DeviceCode code = device_code(body);
  EXPECT_FALSE(code.has_device_function);
  EXPECT_FALSE(has_device_function(body));
  EXPECT_TRUE(code.device_callees.empty());
  EXPECT_EQ(code.callees.size(), 2u);
}

} // namespace
