// install_paths.h - where the stdlib and runtime headers are ---------------//
// Owns: the data folders exgc uses without flags. An installed exgc (or one
// unpacked from the .deb into any root) finds them next to its executable:
// <prefix>/bin/exgc -> <prefix>/share/exgc/stdlib and <prefix>/include/exgc
// (the folders of the top CMakeLists.txt, EXGC_INSTALL_*).
// A build-tree exgc has no such folders beside it and uses the source tree it
// was built from, so the layout decides, not a flag or an environment variable.
#pragma once
#include <string>

namespace exgc {

/// The stdlib folder `import cuda` searches last.
std::string default_stdlib_dir();
/// The folder that holds `exg/runtime.h` (for `nvcc -I`).
std::string runtime_include_dir();

} // namespace exgc
