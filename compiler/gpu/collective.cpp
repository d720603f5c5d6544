// collective.cpp - the collective algebra ---------------------------------//
#include "compiler/gpu/collective.h"

#include <algorithm>
#include <set>

namespace exgc::gpu {

std::string tuple_str(const std::vector<int64_t> &v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + (v[i] == kAny ? std::string("any") : std::to_string(v[i]));
  return s + ")";
}

namespace {

int64_t product(const std::vector<int64_t> &v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

/// Pitches of a row-major domain, plus the total.
std::vector<int64_t> pitch_set(const std::vector<int64_t> &domain) {
  std::vector<int64_t> out{product(domain)};
  int64_t p = 1;
  for (size_t i = domain.size(); i-- > 0;) {
    out.push_back(p);
    p *= domain[i];
  }
  return out;
}

/// Dimension k of a type becomes (d / f, f).
void split_type(CollType &c, size_t k, int64_t f) {
  int64_t d = c.domain[k], b = c.box[k];
  c.domain[k] = d / f;
  c.domain.insert(c.domain.begin() + static_cast<long>(k) + 1, f);
  int64_t outer = b == kAny ? kAny : b >= f ? b / f : 1;
  int64_t inner = b == kAny ? kAny : b >= f ? f : b;
  c.box[k] = outer;
  c.box.insert(c.box.begin() + static_cast<long>(k) + 1, inner);
}

/// Dimension k of a tiling becomes (d / f, f): operations whose box is at
/// least f move out (divided by f), the others stay inside, which needs them
/// to lie within one f-block.
bool split_tiling(Tiling &t, size_t k, int64_t f, std::string &err) {
  TileDim d = t.dims[k];
  TileDim outer, inner;
  outer.extent = d.extent / f;
  inner.extent = f;
  for (const TileOp &op : d.ops) {
    if (op.box >= f) {
      if (op.offset % f != 0 || op.box % f != 0) {
        err = "thread alignment issue with '" + op.name + "': offset " + std::to_string(op.offset) +
              " or box " + std::to_string(op.box) + " is not divisible by " + std::to_string(f);
        return false;
      }
      TileOp o = op;
      o.offset /= f;
      o.box /= f;
      outer.ops.push_back(o);
    } else {
      if (op.offset % f + op.box * op.tile_count > f) {
        err = "thread alignment issue with '" + op.name + "': its " +
              std::to_string(op.tile_count) + " part(s) of " + std::to_string(op.box) +
              " thread(s) cross a boundary of " + std::to_string(f) + " threads";
        return false;
      }
      inner.ops.push_back(op);
    }
  }
  // Narrowed inside one f-block: that block is a single point of the outer
  // dimension (the parent's box starts on a block boundary, and the
  // operations inside start at its beginning).
  if (!inner.ops.empty()) {
    for (const TileOp &op : inner.ops)
      if (op.offset != 0) {
        err = "thread alignment issue with '" + op.name + "': offset " +
              std::to_string(op.offset) + " inside a block of " + std::to_string(f) + " threads";
        return false;
      }
    TileOp point;
    point.box = 1;
    point.depth = inner.ops.front().depth;
    outer.ops.push_back(point);
  }
  outer.coord = d.coord.div(f);
  inner.coord = d.coord.mod(f);
  t.dims[k] = outer;
  t.dims.insert(t.dims.begin() + static_cast<long>(k) + 1, inner);
  return true;
}

/// The cut points (pitches) strictly inside dimension i of a domain.
std::vector<int64_t> cuts_inside(const std::vector<int64_t> &domain, size_t i,
                                 const std::vector<int64_t> &pitches) {
  int64_t p = 1;
  for (size_t k = i + 1; k < domain.size(); ++k)
    p *= domain[k];
  int64_t top = p * domain[i];
  std::vector<int64_t> out;
  for (int64_t t : pitches)
    if (t > p && t < top)
      out.push_back(t);
  std::sort(out.rbegin(), out.rend());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace

int64_t CollType::threads() const { return product(domain); }

std::string CollType::str() const { return tuple_str(domain) + "/" + tuple_str(box); }

int64_t TileDim::base_offset() const {
  int64_t o = 0;
  for (const TileOp &op : ops)
    o += op.offset;
  return o;
}

Tiling Tiling::device(const DeviceEnv &env) {
  Tiling t;
  t.cluster_dim = env.cluster_dim;
  if (env.cluster_dim > 1) {
    TileDim c;
    c.extent = env.cluster_dim;
    c.coord = CollIndex::cluster_rank(env.cluster_dim);
    t.dims.push_back(c);
  }
  TileDim b;
  b.extent = env.block_dim;
  b.coord = CollIndex::thread(env.block_dim);
  t.dims.push_back(b);
  return t;
}

std::vector<int64_t> Tiling::domain() const {
  std::vector<int64_t> out;
  for (const TileDim &d : dims)
    out.push_back(d.extent);
  return out;
}

std::vector<int64_t> Tiling::boxes() const {
  std::vector<int64_t> out;
  for (const TileDim &d : dims)
    out.push_back(d.box());
  return out;
}

int64_t Tiling::pitch(size_t dim) const {
  int64_t p = 1;
  for (size_t k = dim + 1; k < dims.size(); ++k)
    p *= dims[k].extent;
  return p;
}

int64_t Tiling::threads() const { return product(domain()); }

bool Tiling::whole_warps() const {
  int64_t run = 1; // consecutive threads the box covers, from the innermost dimension out
  for (size_t k = dims.size(); k-- > 0;) {
    const TileDim &d = dims[k];
    if (d.box() == d.extent) {
      run *= d.extent;
      continue;
    }
    // Part of this dimension: whole warps when every narrowing starts and ends on one.
    for (const TileOp &op : d.ops)
      if ((op.offset * run) % 32 != 0 || (op.box * run) % 32 != 0)
        return false;
    return true;
  }
  return run % 32 == 0;
}

std::string Tiling::str() const { return "domain=" + tuple_str(domain()) + ", box=" + tuple_str(boxes()); }

namespace {

/// Substitutes, drops extent-1 dimensions and pads a unit smaller than the
/// cluster with an outer dimension whose box is `pad`.
std::optional<CollType> unpack(const CollUnit &u, const DeviceEnv &env, int64_t pad,
                               std::string &err) {
  CollType c;
  c.name = u.name;
  for (size_t i = 0; i < u.domain.size(); ++i) {
    if (u.domain[i] < 1 || (u.box[i] != kAny && (u.box[i] < 1 || u.box[i] > u.domain[i]))) {
      err = "the unit " + u.name + " does not fit blockDim=" + std::to_string(env.block_dim) +
            ", clusterDim=" + std::to_string(env.cluster_dim) + ": " + tuple_str(u.domain) + "/" +
            tuple_str(u.box);
      return std::nullopt;
    }
    if (u.domain[i] == 1)
      continue;
    c.domain.push_back(u.domain[i]);
    c.box.push_back(u.box[i]);
  }
  int64_t n = product(c.domain);
  if (env.threads() % n != 0) {
    err = "the unit " + u.name + " covers " + std::to_string(n) + " threads, which does not divide " +
          std::to_string(env.threads());
    return std::nullopt;
  }
  if (env.threads() / n > 1) {
    c.domain.insert(c.domain.begin(), env.threads() / n);
    c.box.insert(c.box.begin(), pad);
  }
  return c;
}

} // namespace

std::optional<CollType> unpack_raw(const CollUnit &u, const DeviceEnv &env, std::string &err) {
  return unpack(u, env, kAny, err);
}

std::optional<CollType> unpack_aligned(const CollUnit &u, const DeviceEnv &env, std::string &err) {
  std::optional<CollType> c = unpack(u, env, 1, err);
  if (!c)
    return c;
  for (size_t i = 0; i < c->domain.size(); ++i) {
    int64_t b = c->box[i];
    if (b == kAny || b == 1 || b == c->domain[i])
      continue;
    if (c->domain[i] % b != 0) {
      err = "invalid alignment for the unit " + u.name + ": box " + std::to_string(b) +
            " does not divide " + std::to_string(c->domain[i]);
      return std::nullopt;
    }
    c->domain[i] /= b;
    c->box[i] = 1;
    c->domain.insert(c->domain.begin() + static_cast<long>(i) + 1, b);
    c->box.insert(c->box.begin() + static_cast<long>(i) + 1, b);
    ++i;
  }
  return c;
}

bool complete(Tiling &t, CollType &c, std::string &err) {
  if (t.threads() != c.threads()) {
    err = "domain completion for " + tuple_str(t.domain()) + " and " + tuple_str(c.domain) +
          " failed: they cover different numbers of threads";
    return false;
  }
  std::set<int64_t> all;
  for (int64_t p : pitch_set(t.domain()))
    all.insert(p);
  for (int64_t p : pitch_set(c.domain))
    all.insert(p);
  int64_t prev = 0;
  for (int64_t p : all) {
    if (prev && p % prev != 0) {
      err = "domain completion for " + tuple_str(t.domain()) + " and " + tuple_str(c.domain) +
            " failed: " + std::to_string(prev) + " doesn't divide " + std::to_string(p);
      return false;
    }
    prev = p;
  }
  std::vector<int64_t> pitches(all.begin(), all.end());
  for (size_t i = t.dims.size(); i-- > 0;) {
    std::vector<int64_t> cuts = cuts_inside(t.domain(), i, pitches);
    int64_t p = t.pitch(i);
    for (size_t j = 0; j < cuts.size(); ++j)
      if (!split_tiling(t, i + j, cuts[j] / p, err))
        return false;
  }
  for (size_t i = c.domain.size(); i-- > 0;) {
    std::vector<int64_t> cuts = cuts_inside(c.domain, i, pitches);
    int64_t p = 1;
    for (size_t k = i + 1; k < c.domain.size(); ++k)
      p *= c.domain[k];
    for (size_t j = 0; j < cuts.size(); ++j)
      split_type(c, i + j, cuts[j] / p);
  }
  return true;
}

namespace {

std::string threads_words(int64_t n) { return std::to_string(n) + (n == 1 ? " thread" : " threads"); }

/// Who runs the collective a loop splits, and how many threads that is, in
/// the user's terms: the enclosing loop or block, else the CTA or cluster.
std::string collective_words(const Tiling &t) {
  int64_t n = 1;
  for (int64_t b : t.boxes())
    n *= b;
  const TileOp *inner = nullptr;
  for (const TileDim &d : t.dims)
    for (const TileOp &op : d.ops)
      if (!op.name.empty() && (!inner || op.depth > inner->depth))
        inner = &op;
  if (!inner)
    return (t.cluster_dim > 1 ? "the cluster has " : "the CTA has ") + threads_words(n);
  if (inner->iter == 0)
    return "the enclosing '" + inner->name + "' block has " + threads_words(n);
  return "each iteration of the enclosing loop '" + inner->name + "' has " + threads_words(n) +
         (inner->unit.empty() ? "" : " (unit " + inner->unit + ")");
}

/// "16 iterations of unit 'cuda_thread' need 16 threads, but ...".
std::string too_few_threads(const Tiling &parent, const CollType &u, int64_t hi, bool loop,
                            int64_t needed) {
  std::string what = loop ? std::to_string(hi) + (hi == 1 ? " iteration" : " iterations") +
                                (u.name.empty() ? "" : " of unit " + u.name) +
                                (hi == 1 ? " needs " : " need ")
                          : "the first " + std::to_string(hi) + " warps need ";
  return what + threads_words(needed) + ", but " + collective_words(parent);
}

} // namespace

std::optional<Derived> derive(const Tiling &parent, uint32_t iter, const std::string &name,
                              const CollType &unit, int64_t lo, int64_t hi, bool loop,
                              std::string &err) {
  int64_t tile_count = loop ? hi - lo : 1;
  Derived d;
  d.child = parent;
  CollType u = unit;
  if (!complete(d.child, u, err))
    return std::nullopt;
  std::vector<size_t> tiled;
  for (size_t k = 0; k < u.domain.size(); ++k) {
    int64_t b = u.box[k];
    if (b != kAny && b != d.child.dims[k].box() && b != d.child.dims[k].extent)
      tiled.push_back(k);
  }
  d.child.depth = parent.depth + 1;
  if (tiled.empty()) {
    if (loop && hi > 1) {
      // The unit is the whole collective or wider: one iteration takes all.
      int64_t unit_threads = 1;
      for (size_t k = 0; k < u.domain.size(); ++k)
        unit_threads *= u.box[k] == kAny ? d.child.dims[k].box() : u.box[k];
      err = too_few_threads(parent, u, hi, loop, hi * unit_threads);
      return std::nullopt;
    }
    if (lo != 0 || hi != 1) {
      err = "the unit does not divide the current collective (" + d.child.str() +
            ") (\"trivial tiling\"): expect lo=0, hi=1";
      return std::nullopt;
    }
    d.trivial = true;
    d.tile_count = 1;
    return d;
  }
  if (tiled.size() > 1) {
    err = "ambiguous dimension to tile: the unit " + u.str() + " differs from the collective (" +
          d.child.str() + ") in more than one dimension";
    return std::nullopt;
  }
  size_t k = tiled[0];
  TileDim &dim = d.child.dims[k];
  int64_t size = u.box[k], box = dim.box();
  if (hi * size > box) {
    int64_t rest = 1; // threads per position of the split dimension
    for (size_t j = 0; j < d.child.dims.size(); ++j)
      if (j != k)
        rest *= d.child.dims[j].box();
    err = too_few_threads(parent, u, hi, loop, hi * size * rest);
    return std::nullopt;
  }
  TileOp op;
  op.iter = iter;
  op.name = name;
  op.unit = u.name;
  op.offset = lo * size;
  op.box = (hi - lo) / tile_count * size;
  op.tile_count = tile_count;
  op.depth = parent.depth;
  d.dim = k;
  d.tile_count = tile_count;
  d.pitch = tile_count > 1 ? d.child.pitch(k) * size : 0;
  const CollIndex e = dim.coord;
  if (loop) {
    // A loop: iteration j takes the j-th `size` threads of the box.
    d.before = e.div(size);
    d.iter = d.before;
    if (hi * size < box)
      d.guard_hi = hi;
    if (lo > 0)
      d.guard_lo = lo;
    dim.coord = tile_count > 1 ? e.mod(size) : e;
  } else {
    // CudaWarps: threads [lo, hi) * size of the box, together.
    d.before = e;
    d.iter = CollIndex::constant(0);
    if (lo > 0)
      d.guard_lo = lo * size;
    if (hi * size < box)
      d.guard_hi = hi * size;
    dim.coord = e.minus(lo * size);
  }
  dim.ops.push_back(op);
  return d;
}

bool at_scope(const Tiling &t, const CollType &c, std::string &err) {
  Tiling tt = t;
  CollType cc = c;
  if (!complete(tt, cc, err))
    return false;
  std::vector<int64_t> expected;
  bool ok = true;
  for (size_t i = 0; i < cc.domain.size(); ++i) {
    int64_t b = cc.box[i], have = tt.dims[i].box();
    expected.push_back(b);
    if (b == kAny)
      continue;
    if ((b == 1 && have != 1) || (b == cc.domain[i] && have != cc.domain[i]))
      ok = false;
  }
  if (!ok)
    err = tt.str() + "; expected box=" + tuple_str(expected);
  return ok;
}

} // namespace exgc::gpu
