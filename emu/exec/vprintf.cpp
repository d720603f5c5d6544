// emu/exec/vprintf.cpp - the text of a device printf ------------------------//
// nvcc turns printf(fmt, ...) into vprintf(fmt, buf): `fmt` is the generic
// address of the format string (in global or const memory) and `buf` of a
// buffer in the thread's local memory holding the arguments after C's
// default promotions, each at an offset aligned to its size: 4 bytes for
// char, short and int (and %c), 8 for long, long long, pointers, %s strings
// and double (float promotes to double). Conversions: d i u x X o c s f F e
// E g G a A p and %%, with flags, width and precision (also `*`, taken from
// the buffer as a 4-byte int) and the length modifiers hh h l ll j z t.
// Each is printed by the host's snprintf with the same specification.
#include "emu/exec/ops.h"

#include <cstdio>
#include <cstring>

namespace emu::exec {

namespace {

constexpr size_t kMaxString = 1 << 16;

std::string read_string(Exec &x, int lane, uint64_t a) {
  std::string s;
  for (; s.size() < kMaxString; ++a) {
    char ch = char(*mem_ptr(x, ptx::Space::Generic, a, 1, lane, false));
    if (!ch)
      return s;
    s += ch;
  }
  fail(x, lane, Hazard::BadProgram, "printf: a string of more than 64 KiB without its terminating NUL");
}

struct Args {
  Exec &x;
  int lane;
  uint64_t at;
  int used = 0;
  uint64_t take(uint32_t bytes) {
    at = (at + bytes - 1) / bytes * bytes;
    uint64_t v = 0;
    std::memcpy(&v, mem_ptr(x, ptx::Space::Generic, at, bytes, lane, false), bytes);
    at += bytes;
    used++;
    return v;
  }
};

template <class T> std::string print(const std::string &spec, T v) {
  int n = std::snprintf(nullptr, 0, spec.c_str(), v);
  std::string out(size_t(n > 0 ? n : 0), '\0');
  std::snprintf(out.data(), out.size() + 1, spec.c_str(), v);
  return out;
}

} // namespace

std::string format_vprintf(Exec &x, int lane, uint64_t fmt_addr, uint64_t args, int &nargs) {
  if (!fmt_addr) {
    nargs = -1;
    return "";
  }
  const std::string fmt = read_string(x, lane, fmt_addr);
  Args a{x, lane, args};
  std::string out;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    size_t start = i++;
    if (i < fmt.size() && fmt[i] == '%') {
      out += '%';
      continue;
    }
    std::string spec = "%";
    while (i < fmt.size() && std::strchr("-+ #0", fmt[i]))
      spec += fmt[i++];
    auto number = [&]() {
      if (i < fmt.size() && fmt[i] == '*') {
        ++i;
        spec += std::to_string(int32_t(a.take(4)));
        return;
      }
      while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9')
        spec += fmt[i++];
    };
    number();
    if (i < fmt.size() && fmt[i] == '.') {
      spec += fmt[i++];
      number();
    }
    std::string len;
    while (i < fmt.size() && std::strchr("hljztL", fmt[i]))
      len += fmt[i++];
    if (i >= fmt.size()) { // a lone '%' at the end: printed as written
      out += fmt.substr(start);
      break;
    }
    const char conv = fmt[i];
    const bool wide = len == "l" || len == "ll" || len == "j" || len == "z" || len == "t";
    switch (conv) {
    case 'd':
    case 'i': {
      int64_t v = wide ? int64_t(a.take(8)) : int64_t(int32_t(a.take(4)));
      if (len == "h")
        v = int16_t(v);
      else if (len == "hh")
        v = int8_t(v);
      out += print(spec + "ll" + conv, (long long)v);
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      uint64_t v = wide ? a.take(8) : uint64_t(uint32_t(a.take(4)));
      if (len == "h")
        v = uint16_t(v);
      else if (len == "hh")
        v = uint8_t(v);
      out += print(spec + "ll" + conv, (unsigned long long)v);
      break;
    }
    case 'c': out += print(spec + "c", int(int32_t(a.take(4)))); break;
    case 's': {
      uint64_t p = a.take(8);
      std::string s = p ? read_string(x, lane, p) : "(null)";
      out += print(spec + "s", s.c_str());
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      uint64_t bits = a.take(8);
      double v;
      std::memcpy(&v, &bits, 8);
      out += print(spec + conv, v);
      break;
    }
    case 'p': out += print(spec + "p", reinterpret_cast<void *>(uintptr_t(a.take(8)))); break;
    default: // not a conversion printf knows: printed as written
      out += fmt.substr(start, i + 1 - start);
      break;
    }
  }
  nargs = a.used;
  return out;
}

} // namespace emu::exec
