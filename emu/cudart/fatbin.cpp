// emu/cudart/fatbin.cpp - the PTX inside an nvcc fatbinary -------------------//
#include "emu/cudart/fatbin.h"

#include "emu/cudart/driver_args.h"

#include <cstdio>
#include <cstring>

namespace emu::cudart {
namespace {

constexpr uint64_t kFlagArchSpecific = 0x100000;
constexpr uint64_t kFlagCompressedLz4 = 0x2000;
constexpr uint64_t kFlagCompressedZstd = 0x8000;
// A fatbinary larger than this is not one (a wild pointer or a wrong magic).
constexpr uint64_t kMaxFatbinBytes = uint64_t(1) << 34;

template <typename T> T load(const unsigned char *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08X", v);
  return b;
}

std::string rebuild_hint() {
  return std::string("; rebuild it with the flags `exg-emu --nvcc-flags` prints (") + nvcc_flags() +
         ")";
}

} // namespace

const unsigned char *fatbin_of_wrapper(const void *wrapper, std::string &error) {
  auto *w = static_cast<const unsigned char *>(wrapper);
  if (!w) {
    error = "the fatbinary wrapper is null";
    return nullptr;
  }
  uint32_t magic = load<uint32_t>(w);
  if (magic != kFatbinWrapperMagic) {
    error = "the fatbinary wrapper has magic " + hex(magic) + ", not " + hex(kFatbinWrapperMagic);
    return nullptr;
  }
  // Version 2 wraps the output of nvcc's device link (-rdc=true), which holds
  // SASS only: the PTX of each unit is not kept.
  if (load<uint32_t>(w + 4) == kFatbinWrapperLinkVersion) {
    error = "the program was built with relocatable device code (-rdc=true or -dc), whose "
            "linked fatbinary holds no PTX; the emulator needs whole-program device code: "
            "build without -rdc/-dc, with the flags `exg-emu --nvcc-flags` prints (" +
            std::string(nvcc_flags()) + ")";
    return nullptr;
  }
  auto *data = load<const unsigned char *>(w + 8);
  if (!data)
    error = "the fatbinary wrapper points at no fatbinary";
  return data;
}

bool read_fatbin(const unsigned char *data, std::vector<FatbinEntry> &entries,
                 std::string &error) {
  uint32_t magic = load<uint32_t>(data);
  if (magic != kFatbinMagic) {
    error = "the fatbinary has magic " + hex(magic) + ", not " + hex(kFatbinMagic);
    return false;
  }
  uint16_t header_bytes = load<uint16_t>(data + 6);
  uint64_t body_bytes = load<uint64_t>(data + 8);
  if (header_bytes < 16 || body_bytes > kMaxFatbinBytes) {
    error = "the fatbinary header is malformed (header " + std::to_string(header_bytes) +
            " bytes, body " + std::to_string(body_bytes) + " bytes)";
    return false;
  }
  const unsigned char *p = data + header_bytes, *end = p + body_bytes;
  while (p < end) {
    if (end - p < 0x40) {
      error = "a fatbinary entry header runs past the end of the fatbinary";
      return false;
    }
    uint16_t kind = load<uint16_t>(p);
    uint32_t entry_header = load<uint32_t>(p + 4);
    uint64_t payload = load<uint64_t>(p + 8);
    uint32_t compressed_bytes = load<uint32_t>(p + 0x10);
    uint64_t flags = load<uint64_t>(p + 0x28);
    if (entry_header < 0x40 || payload > uint64_t(end - p) - entry_header) {
      error = "a fatbinary entry runs past the end of the fatbinary";
      return false;
    }
    FatbinEntry e;
    e.kind = kind == 1 ? FatbinEntry::Kind::Ptx
             : kind == 2 ? FatbinEntry::Kind::Cubin
                         : FatbinEntry::Kind::Other;
    e.arch = load<uint32_t>(p + 0x1c);
    e.arch_specific = flags & kFlagArchSpecific;
    e.compressed = compressed_bytes != 0 || (flags & (kFlagCompressedLz4 | kFlagCompressedZstd));
    if (e.kind == FatbinEntry::Kind::Ptx && !e.compressed) {
      auto *text = reinterpret_cast<const char *>(p + entry_header);
      e.ptx.assign(text, strnlen(text, payload));
    }
    entries.push_back(std::move(e));
    p += entry_header + payload;
  }
  return true;
}

bool choose_ptx(const std::vector<FatbinEntry> &entries, std::string &ptx, std::string &error) {
  const FatbinEntry *best = nullptr;
  bool compressed_ptx = false, any_ptx = false;
  for (const FatbinEntry &e : entries) {
    if (e.kind != FatbinEntry::Kind::Ptx)
      continue;
    any_ptx = true;
    if (e.compressed) {
      compressed_ptx = true;
      continue;
    }
    // An 'a' target runs only on its own arch; plain PTX runs on any later one.
    bool runs = e.arch_specific ? e.arch == 90 : e.arch <= 90;
    auto rank = [](const FatbinEntry &x) { return x.arch * 2 + (x.arch_specific ? 1 : 0); };
    if (runs && (!best || rank(e) > rank(*best)))
      best = &e;
  }
  if (best) {
    ptx = best->ptx;
    return true;
  }
  if (compressed_ptx)
    error = "the program's fatbinary holds its PTX compressed, which the emulator cannot read" +
            rebuild_hint();
  else if (any_ptx)
    error = "the program's fatbinary has no PTX an sm_90a device can run (only for later "
            "architectures)" + rebuild_hint();
  else
    error = "the program's fatbinary holds only SASS (cubin) and no PTX; the emulator runs PTX" +
            rebuild_hint();
  return false;
}

} // namespace emu::cudart
