// c_names_test.cpp - C++ spellings of names and literals -------------------//
#include "compiler/codegen/c_names.h"

#include <gtest/gtest.h>

#include <cmath>

#include "compiler/codegen/abi.h"

namespace exgc::codegen {
namespace {

TEST(CIdentifier, KeepsOrdinaryNames) {
  EXPECT_EQ(c_identifier("acc"), "acc");
  EXPECT_EQ(c_identifier("A_smem"), "A_smem");
}

TEST(CIdentifier, RenamesWhatWouldClash) {
  // Keywords, names the generated code calls, our own prefix, reserved forms.
  EXPECT_EQ(c_identifier("new"), "new_");
  EXPECT_EQ(c_identifier("float"), "float_");
  EXPECT_EQ(c_identifier("main"), "main_");
  EXPECT_EQ(c_identifier("threadIdx"), "threadIdx_");
  EXPECT_EQ(c_identifier("exg_floordiv"), "exg_floordiv_");
  EXPECT_EQ(c_identifier("a__b"), "a__b_");
  EXPECT_EQ(c_identifier("_X"), "_X_");
  EXPECT_EQ(c_identifier("cudaMalloc"), "cudaMalloc_");
  // Macros of the headers generated files include (c_macro_names.inc), and
  // the CUDA driver API's cu + capital names, many of them macros too.
  for (const char *m : {"NAN", "INFINITY", "M_PI", "INT64_MAX", "SIZE_MAX", "RAND_MAX", "EOF"})
    EXPECT_EQ(c_identifier(m), std::string(m) + "_");
  EXPECT_EQ(c_identifier("cuMemAlloc"), "cuMemAlloc_");
  EXPECT_EQ(c_identifier("cube"), "cube");
  EXPECT_EQ(c_identifier("N"), "N");
  EXPECT_EQ(c_identifier("M"), "M");
}

TEST(NameScope, MakesEachNameUnique) {
  NameScope s;
  EXPECT_EQ(s.take("i"), "i");
  EXPECT_EQ(s.take("i"), "i_1");
  EXPECT_EQ(s.take("i"), "i_2");
  EXPECT_EQ(s.take("int"), "int_");
  EXPECT_EQ(s.take("int"), "int_1");
  EXPECT_EQ(s.take_internal("exg_t"), "exg_t");
  EXPECT_EQ(s.take_internal("exg_t"), "exg_t_1");
}

TEST(CLiteral, SpellsTheTargetType) {
  EXPECT_EQ(c_literal(0, "float"), "0.0f");
  EXPECT_EQ(c_literal(1.5, "float"), "1.5f");
  EXPECT_EQ(c_literal(-2, "double"), "(-2.0)");
  EXPECT_EQ(c_literal(0.1, "double"), "0.10000000000000001");
  EXPECT_EQ(c_literal(3, "int32_t"), "int32_t(3)");
  // A float into integer data saturates, NaN gives 0 (as exg_to_int).
  EXPECT_EQ(c_literal(3e9, "int32_t"), "int32_t(2147483647)");
  EXPECT_EQ(c_literal(-1e300, "int8_t"), "int8_t((-128))");
  EXPECT_EQ(c_literal(std::nan(""), "uint16_t"), "uint16_t(0)");
  EXPECT_EQ(c_literal(1e300, "int64_t"), "9223372036854775807LL");
  EXPECT_EQ(c_literal(1, "bool"), "true");
  EXPECT_EQ(c_int_literal(-7), "(-7)");
  EXPECT_EQ(c_int_literal(int64_t(1) << 40), "1099511627776LL");
}

TEST(Paren, WrapsOnlyCompoundText) {
  EXPECT_EQ(paren("x"), "x");
  EXPECT_EQ(paren("16"), "16");
  EXPECT_EQ(paren("(a + b)"), "(a + b)");
  EXPECT_EQ(paren("(a) + (b)"), "((a) + (b))");
  EXPECT_EQ(paren("a * b"), "(a * b)");
}

TEST(CType, MapsStorableTypes) {
  EXPECT_EQ(c_type(ValueType::Size), "int64_t");
  EXPECT_EQ(c_type(ValueType::F32), "float");
  EXPECT_EQ(c_type(ValueType::U16), "uint16_t");
  EXPECT_EQ(c_type(ValueType::BF16), "exg_bf16");
  EXPECT_EQ(c_type(ValueType::F16), "exg_f16");
  EXPECT_EQ(c_type(ValueType::E4M3), ""); // rejected by the backends for now
}

} // namespace
} // namespace exgc::codegen
