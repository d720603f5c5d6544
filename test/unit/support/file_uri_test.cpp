// file_uri_test.cpp - file names as URIs and back (SARIF, exgc-lsp).
#include "compiler/support/file_uri.h"

#include <gtest/gtest.h>

namespace exgc {
namespace {

TEST(FileUri, AbsolutePathsBecomeFileUris) {
  EXPECT_EQ(file_uri("/work/k.exg"), "file:///work/k.exg");
  EXPECT_EQ(file_uri("/a b/k#1.exg"), "file:///a%20b/k%231.exg");
}

TEST(FileUri, RelativePathsStayRelative) {
  EXPECT_EQ(file_uri("kernels/gemm_v2.exg"), "kernels/gemm_v2.exg");
  EXPECT_EQ(file_uri("x:y.exg"), "x%3Ay.exg"); // never read as a scheme
}

TEST(FileUri, DecodesWhatItEncodes) {
  for (const char *path : {"/work/k.exg", "/a b/%c/d\xC3\xA9.exg", "/x+y/z~w.exg"})
    EXPECT_EQ(file_uri_to_path(file_uri(path)), path);
  EXPECT_EQ(file_uri_to_path("file:///a%2"), "/a%2"); // a cut escape stays as written
  EXPECT_EQ(file_uri_to_path("https://example.org/k.exg"), "");
}

} // namespace
} // namespace exgc
