// Tests of the `exg-emu` command line (emu/cudart/driver_args.h).
#include "emu/cudart/driver_args.h"

#include <gtest/gtest.h>

using namespace emu::cudart;
using Action = DriverArgs::Action;

TEST(DriverArgs, OptionsBecomeEnvironmentAndTheRestIsTheProgram) {
  DriverArgs a = parse_driver_args({"--seed", "7", "--no-adversary", "--misalign-dynamic-smem",
                                    "--trace", "--max-instructions", "1000", "--quantum", "3",
                                    "--", "./prog", "--seed", "x"});
  ASSERT_EQ(a.action, Action::Run) << a.error;
  std::vector<std::pair<std::string, std::string>> env = {
      {"EXG_EMU_SEED", "7"},           {"EXG_EMU_ADVERSARIAL", "0"},
      {"EXG_EMU_MISALIGN_DSMEM", "1"}, {"EXG_EMU_TRACE", "1"},
      {"EXG_EMU_MAX_INSTRUCTIONS", "1000"}, {"EXG_EMU_QUANTUM", "3"}};
  EXPECT_EQ(a.env, env);
  std::vector<std::string> program = {"./prog", "--seed", "x"};
  EXPECT_EQ(a.program, program) << "options after the program are the program's";
}

TEST(DriverArgs, ProgramWithoutDashDash) {
  DriverArgs a = parse_driver_args({"./prog", "a"});
  ASSERT_EQ(a.action, Action::Run);
  EXPECT_EQ(a.program.size(), 2u);
  EXPECT_TRUE(a.env.empty());
}

TEST(DriverArgs, Queries) {
  EXPECT_EQ(parse_driver_args({"--nvcc-flags"}).action, Action::PrintNvccFlags);
  EXPECT_EQ(parse_driver_args({"--help"}).action, Action::Help);
  EXPECT_EQ(parse_driver_args({"--version"}).action, Action::Version);
}

TEST(DriverArgs, Refusals) {
  DriverArgs a = parse_driver_args({});
  EXPECT_EQ(a.action, Action::Error);
  EXPECT_NE(a.error.find("no program"), std::string::npos) << a.error;
  a = parse_driver_args({"--seed"});
  EXPECT_EQ(a.action, Action::Error);
  EXPECT_NE(a.error.find("'--seed' needs a number"), std::string::npos) << a.error;
  a = parse_driver_args({"--seed", "-3", "./p"});
  EXPECT_EQ(a.action, Action::Error);
  a = parse_driver_args({"--seed", "12x", "./p"});
  EXPECT_EQ(a.action, Action::Error);
  a = parse_driver_args({"--bogus", "./p"});
  EXPECT_EQ(a.action, Action::Error);
  EXPECT_NE(a.error.find("unknown option '--bogus'"), std::string::npos) << a.error;
  a = parse_driver_args({"--"});
  EXPECT_EQ(a.action, Action::Error);
}

TEST(DriverArgs, NvccFlagsKeepPlainSm90aPtx) {
  std::string flags = nvcc_flags();
  EXPECT_NE(flags.find("-cudart shared"), std::string::npos);
  EXPECT_NE(flags.find("-gencode arch=compute_90a,code=compute_90a"), std::string::npos);
  EXPECT_NE(flags.find("-no-compress"), std::string::npos);
  EXPECT_NE(flags.find("-lineinfo"), std::string::npos);
}

TEST(DriverArgs, AllowNamesDetectors) {
  DriverArgs a = parse_driver_args({"--allow=async-proxy,shfl-mask", "--allow", "wgmma-fence", "./p"});
  ASSERT_EQ(a.action, Action::Run) << a.error;
  std::vector<std::pair<std::string, std::string>> env = {{"EXG_EMU_ALLOW", "async-proxy,shfl-mask,wgmma-fence"}};
  EXPECT_EQ(a.env, env);
  for (const char *kind : {"async-proxy", "wgmma-fence", "wgmma-registers", "aliased-phase", "shfl-mask",
                           "mbarrier-init-release", "exited-cta"}) {
    EXPECT_EQ(parse_driver_args({std::string("--allow=") + kind, "./p"}).action, Action::Run) << kind;
    EXPECT_NE(std::string(driver_usage()).find(kind), std::string::npos) << kind;
  }
  EXPECT_NE(std::string(driver_usage()).find("--allow=KIND[,KIND...]"), std::string::npos);
  a = parse_driver_args({"--allow=async-proxy,races", "./p"});
  EXPECT_EQ(a.action, Action::Error);
  EXPECT_NE(a.error.find("'races' is not a detector (known: async-proxy, wgmma-fence"), std::string::npos) << a.error;
  a = parse_driver_args({"--allow=", "./p"});
  EXPECT_EQ(a.action, Action::Error);
  a = parse_driver_args({"--allow"});
  EXPECT_EQ(a.action, Action::Error);
  EXPECT_NE(a.error.find("'--allow' needs a detector name"), std::string::npos) << a.error;
}

TEST(DriverArgs, ProfileNamesAFile) {
  DriverArgs a = parse_driver_args({"--profile", "p.json", "./prog"});
  ASSERT_EQ(a.action, Action::Run) << a.error;
  std::vector<std::pair<std::string, std::string>> env = {{"EXG_EMU_PROFILE", "p.json"}};
  EXPECT_EQ(a.env, env);
  a = parse_driver_args({"--profile=q.json", "./prog"});
  ASSERT_EQ(a.action, Action::Run) << a.error;
  EXPECT_EQ(a.env[0].second, "q.json");
  a = parse_driver_args({"--profile="});
  EXPECT_EQ(a.action, Action::Error);
  EXPECT_NE(a.error.find("'--profile' needs a file name"), std::string::npos) << a.error;
  a = parse_driver_args({"--profile"});
  EXPECT_EQ(a.action, Action::Error);
}
