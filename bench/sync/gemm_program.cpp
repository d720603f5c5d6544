// gemm_program.cpp - emit the GEMM's sync program -------------------------//
//
// The program is written as `.sync` text and parsed: the text is what
// `exg-syncbench --emit` prints, and building through the parser keeps one
// way of making programs. Locations point at the matching lines of the
// design's hand-scheduled kernel (gemm_tf32_sm90a.exg), as the lowering will.
//
// One deliberate difference from that kernel: the accumulators are zeroed by
// ordinary register writes (`acc = 0`, qual cuda1), not by wgmma's scale-d
// (wg0). wgmma's extended quals include wg0, so after a scale-d zeroing the
// abstract machine does not need the wgmma fence (reference section 2.3); after
// ordinary writes it does, so the fence is a checked sync statement too.
#include "gemm_program.h"

#include "compiler/sync/text_format.h"

#include <sstream>
#include <stdexcept>

namespace exgc::bench {
namespace {

class Emitter {
public:
  explicit Emitter(const GemmConfig &c) : cfg(c) {}
  const GemmConfig &cfg;
  std::ostringstream os;
  int depth = 0;
  int sync_index = 0, await_index = 0;
  std::vector<std::string> sync_names;

  void line(const std::string &s, int exg_line = 0, int col = 25) {
    os << std::string(2 * depth, ' ') << s;
    if (exg_line)
      os << " @ gemm_tf32_sm90a.exg:" << exg_line << ":" << col;
    os << "\n";
  }
  void open(const std::string &s, int exg_line = 0) {
    os << std::string(2 * depth, ' ') << s;
    if (exg_line)
      os << " @ gemm_tf32_sm90a.exg:" << exg_line << ":17";
    os << " {\n";
    ++depth;
  }
  void close() {
    --depth;
    os << std::string(2 * depth, ' ') << "}\n";
  }
  // A sync statement: numbered, so that a mutation can delete it.
  void sync(const std::string &name, const std::string &s, int exg_line) {
    int i = sync_index++;
    sync_names.push_back(name);
    if (i == cfg.delete_sync)
      return;
    line(s, exg_line);
  }
  // An Await: N may be bumped by a mutation.
  void await(const std::string &name, const std::string &bar, const std::string &tl, int n,
             int exg_line) {
    int a = await_index++;
    if (a == cfg.bump_await)
      ++n;
    sync(name, "await " + bar + " -> " + tl + " " + std::to_string(n), exg_line);
  }
};

std::string num(int64_t v) { return std::to_string(v); }

} // namespace

GemmProgram build_gemm_program(const GemmConfig &cfg) {
  Emitter e(cfg);
  const int64_t M = cfg.size, N = cfg.size, K = cfg.size;
  const int ncta = cfg.cluster_m;
  const int slabs = cfg.tile_m / 128; // 64-row wgmma slabs per consumer warpgroup
  const int R = cfg.ring;
  const int64_t kt_total = (K + cfg.k_tile - 1) / cfg.k_tile;
  const int ksplit = cfg.split_k ? 2 : 1;
  const int64_t kt = kt_total / ksplit; // K steps per task
  const int64_t tasks_m = (M + int64_t(cfg.tile_m) * ncta - 1) / (int64_t(cfg.tile_m) * ncta);
  const int64_t tasks_n = (N + cfg.tile_n - 1) / cfg.tile_n;
  const int b_rows = cfg.tile_n / ncta; // rows of the B tile each CTA loads and multicasts

  e.line("# Hopper TF32 GEMM, tile " + num(cfg.tile_m) + "x" + num(cfg.tile_n) + ", cluster " +
         num(ncta) + "x1, M = N = K = " + num(M));
  e.line("data C[" + num(M) + ", " + num(N) + "]", 172);
  e.open("device [" + num(ncta) + ", 384]", 178);
  e.open("tasks tm in 0.." + num(tasks_m), 181);
  e.open("tasks tn in 0.." + num(tasks_n), 182);
  if (cfg.split_k)
    e.open("tasks tk in 0..2");
  else
    e.line("let tk = 0");

  // Accumulators: acc[cta, wg, slab] is one 64 x tile_n wgmma tile.
  e.line("data acc[" + num(ncta) + ", 2, " + num(slabs) + ", 64, " + num(cfg.tile_n) + "]", 185);
  e.open("threads cta in 0.." + num(ncta) + " dim=0 width=1");
  e.open("threads wg in 0..2 dim=1 width=128 offset=128", 188);
  e.line("write acc[cta, wg, 0:" + num(slabs) + ", :, :] q=cuda1 ext={cuda1} conv", 189);
  e.close();
  e.close();

  const std::string mc = ncta > 1 ? ">> raw[:, 0, k]" : "";
  e.line("barrier raw[" + num(ncta) + ", 1, " + num(kt) + "] mbarrier ring(2, " + num(R) + ")",
         193);
  e.line("barrier war[" + num(ncta) + ", 1, " + num(kt + R) + "] mbarrier ring(2, " + num(R) +
             ") pre_arrive(" + num(R) + ")",
         194);
  e.line("barrier cg[" + num(ncta) + ", 2] commit_group", 196);
  e.line("data A_smem[" + num(ncta) + ", " + num(R) + ", " + num(cfg.tile_m) + ", 32]", 197);
  e.line("data B_smem[" + num(ncta) + ", " + num(R) + ", " + num(cfg.tile_n) + ", 32]", 198);

  e.open("seq k in 0.." + num(kt), 226);
  // Producer: warp 0 of each CTA waits for its slot, loads A (and its slice
  // of B, multicast to every CTA of the cluster), then all CTAs arrive.
  const std::string a_slot = cfg.ring_off_by_one ? "(k + 1) % " + num(R) : "k % " + num(R);
  e.open("threads cta in 0.." + num(ncta) + " dim=0 width=1");
  e.open("threads p in 0..1 dim=1 width=32", 227);
  e.await("producer Await(war)", "war[cta, 0, k]", "cuda_temporal", 0, 228);
  e.line("write A_smem[cta, " + a_slot + ", :, :] q=tmaS ext={tmaS,async} ooo >> raw[cta, 0, k]",
         229);
  if (ncta > 1)
    e.line("write B_smem[0:" + num(ncta) + ", k % " + num(R) + ", " + num(b_rows) + " * cta:" +
               num(b_rows) + " * cta + " + num(b_rows) +
               ", :] q=tmaS ext={tmaS,async} ooo >> raw[:, 0, k]",
           232);
  else
    e.line("write B_smem[cta, k % " + num(R) + ", :, :] q=tmaS ext={tmaS,async} ooo >> raw[cta, 0, k]",
           232);
  e.close();
  e.close();
  e.open("threads cta in 0.." + num(ncta) + " dim=0 width=1");
  e.open("threads p in 0..1 dim=1 width=32", 227);
  e.sync("producer Arrive(raw)", "arrive cuda_temporal >> raw[cta, 0, k] " + mc, 235);
  e.close();
  e.close();

  // Consumers: two warpgroups per CTA.
  e.open("threads cta in 0.." + num(ncta) + " dim=0 width=1");
  e.open("threads c in 0..1 dim=1 width=256 offset=128", 236);
  e.await("consumer Await(raw)", "raw[cta, 0, k]",
          cfg.wrong_await_tl ? "cuda_in_order" : "cuda_generic_and_async_proxy", 0, 237);
  e.open("threads wg in 0..2 dim=1 width=128", 238);
  e.sync("wgmma Fence", cfg.wrong_fence_tl ? "fence cuda_in_order -> cuda_in_order"
                                           : "fence wgmma_fence_1 -> wgmma_fence_2",
         239);
  e.open("seq kk in 0..4", 240);
  e.open("seq s in 0.." + num(slabs));
  e.line("update acc[cta, wg, s, :, :] q=wgD ext={wgD,wg0} conv", 241);
  e.line("read A_smem[cta, k % " + num(R) + ", (wg * " + num(slabs) +
             " + s) * 64:(wg * " + num(slabs) + " + s) * 64 + 64, 8 * kk:8 * kk + 8] q=wgS ext={wgS,async} ooo",
         243);
  e.line("read B_smem[cta, k % " + num(R) + ", :, 8 * kk:8 * kk + 8] q=wgS ext={wgS,async} ooo",
         244);
  e.close();
  e.close();
  e.sync("consumer Arrive(cg)", "arrive wgmma_async >> cg[cta, wg]", 246);
  e.open("if k >= 1");
  e.await("consumer Await(cg, 1)", "cg[cta, wg]", "cuda_in_order", 1, 247);
  e.close();
  e.close();
  e.open("if k >= 1");
  e.sync("consumer Arrive(war)",
         "arrive cuda_in_order >> war[cta, 0, k + " + num(R - 1) + "]" +
             (ncta > 1 ? " >> war[:, 0, k + " + num(R - 1) + "]" : ""),
         248);
  e.close();
  e.close();
  e.close();
  e.close(); // k

  // Drain: retire the last groups, free the last slot.
  e.open("threads cta in 0.." + num(ncta) + " dim=0 width=1");
  e.open("threads c in 0..1 dim=1 width=256 offset=128", 252);
  e.open("threads wg in 0..2 dim=1 width=128", 253);
  e.await("drain Await(cg, 0)", "cg[cta, wg]", "cuda_in_order", 0, 254);
  e.close();
  if (!cfg.no_final_arrive)
    e.sync("drain Arrive(war)",
           "arrive cuda_in_order >> war[cta, 0, " + num(kt + R - 1) + "]" +
               (ncta > 1 ? " >> war[:, 0, " + num(kt + R - 1) + "]" : ""),
           255);
  e.close();
  e.close();

  // Whole-cluster split barrier around the register epilogue.
  e.line("barrier cluster_sync[] cluster_sync", 258);
  e.sync("Arrive(cluster_sync)", "arrive cuda_in_order >> cluster_sync[]", 259);
  e.open("threads cta in 0.." + num(ncta) + " dim=0 width=1");
  e.open("threads wg in 0..2 dim=1 width=128 offset=128", 261);
  e.open("seq s in 0.." + num(slabs));
  e.line("read acc[cta, wg, s, :, :] q=cuda1 ext={cuda1} conv", 262);
  e.line("write C[" + num(cfg.tile_m * ncta) + " * tm + " + num(cfg.tile_m) + " * cta + 64 * (wg * " +
             num(slabs) + " + s):" + num(cfg.tile_m * ncta) + " * tm + " + num(cfg.tile_m) +
             " * cta + 64 * (wg * " + num(slabs) + " + s) + 64, " + num(cfg.tile_n) + " * tn:" +
             num(cfg.tile_n) + " * tn + " + num(cfg.tile_n) + "] q=cuda2 ext={cuda2} clip",
         262);
  e.close();
  e.close();
  e.close();
  e.await("Await(cluster_sync)", "cluster_sync[]", "cuda_in_order", 0, 266);
  e.line("free cluster_sync");
  e.line("free A_smem check={cuda2}");
  e.line("free B_smem check={cuda2}");
  e.line("free raw");
  e.line("free war");
  e.line("free cg");
  e.line("free acc");
  if (cfg.split_k)
    e.close();
  e.close(); // tn
  e.close(); // tm
  e.close(); // device
  e.line("join");
  e.line("fence cuda_stream_sync -> cuda_stream_sync");

  GemmProgram g;
  std::vector<sync::ParseError> errs;
  if (!sync::parse_program(e.os.str(), "gemm.sync", g.program, errs))
    throw std::logic_error("gemm program does not parse: " + errs[0].loc.str() + ": " +
                           errs[0].message + "\n" + e.os.str());
  g.num_sync = e.sync_index;
  g.num_awaits = e.await_index;
  g.sync_names = e.sync_names;
  return g;
}

} // namespace exgc::bench
