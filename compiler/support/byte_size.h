// byte_size.h - read and write byte counts (limits on the command line) ----//
#pragma once
#include <cstdint>
#include <string>

namespace exgc {

/// Reads a byte count: digits with an optional K, M, G or T suffix (powers
/// of 1024), e.g. `4G`, `512M`, `1048576`. False on anything else or overflow.
bool parse_byte_size(const std::string &text, uint64_t &bytes);

/// `4 GiB`, `512 MiB`, `100 bytes`: the largest unit that divides exactly.
std::string byte_size_string(uint64_t bytes);

} // namespace exgc
