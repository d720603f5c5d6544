// env.cpp - scoped bindings and view arithmetic ---------------------------//
#include "compiler/codegen/env.h"

#include "compiler/codegen/abi.h"
#include "compiler/codegen/c_names.h"

namespace exgc::codegen {

const CxxBinding *Env::lookup(const Sym &s) const {
  std::string k = key(s);
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(k);
    if (f != it->end())
      return &f->second;
  }
  return outer ? outer(s) : nullptr;
}

namespace {
std::string offset(const CxxBinding &view, const std::vector<std::string> &idx) {
  std::string off;
  for (size_t d = 0; d < idx.size() && d < view.strides.size(); ++d) {
    const std::string &i = idx[d];
    const std::string &s = view.strides[d];
    if (i == "0" || s == "0")
      continue;
    std::string term = s == "1" ? i : paren(i) + " * " + paren(s);
    off = off.empty() ? term : off + " + " + term;
  }
  return off;
}
} // namespace

std::string view_origin_offset(const CxxBinding &view, const std::vector<std::string> &idx) {
  std::string off = offset(view, idx);
  if (off.empty())
    return view.swizzle_origin;
  return view.swizzle_origin == "0" ? off : paren(view.swizzle_origin) + " + " + off;
}

std::string view_element(const CxxBinding &view, const std::vector<std::string> &idx) {
  if (view.swizzle_bytes != 0)
    return view.swizzle_base + "[exg::sm90::swizzled_element<" + view.ctype +
           ">(exg::sm90::Swizzle::" + swizzle_enumerator(view.swizzle_bytes) + ", " +
           view_origin_offset(view, idx) + ")]";
  std::string off = offset(view, idx);
  return paren(view.expr) + "[" + (off.empty() ? "0" : off) + "]";
}

std::string view_address(const CxxBinding &view, const std::vector<std::string> &idx) {
  std::string off = offset(view, idx);
  return off.empty() ? view.expr : paren(view.expr) + " + " + paren(off);
}

} // namespace exgc::codegen
