// Tests of emu/cudart/fatbin.h on fatbinaries nvcc 13 made from data/tiny.cu
// (the commands are at the top of that file).
#include "emu/cudart/fatbin.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace emu::cudart;

namespace {

// The file's bytes, 8-byte aligned as a linked .nv_fatbin section is.
std::vector<uint64_t> load(const std::string &name) {
  std::ifstream in(std::string(EXGC_SOURCE_DIR) + "/test/unit/emu_cudart/data/" + name,
                   std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_FALSE(bytes.empty()) << name;
  std::vector<uint64_t> words((bytes.size() + 7) / 8);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

const unsigned char *bytes(const std::vector<uint64_t> &w) {
  return reinterpret_cast<const unsigned char *>(w.data());
}

std::vector<FatbinEntry> entries_of(const std::string &name) {
  std::vector<uint64_t> data = load(name);
  std::vector<FatbinEntry> entries;
  std::string error;
  EXPECT_TRUE(read_fatbin(bytes(data), entries, error)) << error;
  return entries;
}

} // namespace

TEST(Fatbin, PlainPtxEntry) {
  std::vector<FatbinEntry> e = entries_of("tiny_ptx.fatbin");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].kind, FatbinEntry::Kind::Ptx);
  EXPECT_EQ(e[0].arch, 90u);
  EXPECT_TRUE(e[0].arch_specific);
  EXPECT_FALSE(e[0].compressed);
  EXPECT_NE(e[0].ptx.find(".target sm_90a"), std::string::npos);
  EXPECT_NE(e[0].ptx.find(".entry _Z3addPfi"), std::string::npos);
  EXPECT_NE(e[0].ptx.find(".file"), std::string::npos) << "-lineinfo keeps .file/.loc";
  EXPECT_EQ(e[0].ptx.find('\0'), std::string::npos) << "the NUL padding is cut off";
  std::string ptx, error;
  ASSERT_TRUE(choose_ptx(e, ptx, error)) << error;
  EXPECT_EQ(ptx, e[0].ptx);
}

TEST(Fatbin, PicksTheSm90aPtxAmongCubinAndOlderPtx) {
  std::vector<FatbinEntry> e = entries_of("tiny_multi.fatbin");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].kind, FatbinEntry::Kind::Cubin);
  EXPECT_EQ(e[2].arch, 80u);
  EXPECT_FALSE(e[2].arch_specific);
  std::string ptx, error;
  ASSERT_TRUE(choose_ptx(e, ptx, error)) << error;
  EXPECT_NE(ptx.find(".target sm_90a"), std::string::npos);
}

TEST(Fatbin, OlderPlainPtxIsAcceptedAsTheDriverWouldJitIt) {
  std::vector<FatbinEntry> e = entries_of("tiny_multi.fatbin");
  e.erase(e.begin(), e.begin() + 2); // keep only the compute_80 PTX
  std::string ptx, error;
  ASSERT_TRUE(choose_ptx(e, ptx, error)) << error;
  EXPECT_NE(ptx.find(".target sm_80"), std::string::npos);
}

TEST(Fatbin, CompressedPtxIsRefusedWithTheFlags) {
  std::vector<FatbinEntry> e = entries_of("tiny_compressed.fatbin");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(e[0].compressed);
  EXPECT_TRUE(e[0].ptx.empty());
  std::string ptx, error;
  EXPECT_FALSE(choose_ptx(e, ptx, error));
  EXPECT_NE(error.find("compressed"), std::string::npos) << error;
  EXPECT_NE(error.find("exg-emu --nvcc-flags"), std::string::npos) << error;
  EXPECT_NE(error.find("-no-compress"), std::string::npos) << error;
}

TEST(Fatbin, SassOnlyIsRefusedWithTheFlags) {
  std::vector<FatbinEntry> e = entries_of("tiny_sass.fatbin");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].kind, FatbinEntry::Kind::Cubin);
  std::string ptx, error;
  EXPECT_FALSE(choose_ptx(e, ptx, error));
  EXPECT_NE(error.find("only SASS"), std::string::npos) << error;
  EXPECT_NE(error.find("compute_90a,code=compute_90a"), std::string::npos) << error;
}

TEST(Fatbin, PtxOnlyForALaterArchIsRefused) {
  FatbinEntry later;
  later.kind = FatbinEntry::Kind::Ptx;
  later.arch = 100;
  later.ptx = ".version 9.0\n.target sm_100\n";
  std::string ptx, error;
  EXPECT_FALSE(choose_ptx({later}, ptx, error));
  EXPECT_NE(error.find("later architectures"), std::string::npos) << error;
}

TEST(Fatbin, BadMagicAndTruncatedEntriesAreErrors) {
  std::vector<uint64_t> data = load("tiny_ptx.fatbin");
  std::vector<FatbinEntry> entries;
  std::string error;
  std::vector<uint64_t> bad = data;
  bad[0] ^= 1;
  EXPECT_FALSE(read_fatbin(bytes(bad), entries, error));
  EXPECT_NE(error.find("0xBA55ED50"), std::string::npos) << error;
  // An entry that claims more payload than the fatbinary holds.
  std::vector<uint64_t> truncated = data;
  truncated[3] += 4096; // the first entry's payload size (bytes 24..31)
  EXPECT_FALSE(read_fatbin(bytes(truncated), entries, error));
  EXPECT_NE(error.find("past the end"), std::string::npos) << error;
}

TEST(Fatbin, WrapperGivesTheFatbinary) {
  std::vector<uint64_t> data = load("tiny_ptx.fatbin");
  struct {
    uint32_t magic, version;
    const void *data, *unused;
  } wrapper{kFatbinWrapperMagic, 1, data.data(), nullptr};
  std::string error;
  EXPECT_EQ(fatbin_of_wrapper(&wrapper, error), bytes(data));
  wrapper.magic = 0x12345678;
  EXPECT_EQ(fatbin_of_wrapper(&wrapper, error), nullptr);
  EXPECT_NE(error.find("0x466243B1"), std::string::npos) << error;
}

TEST(Fatbin, DeviceLinkedWrapperIsRefused) {
  // nvcc -rdc=true registers the device link's output (wrapper version 2): SASS only.
  std::vector<uint64_t> data = load("tiny_sass.fatbin");
  struct {
    uint32_t magic, version;
    const void *data, *prelinked;
  } wrapper{kFatbinWrapperMagic, kFatbinWrapperLinkVersion, data.data(), nullptr};
  std::string error;
  EXPECT_EQ(fatbin_of_wrapper(&wrapper, error), nullptr);
  EXPECT_NE(error.find("-rdc"), std::string::npos) << error;
}
