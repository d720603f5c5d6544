// synclower_test.cpp - the qual table, threads in words, control expressions
#include <gtest/gtest.h>

#include "compiler/analysis/memories.h"
#include "compiler/synclower/control.h"
#include "compiler/synclower/quals.h"
#include "compiler/synclower/report.h"

namespace exgc::synclower {
namespace {

using sync::Qual;

const analysis::MemoryInfo &mem(const char *name) { return *analysis::find_memory(name); }
analysis::InstrTimeline tl(const char *name) { return *analysis::instr_timeline(name); }

TEST(AccessQuals, FollowTheReferenceTable) {
  auto smem = access_quals(mem("CudaSmemLinear"), tl("cuda_in_order"));
  ASSERT_TRUE(smem);
  EXPECT_EQ(smem->initial, Qual::Cuda2);
  EXPECT_EQ(smem->ext, sync::bit(Qual::Cuda2));
  EXPECT_FALSE(smem->convergent);

  auto tma = access_quals(mem("Sm90_SmemSwizzled"), tl("tma_to_smem_async"));
  ASSERT_TRUE(tma);
  EXPECT_EQ(tma->initial, Qual::TmaS);
  EXPECT_EQ(tma->ext, sync::bit(Qual::TmaS) | sync::bit(Qual::Async));

  auto d = access_quals(mem("Sm90_RmemMatrixD"), tl("wgmma_async"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->initial, Qual::WgD);
  EXPECT_EQ(d->ext, sync::bit(Qual::WgD) | sync::bit(Qual::Wg0));
  EXPECT_TRUE(d->convergent);

  auto zero = access_quals(mem("Sm90_RmemMatrixD"), tl("wgmma_zero"));
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->initial, Qual::Wg0);

  auto reg = access_quals(mem("CudaRmem"), tl("cuda_in_order"));
  ASSERT_TRUE(reg);
  EXPECT_EQ(reg->initial, Qual::Cuda1);
  EXPECT_TRUE(reg->convergent);
}

TEST(AccessQuals, UntrackedAndImpossiblePairs) {
  EXPECT_FALSE(tracked_memory(mem("DRAM")));
  EXPECT_FALSE(tracked_memory(mem("Sm90_tensorMap")));
  EXPECT_TRUE(tracked_memory(mem("CudaGmemLinear")));
  EXPECT_FALSE(access_quals(mem("DRAM"), tl("cuda_in_order")));
  EXPECT_FALSE(access_quals(mem("CudaRmem"), tl("wgmma_async"))); // only wgmma tiles
  EXPECT_FALSE(access_quals(mem("CudaSmemLinear"), tl("tcgen05_mma"))); // not in the table
  EXPECT_FALSE(analysis::instr_timeline("no_such_timeline"));
}

TEST(ThreadsInWords, NamesThreadsWarpsAndWarpgroups) {
  gpu::KernelFacts k;
  k.config.env.block_dim = 256;
  EXPECT_EQ(threads_in_words(sync::ThreadSet::all(), &k), "the CPU");
  EXPECT_EQ(threads_in_words(sync::ThreadSet::single(5), &k), "thread 5");
  EXPECT_EQ(threads_in_words(sync::ThreadSet::range(32, 64), &k), "warp 1");
  EXPECT_EQ(threads_in_words(sync::ThreadSet::range(128, 256), &k), "warpgroup 1");
  EXPECT_EQ(threads_in_words(sync::ThreadSet::range(0, 256), &k), "the whole CTA");
  EXPECT_EQ(threads_in_words(sync::ThreadSet::range(8, 24), &k), "threads 8..23");
  // The same warp of a later task (thread ids are task * 256 + local).
  EXPECT_EQ(threads_in_words(sync::ThreadSet::range(256 * 3 + 32, 256 * 3 + 64), &k), "warp 1");
  gpu::WarpRole producer, consumer;
  producer.name = "producer";
  producer.hi = 4;
  consumer.name = "consumer";
  consumer.lo = 4;
  consumer.hi = 8;
  k.roles = {producer, consumer};
  EXPECT_EQ(threads_in_words(sync::ThreadSet::range(32, 64), &k), "warp 1 (producer)");
  EXPECT_EQ(threads_in_words(sync::ThreadSet::range(128, 256), &k), "warpgroup 1 (consumer)");
  k.roles.clear();
  k.config.env.cluster_dim = 2;
  EXPECT_EQ(threads_in_words(sync::ThreadSet::range(256 + 64, 256 + 96), &k),
            "warp 2 of CTA 1 of the cluster");
}

TEST(Control, TranslatesArithmeticAndRefusesData) {
  ControlNames names;
  Sym n = Sym::fresh("n"), i = Sym::fresh("i"), shadow = Sym::fresh("i");
  EXPECT_EQ(names.bind(n), "n");
  EXPECT_EQ(names.bind(i), "i");
  EXPECT_EQ(names.bind(shadow), "i_1"); // a second `i` in scope gets its own name
  names.release(shadow);
  EXPECT_EQ(names.bind(Sym::fresh("i")), "i_1");

  Expr e = BinOp::make(BinOpKind::Add, Var::make(n, ValueType::Size),
                       BinOp::make(BinOpKind::Mul, IntImm::make(4), Var::make(i, ValueType::Index)));
  Expr bad;
  sync::Expr s = to_sync(e, names, &bad);
  ASSERT_TRUE(s);
  EXPECT_EQ(sync::expr_string(s), "n + 4 * i");

  Sym x = Sym::fresh("x");
  Expr data = BinOp::make(BinOpKind::Lt, Read::make(x, {}, ValueType::F32), FloatImm::make(0.5));
  EXPECT_FALSE(to_sync(data, names, &bad));
  ASSERT_TRUE(bad);
  EXPECT_TRUE(bad.as<Read>());
}

} // namespace
} // namespace exgc::synclower
