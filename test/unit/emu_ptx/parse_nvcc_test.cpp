// parse_nvcc_test.cpp - PTX as nvcc 13 writes it for compute_90a (data/*.ptx) ---//
// The data files say at their top how they were made. Counts here were checked
// against an independent count of the files' statements.
#include "ptx_test_util.h"

#include <algorithm>

namespace emu::ptx::test {
namespace {

const std::string kKernel = "_Z9tma_wgmma14CUtensorMap_stS_Pfi";

struct Hopper : ::testing::Test {
  void SetUp() override {
    text = read_data("tma_wgmma.ptx");
    ASSERT_FALSE(text.empty());
    m = parse_ok(text);
    k = m.find(kKernel);
    ASSERT_NE(k, nullptr);
  }
  // The instructions whose text starts with `prefix`, in order.
  std::vector<const Instr *> find(const std::string &prefix) const {
    std::vector<const Instr *> out;
    for (const Instr &in : k->body)
      if (in.text.compare(0, prefix.size(), prefix) == 0)
        out.push_back(&in);
    return out;
  }
  const RegDecl &reg(const Operand &o) const { return k->regs.at(o.reg); }
  std::string text;
  Module m;
  const Function *k = nullptr;
};

TEST_F(Hopper, ModuleAndKernel) {
  EXPECT_EQ(m.version, "9.0");
  EXPECT_EQ(m.target, "sm_90a");
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_TRUE(m.find("vprintf")->is_declaration);
  EXPECT_TRUE(k->is_entry);
  EXPECT_EQ(k->body.size(), 183u);
  EXPECT_EQ(k->maxntid[0], 256u);
  EXPECT_EQ(k->minnctapersm, 1u);
  EXPECT_TRUE(k->explicitcluster);
  EXPECT_EQ(k->reqnctapercluster[0], 2u);
  ASSERT_EQ(k->params.size(), 4u);
  EXPECT_EQ(k->params[0].align, 128u);
  EXPECT_EQ(k->params[0].bytes(), 128u);
  EXPECT_EQ(k->params[2].type, "u64");
  ASSERT_EQ(m.vars.size(), 2u);
  EXPECT_TRUE(m.vars[0].is_extern); // dynamic shared memory
  EXPECT_EQ(m.vars[0].align, 1024u);
  EXPECT_EQ(m.vars[1].name, "$str");
  ASSERT_EQ(k->vars.size(), 5u); // the depot, the demoted barriers, the call's .params
  EXPECT_EQ(k->vars[1].name, "_ZZ9tma_wgmma14CUtensorMap_stS_PfiE4bars");
  EXPECT_EQ(k->vars[1].space, Space::Shared);
  EXPECT_EQ(m.files.size(), 5u);
  EXPECT_NE(m.files.at(2).find("exg/sm90.h"), std::string::npos);
  for (const Instr &in : k->body)
    for (const Operand &o : in.operands) {
      if (o.kind == Operand::Kind::Label) {
        EXPECT_TRUE(o.target >= 0 && size_t(o.target) < k->body.size()) << in.text;
      }
    }
}

TEST_F(Hopper, Wgmma) {
  std::vector<const Instr *> mma = find("wgmma.mma_async");
  ASSERT_EQ(mma.size(), 2u);
  const Instr &w = *mma[0];
  EXPECT_EQ(w.mods, (std::vector<std::string>{"mma_async", "sync", "aligned", "m64n128k8", "f32",
                                              "tf32", "tf32"}));
  ASSERT_EQ(w.operands.size(), 6u);
  const Operand &d = w.operands[0];
  ASSERT_EQ(d.kind, Operand::Kind::Vector);
  ASSERT_EQ(d.elems.size(), 64u);
  for (const Operand &e : d.elems) {
    ASSERT_EQ(e.kind, Operand::Kind::Reg);
    EXPECT_EQ(reg(e).type, "f32");
  }
  EXPECT_EQ(reg(d.elems[0]).name, "%f258");
  EXPECT_EQ(reg(d.elems[63]).name, "%f384");
  // The two matrix descriptors.
  EXPECT_EQ(reg(w.operands[1]).name, "%rd8");
  EXPECT_EQ(reg(w.operands[2]).name, "%rd9");
  EXPECT_EQ(reg(w.operands[1]).bits, 64u);
  // scale-d: the `p` of the asm block, set by the setp just before.
  const Operand &scale_d = w.operands[3];
  EXPECT_EQ(reg(scale_d).name, "p");
  EXPECT_EQ(reg(scale_d).bits, 1u);
  const Instr &setp = *(&w - 1);
  EXPECT_EQ(setp.opcode, "setp");
  EXPECT_EQ(setp.operands[0].reg, scale_d.reg);
  EXPECT_NE(mma[1]->operands[3].reg, scale_d.reg); // each block declares its own p
  EXPECT_EQ(w.operands[4].imm, 1);
  EXPECT_EQ(w.operands[5].imm, 1);
  // Inlined from sm90_wgmma.inc into sm90.h.
  EXPECT_NE(m.files.at(w.loc.file).find("sm90_wgmma.inc"), std::string::npos);
  EXPECT_EQ(w.loc.line, 177);
  EXPECT_EQ(w.loc.inlined_file, 2);
  EXPECT_EQ(w.loc.inlined_line, 247);
  EXPECT_EQ(w.ptx_line, line_of(text, "wgmma.mma_async"));
  EXPECT_EQ(find("wgmma.fence").size(), 1u);
  EXPECT_EQ(find("wgmma.commit_group").size(), 1u);
  EXPECT_EQ(find("wgmma.wait_group")[0]->operands[0].imm, 0);
}

TEST_F(Hopper, TmaAndMbarriers) {
  std::vector<const Instr *> load = find("cp.async.bulk.tensor.2d.shared::cluster");
  ASSERT_EQ(load.size(), 1u);
  EXPECT_EQ(load[0]->mods[7], "mbarrier::complete_tx::bytes");
  const Operand &src = load[0]->operands[1];
  ASSERT_EQ(src.kind, Operand::Kind::Address);
  ASSERT_EQ(src.elems.size(), 2u);
  EXPECT_EQ(reg(src.elems[0]).bits, 64u); // the tensor map's generic address
  EXPECT_EQ(src.elems[1].elems.size(), 2u);
  std::vector<const Instr *> store = find("cp.async.bulk.tensor.2d.global.shared::cta");
  ASSERT_EQ(store.size(), 1u);
  EXPECT_EQ(store[0]->mods.back(), "bulk_group");
  EXPECT_EQ(store[0]->operands[0].elems.size(), 2u);
  EXPECT_EQ(find("cp.async.bulk.wait_group.read")[0]->operands[0].imm, 0);
  EXPECT_EQ(find("mbarrier.init")[0]->ptx_line, line_of(text, "mbarrier.init"));
  EXPECT_EQ(find("mbarrier.expect_tx").size(), 1u);
  EXPECT_EQ(find("mbarrier.try_wait.parity").size(), 1u);
  EXPECT_EQ(find("fence.mbarrier_init.release.cluster").size(), 1u);
  EXPECT_EQ(find("fence.proxy.async.shared::cta").size(), 1u);

  // mapa into the block's `remote`, then the arrive on that address.
  std::vector<const Instr *> mapa = find("mapa.shared::cluster.u32");
  ASSERT_EQ(mapa.size(), 1u);
  const Instr &arrive = *(mapa[0] + 1);
  EXPECT_EQ(arrive.text, "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];");
  EXPECT_EQ(reg(mapa[0]->operands[0]).name, "remote");
  EXPECT_EQ(arrive.operands[0].kind, Operand::Kind::Sink);
  EXPECT_EQ(arrive.operands[1].elems[0].reg, mapa[0]->operands[0].reg);
}

TEST_F(Hopper, WarpAndClusterControl) {
  std::vector<const Instr *> elect = find("elect.sync");
  ASSERT_EQ(elect.size(), 2u);
  ASSERT_EQ(elect[0]->operands[0].kind, Operand::Kind::Pair);
  EXPECT_EQ(elect[0]->operands[0].elems[0].kind, Operand::Kind::Sink);
  EXPECT_EQ(reg(elect[0]->operands[0].elems[1]).name, "p");
  EXPECT_EQ(elect[0]->operands[1].imm, 0xffffffff);
  const Instr &shfl = *find("shfl.sync.bfly.b32")[0];
  ASSERT_EQ(shfl.operands.size(), 5u);
  EXPECT_EQ(shfl.operands[0].kind, Operand::Kind::Pair);
  EXPECT_EQ(find("setmaxnreg.dec.sync.aligned.u32")[0]->operands[0].imm, 40);
  EXPECT_EQ(find("setmaxnreg.inc.sync.aligned.u32")[0]->operands[0].imm, 232);
  EXPECT_EQ(find("barrier.cluster.arrive.release.aligned").size(), 1u);
  EXPECT_EQ(find("barrier.cluster.wait.acquire.aligned").size(), 1u);
  bool rank = false;
  for (const Instr &in : k->body)
    for (const Operand &o : in.operands)
      rank |= o.kind == Operand::Kind::Special && o.name == "%cluster_ctarank";
  EXPECT_TRUE(rank);
  const Instr &call = *find("call.uni")[0];
  EXPECT_EQ(call.operands[1].name, "vprintf");
  EXPECT_EQ(call.operands[2].elems.size(), 2u);
}

TEST_F(Hopper, EveryInstructionAfterTheFirstLocHasOne) {
  size_t first = line_of(text, ".loc");
  size_t located = 0;
  for (const Instr &in : k->body) {
    if (in.ptx_line < first)
      continue;
    EXPECT_GT(in.loc.file, 0) << in.text;
    EXPECT_EQ(m.files.count(in.loc.file), 1u) << in.text;
    ++located;
  }
  EXPECT_GT(located, 170u);
}

TEST(NvccMisc, CallsGlobalsAndSpecialRegisters) {
  std::string text = read_data("misc.ptx");
  Module m = parse_ok(text);
  ASSERT_EQ(m.functions.size(), 2u);
  const Function &poly = m.functions[0];
  EXPECT_EQ(poly.name, "_Z4polyfi");
  EXPECT_FALSE(poly.is_entry);
  ASSERT_EQ(poly.returns.size(), 1u);
  EXPECT_EQ(poly.params.size(), 2u);
  const Function &k = m.functions[1];
  EXPECT_EQ(poly.body.size() + k.body.size(), 142u);
  EXPECT_EQ(k.maxntid[0], 128u);
  size_t calls = 0;
  for (const Instr &in : k.body)
    if (in.opcode == "call") {
      ++calls;
      EXPECT_EQ(in.operands[0].elems.size(), 1u);
      EXPECT_EQ(in.operands[1].name, "_Z4polyfi");
    }
  EXPECT_EQ(calls, 8u);
  ASSERT_EQ(m.vars.size(), 4u);
  EXPECT_EQ(m.vars[0].space, Space::Const);
  EXPECT_EQ(m.vars[0].init, (std::vector<uint8_t>{0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 0, 191, 0, 0,
                                                  80, 64}));
  EXPECT_EQ(m.vars[1].init, (std::vector<uint8_t>{7, 0, 0, 0}));
  EXPECT_TRUE(m.vars[3].is_extern);
  std::vector<std::string> specials;
  for (const Instr &in : k.body)
    for (const Operand &o : in.operands)
      if (o.kind == Operand::Kind::Special)
        specials.push_back(o.name);
  for (const char *s : {"%laneid", "%smid", "%globaltimer", "%clock64", "%tid.x", "%ntid.x"})
    EXPECT_NE(std::find(specials.begin(), specials.end(), s), specials.end()) << s;
}

} // namespace
} // namespace emu::ptx::test
