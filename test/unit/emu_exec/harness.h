// test/unit/emu_exec/harness.h - run small PTX kernels on the engine ---------//
// Tests write a kernel as PTX text, parse it, launch it on a DeviceImpl with
// chosen options, and read device memory back (device memory is host memory).
#pragma once

#include "emu/exec/device_impl.h"
#include "emu/ptx/parse.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace emu::test {

inline Options quiet_options(uint64_t seed = 1, bool adversarial = true) {
  Options o;
  o.seed = seed;
  o.adversarial = adversarial;
  return o;
}

/// A device with one module parsed from `ptx`.
inline std::unique_ptr<DeviceImpl> device_with(const std::string &ptx, Options o = quiet_options()) {
  auto dev = std::make_unique<DeviceImpl>(o);
  ptx::Module m;
  ptx::ParseError err;
  bool ok = ptx::parse_module(ptx, "test.ptx", m, err);
  EXPECT_TRUE(ok) << "line " << err.line << ":" << err.col << ": " << err.message;
  if (ok)
    dev->add_parsed_module(std::move(m));
  return dev;
}

/// The standard preamble plus a kernel `k(.param .u64 out, .param .u64 in)` with
/// registers enough for small tests; `body` is the instruction text.
inline std::string kernel2(const std::string &body, const std::string &extra_decls = "") {
  return std::string(".version 8.7\n.target sm_90a\n.address_size 64\n") + extra_decls +
         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
         ".reg .pred %p<16>;\n.reg .b16 %h<16>;\n.reg .b32 %r<64>;\n.reg .b64 %rd<64>;\n"
         ".reg .f32 %f<32>;\n.reg .f64 %fd<16>;\n"
         "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n" +
         body + "\nret;\n}\n";
}

template <class T> struct Buf {
  DeviceImpl &dev;
  T *p;
  size_t n;
  Buf(DeviceImpl &d, size_t count) : dev(d), n(count) {
    p = static_cast<T *>(dev.alloc(count * sizeof(T)));
    std::memset(p, 0, count * sizeof(T));
  }
  Buf(DeviceImpl &d, const std::vector<T> &v) : Buf(d, v.size()) { std::memcpy(p, v.data(), v.size() * sizeof(T)); }
  ~Buf() { dev.free(p); }
  T &operator[](size_t i) { return p[i]; }
};

inline int launch(DeviceImpl &dev, Dim3 grid, Dim3 block, std::vector<void *> args, size_t dsmem = 0,
                  Dim3 cluster = {1, 1, 1}, const std::string &name = "k") {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.cluster = cluster;
  c.cluster_given = cluster.x * cluster.y * cluster.z > 1;
  c.dynamic_smem = dsmem;
  return dev.launch(name, c, args.data());
}

} // namespace emu::test

namespace emu::test {

/// Runs `op` once per input pair, one thread each: the snippet reads %rd5 and
/// %rd6 (also as %r5/%r6, %f5/%f6 and %fd5/%fd6 bit copies) and leaves its
/// result in %rd7 (64-bit store of each thread's result).
inline std::vector<uint64_t> run_pairs(const std::string &op,
                                       const std::vector<std::pair<uint64_t, uint64_t>> &in,
                                       Options o = quiet_options()) {
  auto dev = device_with(kernel2(R"(
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd3, %r1, 16;
add.s64 %rd4, %rd2, %rd3;
ld.global.u64 %rd5, [%rd4];
ld.global.u64 %rd6, [%rd4+8];
cvt.u32.u64 %r5, %rd5;
cvt.u32.u64 %r6, %rd6;
mov.b32 %f5, %r5;
mov.b32 %f6, %r6;
mov.b64 %fd5, %rd5;
mov.b64 %fd6, %rd6;
mov.u64 %rd7, 0;
)" + op + R"(
mul.wide.u32 %rd8, %r1, 8;
add.s64 %rd9, %rd1, %rd8;
st.global.u64 [%rd9], %rd7;
)"),
                         o);
  std::vector<uint64_t> flat;
  for (auto &p : in)
    flat.push_back(p.first), flat.push_back(p.second);
  Buf<uint64_t> a(*dev, flat), out(*dev, in.size());
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(a.p));
  EXPECT_EQ(launch(*dev, {1, 1, 1}, {uint32_t(in.size()), 1, 1}, {&po, &pi}), 0);
  return std::vector<uint64_t>(out.p, out.p + in.size());
}

inline uint64_t fbits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float bitsf(uint64_t b) {
  uint32_t u = uint32_t(b);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

} // namespace emu::test
