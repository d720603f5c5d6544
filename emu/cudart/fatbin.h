// emu/cudart/fatbin.h - the PTX inside an nvcc fatbinary ---------------------//
// Owns: reading the fatbinary that nvcc's host stubs hand to
// __cudaRegisterFatBinary, and choosing the PTX the emulated H200 runs.
// Layout (little-endian; checked on nvcc 13 output, see docs/emulator.md):
//   wrapper (fatbinary_section.h): u32 magic 0x466243B1, u32 version (1; 2
//     for the device-linked code of -rdc=true, refused: it holds no PTX),
//     u64 pointer to the fatbinary, u64 pointer (unused here)
//   fatbinary header: u32 magic 0xBA55ED50, u16 version 1, u16 header size,
//     u64 bytes of entries that follow the header
//   each entry: u16 kind (1 PTX, 2 cubin), u16, u32 entry header size,
//     u64 payload bytes, u32 compressed bytes (0: stored plain), u32,
//     u16 minor, u16 major, u32 arch (90 for sm_90/sm_90a), u32 name offset,
//     u32 name bytes, u64 flags (0x100000: arch-specific 'a' target,
//     0x2000 / 0x8000: LZ4 / zstd compressed), u64, u64 uncompressed bytes;
//     the payload follows the entry header (PTX: text, NUL-padded).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace emu::cudart {

constexpr uint32_t kFatbinWrapperMagic = 0x466243B1;
constexpr uint32_t kFatbinWrapperLinkVersion = 2; ///< a device-linked (-rdc) fatbinary
constexpr uint32_t kFatbinMagic = 0xBA55ED50;

/// One entry of a fatbinary.
struct FatbinEntry {
  enum class Kind { Ptx, Cubin, Other };
  Kind kind = Kind::Other;
  uint32_t arch = 0;          ///< 90 for sm_90 and sm_90a
  bool arch_specific = false; ///< built for the 'a' target (compute_90a)
  bool compressed = false;
  std::string ptx;            ///< the PTX text (Ptx entries stored plain)
};

/// Reads the entries of the fatbinary at `data`. Returns false with `error`
/// set when the bytes are not a fatbinary (bad magic, an entry past the end).
bool read_fatbin(const unsigned char *data, std::vector<FatbinEntry> &entries,
                 std::string &error);

/// The PTX an H200 would run: the arch-specific compute_90a entry, else the
/// highest plain PTX entry of arch <= 90 (which the driver would JIT). Returns
/// false with `error` saying how to rebuild (the flags of `exg-emu
/// --nvcc-flags`) when only compressed PTX or only cubins are present.
bool choose_ptx(const std::vector<FatbinEntry> &entries, std::string &ptx, std::string &error);

/// The fatbinary a registration wrapper points at, or null with `error` set
/// (a bad magic, or a device-linked fatbinary of -rdc=true).
const unsigned char *fatbin_of_wrapper(const void *wrapper, std::string &error);

} // namespace emu::cudart
