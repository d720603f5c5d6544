// cuda_instr.cpp - instruction calls and tensor maps in CUDA code ----------//
#include "compiler/codegen/cuda_instr.h"

#include "compiler/analysis/memories.h"
#include "compiler/codegen/abi.h"
#include "compiler/ir/instr_args.h"
#include "compiler/ir/printer.h"

namespace exgc::codegen {

namespace {

std::string int32(const std::string &s) { return "static_cast<int32_t>(" + s + ")"; }

/// The `distributed: x[U, ...]` units of parameter `name` (0 when none).
size_t distributed_dims(const ProcNode &instr, const std::string &name) {
  if (const InstrAttr *d = instr.attr("distributed"))
    for (const Expr &e : d->values)
      if (const auto *r = e.as<Read>(); r && r->buf.name == name)
        return r->idx.size();
  return 0;
}

/// `{x}` for a tensor argument, by the memory of the view passed.
/// `split` leading dimensions are the instruction's threads' (distributed:).
std::string tensor_hole(const Expr &e, ExprEmitter &ex, size_t split) {
  CxxBinding v;
  if (!ex.view_of(e, v))
    return "";
  if (split) {
    // Each thread (CTA) of the call passes its own part: the GPU stage
    // checked that the split dimensions are the buffer's distributed ones,
    // which codegen dropped from the owner's array (stride 0).
    bool own = v.rank() >= split;
    for (size_t d = 0; own && d < split; ++d)
      own = v.strides[d] == "0";
    const analysis::MemoryInfo *m = analysis::resolve_memory(v.mem).info;
    // Shared memory split over CTAs (a multicast's destination): this CTA's
    // tile, whose offset the hardware uses in every destination CTA.
    if (own && m && m->space == analysis::MemSpace::Shared)
      return v.expr;
    if (!own || v.rank() != split) {
      ex.unsupported(e->loc, "a distributed argument with dimensions each thread keeps");
      return "";
    }
    return paren(v.expr) + "[0]";
  }
  if (v.tensor_map) {
    std::string coords;
    for (const std::string &c : v.tma_coord)
      coords += (coords.empty() ? "" : ", ") + int32(c);
    return "exg::sm90::TmaWindow<" + std::to_string(v.tma_coord.size()) + ">{&" + v.expr + ", {" +
           coords + "}}";
  }
  const analysis::MemoryRef mem = analysis::resolve_memory(v.mem);
  if (mem.is(analysis::MemId::Sm90_RmemMatrixD) || mem.is(analysis::MemId::Sm90_RmemMatrixA)) {
    // One warpgroup's tile: the distributed dimensions are this thread's,
    // the slab dimensions pick one of its fragments; the rest must be the
    // whole tile, which the fragment holds.
    const auto *w = e.as<WindowExpr>();
    const CxxBinding *acc = ex.env().lookup(w ? w->buf : e.as<Var>()->name);
    std::string fragment = acc->expr;
    if (w) {
      const size_t tile = w->idx.size() >= 2 ? w->idx.size() - 2 : 0;
      for (size_t d = 0; d < w->idx.size(); ++d) {
        const WindowIdx &wi = w->idx[d];
        if (d >= acc->owned_dims && d < tile) {
          if (wi.is_slice) {
            ex.unsupported(e->loc, "a slice of the slabs of an '" + std::string(mem.info->name) +
                                       "' buffer");
            return "";
          }
          fragment += "[" + ex.ctrl(wi.lo) + "]";
        } else if (wi.is_slice && wi.lo && !(wi.lo.as<IntImm>() && wi.lo.as<IntImm>()->value == 0)) {
          ex.unsupported(e->loc, "a part of an '" + std::string(mem.info->name) + "' tile");
          return "";
        }
      }
    }
    return fragment;
  }
  const analysis::MemoryInfo *m = analysis::resolve_memory(v.mem).info;
  if (m && m->space == analysis::MemSpace::Shared)
    return v.expr;
  std::string strides;
  for (const std::string &s : v.strides)
    strides += (strides.empty() ? "" : ", ") + s;
  return "exg::Win<" + std::string(v.is_const ? "const " : "") + v.ctype + ", " +
         std::to_string(v.rank()) + ">{" + v.expr + ", {" + strides + "}}";
}

} // namespace

std::string instr_call_line(const CallStmt *c, const ProcNode &instr, ExprEmitter &ex,
                            const std::function<std::string(const Expr &)> &bar,
                            const gpu::MulticastGroup *multicast) {
  const InstrAttr *emit = instr.attr("emit");
  const StrImm *text = emit && emit->values.size() == 1 ? emit->values[0].as<StrImm>() : nullptr;
  if (!text) {
    ex.unsupported(c->loc, "the instruction '" + instr.name + "' without an 'emit:' string");
    return "";
  }
  std::vector<Expr> bound = bind_instr_args(*c, instr);
  std::string out;
  const std::string &t = text->value;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '{') {
      out += t[i];
      continue;
    }
    size_t end = t.find('}', i);
    if (end == std::string::npos) {
      ex.unsupported(emit->loc, "an 'emit:' string with an unclosed '{'");
      return "";
    }
    std::string hole = t.substr(i + 1, end - i - 1), value;
    i = end;
    if (hole == "bar") {
      if (c->barriers.size() != 1) {
        ex.unsupported(c->loc, "'{bar}' without exactly one trailing barrier");
        return "";
      }
      value = bar(c->barriers[0]);
    } else if (hole == "cta_mask") {
      if (!multicast) {
        ex.unsupported(c->loc, "'{cta_mask}' in a call the GPU stage found no multicast group for");
        return "";
      }
      // This CTA's group: `ncta` ranks `stride` apart (docs/hopper.md).
      value = "exg::sm90::multicast_mask(exg::sm90::cluster_ctarank(), " +
              std::to_string(multicast->ncta) + ", " + std::to_string(multicast->stride) + ")";
    } else {
      const Arg *a = instr.find_arg(hole);
      const Expr &e = a ? bound[static_cast<size_t>(a - instr.args.data())] : Expr();
      if (!a || !e) {
        ex.unsupported(emit->loc, "the 'emit:' hole '{" + hole + "}' of '" + instr.name + "'");
        return "";
      }
      int64_t k = 0;
      if (instr_attr_names(instr, "template", hole)) {
        if (!const_int(e, k)) {
          ex.unsupported(e->loc, "a template argument that is not a constant");
          return "";
        }
        value = std::to_string(k);
      } else if (a->type.kind == Type::Kind::Control) {
        value = a->type.scalar == ValueType::Bool ? ex.ctrl(e) : ex.ctrl_wide(e);
      } else if (a->type.is_tensor()) {
        value = tensor_hole(e, ex, distributed_dims(instr, hole));
      } else {
        value = ex.data(e, ex.scalar_ctype(a->type.scalar));
      }
    }
    if (value.empty() || ex.failed())
      return "";
    out += value;
  }
  return out;
}

bool emit_tensor_map(const WindowStmt *w, ExprEmitter &ex, Writer &out, NameScope &names,
                     const std::string &error_return) {
  const auto *m = w->mem.as<Call>();
  std::vector<int64_t> p;
  for (const Expr &a : m ? m->args : std::vector<Expr>{}) {
    int64_t v = 0;
    if (!const_int(a, v))
      return ex.unsupported(a->loc, "a non-constant tensor-map parameter");
    p.push_back(v);
  }
  CxxBinding v;
  if (!ex.view_of(w->rhs, v))
    return false;
  if (p.size() != v.rank() + 1 || !v.dense || v.in_hi.size() != v.rank())
    return ex.unsupported(w->loc, "this tensor map (the window must be a whole dense tensor and "
                                  "the memory 'Sm90_tensorMap(swizzle, box...)' one box extent "
                                  "per dimension)");
  // The element types TMA tiles hold here: f32 (read by wgmma as TF32), bf16, f16.
  const char *dtype = v.type == ValueType::F32    ? "CU_TENSOR_MAP_DATA_TYPE_FLOAT32"
                      : v.type == ValueType::BF16 ? "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"
                      : v.type == ValueType::F16  ? "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"
                                                  : nullptr;
  if (!dtype)
    return ex.unsupported(w->loc, "a tensor map of '" + v.ctype + "'");
  const std::string bytes = std::to_string(element_bytes(v.type));
  const char *swizzle = swizzle_enumerator(p[0]);
  if (!swizzle)
    return ex.unsupported(m->args[0]->loc, "a swizzle other than 0, 32, 64 or 128 bytes");
  std::string name = names.take(w->name.name);
  std::string dims, box;
  for (size_t d = 0; d < v.rank(); ++d) {
    dims += (d ? ", " : "") + std::string("static_cast<uint64_t>(") + v.in_hi[d] + ")";
    box += (d ? ", " : "") + std::to_string(p[d + 1]);
  }
  std::string r = std::to_string(v.rank());
  out.line("// " + w->name.name + " = " + print_expr(w->rhs) + " @ " + print_expr(w->mem));
  out.line("CUtensorMap " + name + ";");
  out.open("");
  out.line("const uint64_t dims[" + r + "] = {" + dims + "};");
  out.line("const uint32_t box[" + r + "] = {" + box + "};");
  out.line("if (cudaError_t exg_err = exg::sm90::encode_tensor_map(&" + name + ", " + v.expr +
           ", exg::sm90::row_major_tensor_map(" + r + ", dims, box, " + bytes + "), " + dtype +
           ", " + bytes + ", exg::sm90::Swizzle::" + swizzle + ")) " +
           error_return);
  out.close();
  v.expr = name;
  v.sym = w->name;
  v.decl_loc = w->loc;
  v.mem = w->mem;
  v.tensor_map = true;
  v.tma_coord.assign(v.rank(), "0");
  ex.env().bind(w->name, v);
  return true;
}

} // namespace exgc::codegen
