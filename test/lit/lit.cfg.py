# lit configuration for exgc's file tests. Substitutions:
#   %exgc       the compiler (diagnostics carry their [Kind] tag in tests)
#   %exg-sync   the sync-program checker
#   %nvcc       nvcc with the sm_90a flags and exgc's runtime include dir (REQUIRES: nvcc)
#   %cxx        the host C++ compiler
#   %stdlib     the stdlib folder
#   %expect-exit N CMD   succeeds when CMD exits with code N
#   %cpu-seconds-under S N CMD   succeeds when CMD exits with N within S CPU seconds
import os
import lit.formats

config.name = "exgc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".exg", ".sync", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "expect_exit.py",
                   "cpu_seconds_under.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.exgc_bin_dir), "test", "lit-out")

config.environment["PATH"] = os.pathsep.join(
    [config.exgc_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

exgc = os.path.join(config.exgc_bin_dir, "exgc")
config.substitutions.append(("%exgc", exgc + " --show-diag-kind"))
config.substitutions.append(("%exg-sync", os.path.join(config.exgc_bin_dir, "exg-sync")))
config.substitutions.append(("%stdlib", os.path.join(config.exgc_src_root, "stdlib")))
config.substitutions.append(("%cxx", config.cxx))
config.substitutions.append(
    ("%expect-exit", "python3 " + os.path.join(config.exgc_src_root, "test", "lit", "expect_exit.py")))
config.substitutions.append(
    ("%cpu-seconds-under",
     "python3 " + os.path.join(config.exgc_src_root, "test", "lit", "cpu_seconds_under.py")))
include_dir = os.path.join(config.exgc_src_root, "runtime", "include")
if config.have_nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(
        ("%nvcc", config.nvcc + " -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I" + include_dir))
