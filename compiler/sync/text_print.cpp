// text_print.cpp - write a sync program in its text form ------------------//
//
// Every field is printed explicitly (barrier shorthands expanded), so the
// output parses back to an equal program.
#include "compiler/sync/text_format.h"

#include <sstream>

namespace exgc::sync {
namespace {

std::string index_string(const Index &idx) {
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i) {
    if (i)
      s += ", ";
    const IndexItem &it = idx[i];
    if (it.whole)
      s += ":";
    else if (it.hi)
      s += expr_string(it.lo) + ":" + expr_string(it.hi);
    else
      s += expr_string(it.lo);
  }
  return s + "]";
}

std::string dims_string(const std::vector<Expr> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + expr_string(dims[i]);
  return s + "]";
}

std::string ints_string(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

class Printer {
public:
  std::ostringstream os;

  void block(const Block &b, int depth) {
    for (const StmtP &s : b)
      stmt(*s, depth);
  }

private:
  void line_end(const Stmt &s, bool opens_block) {
    if (s.loc.known())
      os << " @ " << s.loc.str();
    if (opens_block)
      os << " {";
    os << "\n";
  }

  void close(int depth) { os << std::string(2 * depth, ' ') << "}\n"; }

  void stmt(const Stmt &s, int depth) {
    std::string ind(2 * depth, ' ');
    os << ind;
    switch (s.kind) {
    case StmtKind::Let:
      os << "let " << s.name << " = " << expr_string(s.value);
      break;
    case StmtKind::Data:
      os << "data " << s.name << dims_string(s.dims);
      if (s.ring_dim >= 0)
        os << " ring(" << s.ring_dim << ", " << s.ring_depth << ")";
      if (!s.guard.empty()) {
        os << " guard(" << s.guard;
        for (int d : s.guard_mcast)
          os << ", " << d;
        os << ")";
      }
      break;
    case StmtKind::Barrier:
      os << "barrier " << s.name << dims_string(s.dims);
      if (s.one_shot_arrive)
        os << " one_shot_arrive";
      if (s.one_shot_await)
        os << " one_shot_await";
      if (s.checked)
        os << " checked";
      if (s.ring_dim >= 0)
        os << " ring(" << s.ring_dim << ", " << s.ring_depth << ")";
      if (s.pre_arrive)
        os << " pre_arrive(" << s.pre_arrive << ")";
      break;
    case StmtKind::Free:
      os << "free " << s.name;
      if (s.has_check)
        os << " check=" << qual_set_string(s.check);
      break;
    case StmtKind::Access: {
      static const char *const kinds[] = {"read", "write", "update"};
      os << kinds[static_cast<int>(s.access)] << " " << s.name;
      for (const Index &t : s.targets)
        os << index_string(t);
      os << " q=" << qual_name(s.initial) << " ext=" << qual_set_string(s.ext);
      if (s.ooo)
        os << " ooo";
      if (s.conv)
        os << " conv";
      if (s.clip)
        os << " clip";
      if (s.atomic)
        os << " atomic=" << qual_set_string(s.atomic);
      for (const BarrierRef &b : s.bars)
        os << " >> " << b.name << index_string(b.idx);
      break;
    }
    case StmtKind::Fence:
      os << "fence " << sync_tl_string(s.l1) << " -> " << sync_tl_string(s.l2);
      break;
    case StmtKind::Arrive:
      os << "arrive " << sync_tl_string(s.l1);
      for (const BarrierRef &b : s.bars)
        os << " >> " << b.name << index_string(b.idx);
      break;
    case StmtKind::Await:
      os << "await " << s.bars[0].name << index_string(s.bars[0].idx) << " -> "
         << sync_tl_string(s.l2) << " " << s.n;
      break;
    case StmtKind::Join:
      os << "join";
      break;
    case StmtKind::Seq:
    case StmtKind::Tasks:
      os << (s.kind == StmtKind::Seq ? "seq " : "tasks ") << s.name << " in "
         << expr_string(s.value) << ".." << expr_string(s.hi);
      line_end(s, true);
      block(s.body, depth + 1);
      close(depth);
      return;
    case StmtKind::Threads:
      os << "threads " << s.name << " in " << expr_string(s.value) << ".." << expr_string(s.hi)
         << " dim=" << s.dim << " width=" << s.width << " stride=" << s.stride
         << " offset=" << s.offset;
      line_end(s, true);
      block(s.body, depth + 1);
      close(depth);
      return;
    case StmtKind::Device:
      os << "device " << ints_string(s.ints);
      line_end(s, true);
      block(s.body, depth + 1);
      close(depth);
      return;
    case StmtKind::Reshape:
      os << "reshape " << s.dim << " -> " << ints_string(s.ints);
      line_end(s, true);
      block(s.body, depth + 1);
      close(depth);
      return;
    case StmtKind::If:
      os << "if " << expr_string(s.value);
      line_end(s, true);
      block(s.body, depth + 1);
      if (!s.else_body.empty()) {
        os << ind << "} else {\n";
        block(s.else_body, depth + 1);
      }
      close(depth);
      return;
    }
    line_end(s, false);
  }
};

} // namespace

std::string print_program(const Program &p) {
  Printer pr;
  pr.block(p.body, 0);
  return pr.os.str();
}

} // namespace exgc::sync
