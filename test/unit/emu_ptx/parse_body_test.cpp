// parse_body_test.cpp - function bodies: registers, scopes, guards, operands, labels, .loc //
#include "ptx_test_util.h"

namespace emu::ptx::test {
namespace {

const Operand &op(const Function &f, size_t instr, size_t operand) {
  return f.body.at(instr).operands.at(operand);
}

TEST(ParseBody, RegisterDeclarations) {
  Module m = parse_ok(kernel(R"(	.reg .b32 	%r<4>;
	.reg .pred p;
	.reg .f32 a, b, c;
	.reg .b64 %SP;
	.reg .b16 %rs<1>;
	mov.b32 %r3, %r0;)"));
  const Function &f = m.functions[0];
  ASSERT_EQ(f.regs.size(), 10u);
  EXPECT_EQ(f.regs[0].name, "%r0");
  EXPECT_EQ(f.regs[3].name, "%r3");
  EXPECT_EQ(f.regs[3].type, "b32");
  EXPECT_EQ(f.regs[3].bits, 32u);
  EXPECT_EQ(f.regs[4].name, "p");
  EXPECT_EQ(f.regs[4].bits, 1u);
  EXPECT_EQ(f.regs[6].name, "b");
  EXPECT_EQ(f.regs[6].type, "f32");
  EXPECT_EQ(f.regs[8].bits, 64u);
  EXPECT_EQ(f.regs[9].name, "%rs0");
  EXPECT_EQ(op(f, 0, 0).reg, 3u);
  EXPECT_EQ(op(f, 0, 1).reg, 0u);
}

// Inline asm wraps its own `.reg` in braces; each declaration is its own
// register, and the name means the innermost one in scope.
TEST(ParseBody, NestedBlocksScopeTheirRegisters) {
  Module m = parse_ok(kernel(R"(	.reg .pred p;
	.reg .b32 %r<2>;
	setp.ne.b32 p, %r0, 0;
	{
	.reg .pred p;
	setp.ne.b32 p, %r1, 0;
	{
	.reg .pred p;
	.reg .b32 %r0;
	selp.u32 %r0, 1, 0, p;
	}
	selp.u32 %r0, 1, 0, p;
	}
	{
	.reg .pred p;
	selp.u32 %r0, 1, 0, p;
	}
	selp.u32 %r0, 1, 0, p;)"));
  const Function &f = m.functions[0];
  ASSERT_EQ(f.regs.size(), 7u); // p, %r0, %r1, then p; p and %r0; p
  EXPECT_EQ(op(f, 0, 0).reg, 0u);         // outer p
  EXPECT_EQ(op(f, 1, 0).reg, 3u);         // first block's p
  EXPECT_EQ(op(f, 1, 1).reg, 2u);         // outer %r1 seen from inside
  EXPECT_EQ(op(f, 2, 0).reg, 5u);         // innermost %r0 shadows the outer one
  EXPECT_EQ(op(f, 2, 3).reg, 4u);         // innermost p
  EXPECT_EQ(op(f, 3, 0).reg, 1u);         // back in the first block: outer %r0
  EXPECT_EQ(op(f, 3, 3).reg, 3u);         // and the first block's p
  EXPECT_EQ(op(f, 4, 3).reg, 6u);         // a sibling block's p is a new register
  EXPECT_EQ(op(f, 5, 3).reg, 0u);         // after the blocks: the outer p again
  EXPECT_EQ(f.regs[6].name, "p");
  EXPECT_EQ(f.regs[6].bits, 1u);
}

// `%r<N>` in an inner block shadows only the registers it declares.
TEST(ParseBody, NestedRegisterRangesShadowTheirOwnIndices) {
  Module m = parse_ok(kernel(R"(	.reg .b32 %r<8>;
	{
	.reg .b32 %r<2>;
	add.s32 %r1, %r5, %r0;
	}
	add.s32 %r1, %r5, %r0;)"));
  const Function &f = m.functions[0];
  ASSERT_EQ(f.regs.size(), 10u);
  EXPECT_EQ(f.regs[9].name, "%r1");
  EXPECT_EQ(op(f, 0, 0).reg, 9u);
  EXPECT_EQ(op(f, 0, 1).reg, 5u);
  EXPECT_EQ(op(f, 0, 2).reg, 8u);
  EXPECT_EQ(op(f, 1, 0).reg, 1u);
  EXPECT_EQ(op(f, 1, 2).reg, 0u);
}

TEST(ParseBody, GuardsAndMnemonicModifiers) {
  Module m = parse_ok(kernel(R"(	.reg .pred %p<3>;
	.reg .b32 %r<3>;
	@%p1 bra $L__BB0_2;
	@!%p2 bra.uni $L__BB0_2;
	cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%r0], [%r1, {%r1, %r2}], [%r0], %r2;
$L__BB0_2:
	ret;)"));
  const Function &f = m.functions[0];
  EXPECT_EQ(f.body[0].guard, 1);
  EXPECT_FALSE(f.body[0].guard_negated);
  EXPECT_EQ(f.body[0].opcode, "bra");
  EXPECT_TRUE(f.body[0].mods.empty());
  EXPECT_EQ(f.body[1].guard, 2);
  EXPECT_TRUE(f.body[1].guard_negated);
  EXPECT_EQ(f.body[1].mods, std::vector<std::string>{"uni"});
  EXPECT_EQ(f.body[2].guard, -1);
  EXPECT_EQ(f.body[2].opcode, "cp");
  EXPECT_EQ(f.body[2].mods,
            (std::vector<std::string>{"async", "bulk", "tensor", "2d", "shared::cluster", "global",
                                      "tile", "mbarrier::complete_tx::bytes",
                                      "multicast::cluster"}));
  EXPECT_EQ(f.body[3].opcode, "ret");
  EXPECT_TRUE(f.body[3].operands.empty());
}

TEST(ParseBody, RegisterSpecialAndImmediateOperands) {
  Module m = parse_ok(kernel(R"(	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	mov.u32 %r0, %tid.x;
	mov.u32 %r0, %ntid.y;
	mov.u32 %r0, %ctaid.z;
	mov.u32 %r0, %nctaid.x;
	mov.u32 %r0, %laneid;
	mov.u32 %r0, %warpid;
	mov.u32 %r0, %cluster_ctarank;
	mov.u32 %r0, %cluster_nctarank;
	mov.u32 %r0, %clusterid.x;
	mov.u32 %r0, %nclusterid.x;
	mov.u32 %r0, %cluster_ctaid.x;
	mov.u32 %r0, %cluster_nctaid.x;
	mov.u32 %r0, %smid;
	mov.u32 %r0, %clock;
	mov.u64 %rd0, %clock64;
	mov.u64 %rd0, %globaltimer;
	mov.u32 %r0, %lanemask_eq;
	mov.u32 %r0, %lanemask_lt;
	mov.u32 %r0, %lanemask_le;
	mov.u32 %r0, %lanemask_gt;
	mov.u32 %r0, %lanemask_ge;
	mov.u32 %r0, %dynamic_smem_size;
	mov.u32 %r0, %total_smem_size;
	mov.u32 %r0, %envreg3;
	add.s32 %r0, %r1, 42;
	add.s32 %r0, %r1, -8;
	mov.b32 %r0, 0xFFFFFFFF;
	mov.b32 %r0, 0b101;
	mov.b32 %r0, 017;
	mov.b32 %r0, 42U;
	mov.b64 %rd0, 4611686293305360384;
	mov.b64 %rd0, 18446744073709551615;
	mov.b64 %rd0, -9223372036854775808;
	mov.f32 %r0, 0f3F800000;
	mov.f64 %rd0, 0dBFF0000000000000;
	mov.b32 %r0, WARP_SZ;)"));
  const Function &f = m.functions[0];
  const char *specials[] = {"%tid.x", "%ntid.y", "%ctaid.z", "%nctaid.x", "%laneid", "%warpid",
                            "%cluster_ctarank", "%cluster_nctarank", "%clusterid.x",
                            "%nclusterid.x", "%cluster_ctaid.x", "%cluster_nctaid.x", "%smid",
                            "%clock", "%clock64", "%globaltimer", "%lanemask_eq", "%lanemask_lt",
                            "%lanemask_le", "%lanemask_gt", "%lanemask_ge", "%dynamic_smem_size",
                            "%total_smem_size", "%envreg3"};
  size_t i = 0;
  for (const char *s : specials) {
    EXPECT_EQ(op(f, i, 1).kind, Operand::Kind::Special) << s;
    EXPECT_EQ(op(f, i, 1).name, s);
    ++i;
  }
  auto imm = [&](size_t k) {
    EXPECT_EQ(op(f, k, 1 + (f.body[k].opcode == "add")).kind, Operand::Kind::Imm);
    return op(f, k, 1 + (f.body[k].opcode == "add")).imm;
  };
  EXPECT_EQ(op(f, i, 1).kind, Operand::Kind::Reg);
  EXPECT_EQ(imm(i), 42);
  EXPECT_EQ(imm(i + 1), -8);
  EXPECT_EQ(imm(i + 2), 0xFFFFFFFF);
  EXPECT_EQ(imm(i + 3), 5);
  EXPECT_EQ(imm(i + 4), 15);
  EXPECT_EQ(imm(i + 5), 42);
  EXPECT_EQ(imm(i + 6), 4611686293305360384);
  EXPECT_EQ(uint64_t(imm(i + 7)), UINT64_MAX);
  EXPECT_EQ(imm(i + 8), INT64_MIN);
  const Operand &f32 = op(f, i + 9, 1);
  EXPECT_EQ(f32.kind, Operand::Kind::FloatImm);
  EXPECT_FALSE(f32.is_f64);
  EXPECT_EQ(f32.imm, 0x3F800000);
  const Operand &f64 = op(f, i + 10, 1);
  EXPECT_EQ(f64.kind, Operand::Kind::FloatImm);
  EXPECT_TRUE(f64.is_f64);
  EXPECT_EQ(uint64_t(f64.imm), 0xBFF0000000000000ull);
  EXPECT_EQ(imm(i + 11), 32);
}

TEST(ParseBody, AddressOperands) {
  Module m = parse_ok(std::string(kHeader) + R"(
.global .align 4 .b8 table[64];
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<2>;
	ld.global.u32 %r0, [%rd1];
	ld.global.u32 %r0, [%rd1+16];
	ld.global.u32 %r0, [%rd1+-8];
	ld.param.u64 %rd1, [k_param_0];
	ld.global.u32 %r0, [table+4];
	ld.shared.u32 %r0, [%r5];
	ld.global.u32 %r0, [0x1000];
	ld.global.u32 %r0, [%rd1-4];
	cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {%r1, %r2}], [%r3];
})");
  const Function &f = m.functions[0];
  const Operand &a0 = op(f, 0, 1);
  ASSERT_EQ(a0.kind, Operand::Kind::Address);
  ASSERT_EQ(a0.elems.size(), 1u);
  EXPECT_EQ(a0.elems[0].kind, Operand::Kind::Reg);
  EXPECT_EQ(a0.elems[0].reg, 7u);
  EXPECT_EQ(a0.imm, 0);
  EXPECT_EQ(op(f, 1, 1).imm, 16);
  EXPECT_EQ(op(f, 2, 1).imm, -8);
  EXPECT_EQ(op(f, 3, 1).elems[0].kind, Operand::Kind::Symbol);
  EXPECT_EQ(op(f, 3, 1).elems[0].name, "k_param_0");
  EXPECT_EQ(op(f, 4, 1).elems[0].name, "table");
  EXPECT_EQ(op(f, 4, 1).imm, 4);
  EXPECT_EQ(op(f, 5, 1).elems[0].reg, 5u);
  EXPECT_EQ(op(f, 6, 1).elems[0].kind, Operand::Kind::Imm);
  EXPECT_EQ(op(f, 6, 1).elems[0].imm, 0x1000);
  EXPECT_EQ(op(f, 7, 1).imm, -4);
  // A tensor address: the map, then its coordinates innermost first.
  const Operand &t = op(f, 8, 0);
  ASSERT_EQ(t.elems.size(), 2u);
  EXPECT_EQ(t.elems[0].reg, 7u);
  ASSERT_EQ(t.elems[1].kind, Operand::Kind::Vector);
  EXPECT_EQ(t.elems[1].elems.size(), 2u);
  EXPECT_EQ(t.elems[1].elems[1].reg, 2u);
}

TEST(ParseBody, VectorsPairsSinksAndNegatedPredicates) {
  Module m = parse_ok(kernel(R"(	.reg .f32 %f<3>;
	.reg .b32 %r<3>;
	.reg .pred %p<3>;
	ld.global.v4.f32 {%f0, %f1, _, %f2}, [%r0];
	shfl.sync.bfly.b32 %r1|%p2, %r0, 16, 31, -1;
	{
	.reg .pred p;
	elect.sync _|p, 0xffffffff;
	}
	mbarrier.arrive.shared::cta.b64 _, [%r0];
	and.pred %p0, %p1, !%p2;)"));
  const Function &f = m.functions[0];
  const Operand &v = op(f, 0, 0);
  ASSERT_EQ(v.kind, Operand::Kind::Vector);
  ASSERT_EQ(v.elems.size(), 4u);
  EXPECT_EQ(v.elems[1].reg, 1u);
  EXPECT_EQ(v.elems[2].kind, Operand::Kind::Sink);
  const Operand &pair = op(f, 1, 0);
  ASSERT_EQ(pair.kind, Operand::Kind::Pair);
  EXPECT_EQ(pair.elems[0].reg, 4u);
  EXPECT_EQ(pair.elems[1].reg, 8u);
  EXPECT_EQ(op(f, 1, 4).imm, -1);
  const Operand &elect = op(f, 2, 0);
  ASSERT_EQ(elect.kind, Operand::Kind::Pair);
  EXPECT_EQ(elect.elems[0].kind, Operand::Kind::Sink);
  EXPECT_EQ(elect.elems[1].reg, 9u);
  EXPECT_EQ(op(f, 2, 1).imm, 0xffffffff);
  EXPECT_EQ(op(f, 3, 0).kind, Operand::Kind::Sink);
  EXPECT_TRUE(op(f, 4, 2).negated);
  EXPECT_EQ(op(f, 4, 2).reg, 8u);
  EXPECT_FALSE(op(f, 4, 1).negated);
}

TEST(ParseBody, LabelsResolveForwardAndBackward) {
  Module m = parse_ok(kernel(R"(	.reg .pred %p<2>;
$L__BB0_1:
	@%p1 bra $L__BB0_3;
	bra.uni $L__BB0_1;
$L__BB0_3:
$L__BB0_4:
	ret;
$L__end:)"));
  const Function &f = m.functions[0];
  EXPECT_EQ(f.labels.at("$L__BB0_1"), 0);
  EXPECT_EQ(f.labels.at("$L__BB0_3"), 2);
  EXPECT_EQ(f.labels.at("$L__BB0_4"), 2);
  EXPECT_EQ(f.labels.at("$L__end"), 3); // past the last instruction
  ASSERT_EQ(op(f, 0, 0).kind, Operand::Kind::Label);
  EXPECT_EQ(op(f, 0, 0).target, 2);
  EXPECT_EQ(op(f, 0, 0).name, "$L__BB0_3");
  EXPECT_EQ(op(f, 1, 0).target, 0);
}

// CUTLASS's mbarrier wait is inline asm with its own labels; inlined twice,
// each copy's branches must reach their own copy's labels.
TEST(ParseBody, LabelsAreScopedByBlocks) {
  Module m = parse_ok(kernel(R"(	.reg .b32 %r<2>;
	{
	.reg .pred P1;
LAB_WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 P1, [%r0], %r1;
	@P1 bra DONE;
	bra LAB_WAIT;
DONE:
	}
	{
	.reg .pred P1;
LAB_WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 P1, [%r0], %r1;
	@P1 bra DONE;
	bra.uni LAB_WAIT;
DONE:
	}
	bra.uni $L__exit;
	{
	bra.uni $L__exit;
	}
$L__exit:
	ret;)"));
  const Function &f = m.functions[0];
  ASSERT_EQ(f.body.size(), 9u);
  EXPECT_EQ(op(f, 1, 0).target, 3);
  EXPECT_EQ(op(f, 2, 0).target, 0);
  EXPECT_EQ(op(f, 4, 0).target, 6);
  EXPECT_EQ(op(f, 5, 0).target, 3);
  EXPECT_EQ(op(f, 6, 0).target, 8);
  EXPECT_EQ(op(f, 7, 0).target, 8); // an outer label from inside a block
  EXPECT_EQ(f.labels.at("LAB_WAIT"), 0); // the map keeps a repeated name's first
}

TEST(ParseBody, CallsBecomeReturnsCalleeArguments) {
  Module m = parse_ok(std::string(kHeader) + R"(
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.func done()
{
	ret;
}
.visible .entry k()
{
	.reg .b64 %rd<2>;
	{ // callseq 0, 0
	.param .b64 param0;
	.param .b64 param1;
	.param .b32 retval0;
	st.param.b64 [param0], %rd0;
	call.uni (retval0), 
	vprintf, 
	(
	param0, 
	param1
	);
	} // callseq 0
	{ // callseq 1, 0
	.param .b64 param0;
	call.uni done, (param0);
	}
	call.uni done;
	mov.u64 %rd1, vprintf;
})");
  const Function &f = *m.find("k");
  ASSERT_EQ(f.body.size(), 5u);
  const Instr &call = f.body[1];
  EXPECT_EQ(call.opcode, "call");
  EXPECT_EQ(call.text, "call.uni (retval0), vprintf, (param0, param1);");
  ASSERT_EQ(call.operands.size(), 3u);
  ASSERT_EQ(call.operands[0].kind, Operand::Kind::Vector);
  ASSERT_EQ(call.operands[0].elems.size(), 1u);
  EXPECT_EQ(call.operands[0].elems[0].kind, Operand::Kind::Symbol);
  EXPECT_EQ(call.operands[0].elems[0].name, "retval0");
  EXPECT_EQ(call.operands[1].kind, Operand::Kind::Symbol);
  EXPECT_EQ(call.operands[1].name, "vprintf");
  ASSERT_EQ(call.operands[2].elems.size(), 2u);
  EXPECT_EQ(call.operands[2].elems[1].name, "param1");
  // No return value: an empty list first; no arguments: an empty list last.
  EXPECT_TRUE(f.body[2].operands[0].elems.empty());
  EXPECT_EQ(f.body[2].operands[1].name, "done");
  EXPECT_EQ(f.body[2].operands[2].elems.size(), 1u);
  EXPECT_EQ(f.body[3].operands.size(), 3u);
  EXPECT_TRUE(f.body[3].operands[2].elems.empty());
  EXPECT_EQ(f.body[4].operands[1].kind, Operand::Kind::Symbol);
  // The .param variables of each call sequence are kept, names repeating.
  ASSERT_EQ(f.vars.size(), 4u);
  EXPECT_EQ(f.vars[0].space, Space::Param);
  EXPECT_EQ(f.vars[3].name, "param0");
}

TEST(ParseBody, LocDirectivesAndInstructionText) {
  Module m = parse_ok(kernel(R"(	.reg .b32 %r<2>;
	mov.u32 	%r0, 1;
	.loc	1 14 5
	add.s32 	%r1, %r0, 
	   %r0;
	.loc	2 65 3, function_name $L__info_string0, inlined_at 1 14 5
	.pragma "nounroll";
	mbarrier.init.shared::cta.b64 [%r1], %r0;
	mov.u32 %r0, 2;)"));
  const Function &f = m.functions[0];
  EXPECT_EQ(f.body[0].loc.file, 0);
  EXPECT_EQ(f.body[0].ptx_line, 7u);
  EXPECT_EQ(f.body[0].text, "mov.u32 %r0, 1;");
  EXPECT_EQ(f.body[1].loc.file, 1);
  EXPECT_EQ(f.body[1].loc.line, 14);
  EXPECT_EQ(f.body[1].loc.col, 5);
  EXPECT_EQ(f.body[1].loc.inlined_file, 0);
  EXPECT_EQ(f.body[1].ptx_line, 9u);
  EXPECT_EQ(f.body[1].text, "add.s32 %r1, %r0, %r0;");
  const Loc &l = f.body[2].loc;
  EXPECT_EQ(l.file, 2);
  EXPECT_EQ(l.line, 65);
  EXPECT_EQ(l.col, 3);
  EXPECT_EQ(l.inlined_file, 1);
  EXPECT_EQ(l.inlined_line, 14);
  EXPECT_EQ(l.inlined_col, 5);
  EXPECT_EQ(f.body[3].loc.line, 65); // until the next .loc
}

} // namespace
} // namespace emu::ptx::test
