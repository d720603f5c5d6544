// primitives_test.cpp - the registry in primitives.def is consistent ----------//
// Each default has the kind of its parameter (a default is bound without the
// kind check a written argument gets), required parameters come first, names
// are unique, and signatures show the defaults.
#include "compiler/schedule/primitives.h"

#include <gtest/gtest.h>

#include <set>

namespace exgc::schedule {
namespace {

bool default_fits(const Param &p) {
  switch (p.fallback.kind) {
  case ParamDefault::Kind::Required:
  case ParamDefault::Kind::Absent: return true;
  case ParamDefault::Kind::Int: return p.kind == ParamKind::Int || p.kind == ParamKind::Any ||
                                       (p.kind == ParamKind::Count && p.fallback.int_value >= 1);
  case ParamDefault::Kind::Bool: return p.kind == ParamKind::Bool || p.kind == ParamKind::Any;
  case ParamDefault::Kind::Str: return p.kind == ParamKind::Str || p.kind == ParamKind::Stmt ||
                                       p.kind == ParamKind::Any;
  }
  return false;
}

TEST(Primitives, DefaultsHaveTheirParametersKind) {
  for (const PrimitiveSpec &p : all_primitives())
    for (const Param &param : p.params)
      EXPECT_TRUE(default_fits(param)) << p.name << " parameter " << param.name;
}

TEST(Primitives, RequiredParametersComeFirstAndNamesAreUnique) {
  for (const PrimitiveSpec &p : all_primitives()) {
    bool optional_seen = false;
    std::set<std::string> names;
    for (const Param &param : p.params) {
      EXPECT_FALSE(optional_seen && param.required()) << p.name << " parameter " << param.name;
      optional_seen |= !param.required();
      EXPECT_TRUE(names.insert(param.name).second) << p.name << " repeats " << param.name;
    }
  }
}

TEST(Primitives, SignatureShowsDefaults) {
  const PrimitiveSpec *d = find_primitive("divide_loop");
  ASSERT_TRUE(d);
  EXPECT_EQ(primitive_signature(*d),
            "divide_loop(p: proc, loop: cursor or pattern, factor: int, names: list, "
            "perfect: bool = False, tail: str = \"guard\")");
  EXPECT_EQ(find_primitive("fission")->params[2].fallback.value().int_value, 1);
}

TEST(Primitives, UnsafeComesFromTheRegistry) {
  EXPECT_TRUE(is_unsafe_primitive("unsafe_remove_if"));
  EXPECT_FALSE(is_unsafe_primitive("divide_loop"));
  EXPECT_FALSE(is_unsafe_primitive("no_such_primitive"));
}

} // namespace
} // namespace exgc::schedule
