// did_you_mean_test.cpp - edit distance and the suggestion it picks --------//
#include "compiler/support/did_you_mean.h"

#include <gtest/gtest.h>

using namespace exgc;

TEST(DidYouMean, EditDistance) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("divde_loop", "divide_loop"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(DidYouMean, ClosestWithinAThird) {
  EXPECT_EQ(did_you_mean("divde_loop", {"divide_dim", "divide_loop"}), "; did you mean 'divide_loop'?");
  EXPECT_EQ(did_you_mean("frobnicate", {"divide_loop", "rename"}), "");
  // Of equal distances, the one with the same first letter; never the name itself.
  EXPECT_EQ(did_you_mean("j", {"i", "jj"}), "; did you mean 'jj'?");
  EXPECT_EQ(did_you_mean("i", {"i"}), "");
}

TEST(DidYouMean, IgnoresCaseAndWritesThePrefix) {
  EXPECT_EQ(edit_distance("Divide_Loop", "divide_loop"), 0u);
  // A warning kind typed as on the command line (-Wno-sync-not-verifed).
  EXPECT_EQ(did_you_mean("sync-not-verifed", {"NothingToCompile", "SyncNotVerified"}, "-Wno-"),
            "; did you mean '-Wno-SyncNotVerified'?");
}
