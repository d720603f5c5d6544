// transport.h - exgc-lsp's message layer: bytes in, JSON-RPC messages out --//
// Owns: the framing (`Content-Length: N` headers, a blank line, N bytes of
// body) and the first look at each body (JSON, an object, a method that is
// a string, an id that is a number or a string). No sequence of bytes
// crashes, hangs or exhausts it: a body over kMaxBodyBytes is skipped
// unread, a header line over kMaxHeaderLineBytes is cut, a header block
// without a usable length is dropped, JSON nested deeper than kMaxJsonDepth
// is refused before the (recursive) parser sees it. What cannot be a
// message becomes an error reply for the client (JSON-RPC's "id": null
// error), so the stream goes on. No process, no I/O: the fuzz target
// (test/fuzz/lsp_fuzz.cpp) feeds it bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llvm/Support/JSON.h"

namespace exgc::lsp {

constexpr uint64_t kMaxBodyBytes = uint64_t(64) << 20;
constexpr size_t kMaxHeaderLineBytes = 8192;
constexpr size_t kMaxJsonDepth = 256;

/// One framed body, or what made the bytes no frame.
struct Frame {
  std::string body;
  std::string error; // non-empty: no body; why (for the reply and the log)
};

/// Splits a byte stream into frames. Bytes may arrive in any pieces.
class FrameReader {
public:
  void feed(std::string_view bytes);
  /// The end of the input: a frame cut short becomes an error frame.
  void finish();
  /// The next complete frame, if any.
  std::optional<Frame> next();

private:
  void header_line();
  void end_of_headers();
  enum class State { Headers, Body, Skip };
  State state_ = State::Headers;
  std::string line_;         // the header line being read
  bool line_cut_ = false;    // it passed kMaxHeaderLineBytes
  bool block_started_ = false, block_bad_ = false;
  std::string block_error_;
  std::optional<uint64_t> length_;
  std::string body_;
  uint64_t remaining_ = 0; // Body: bytes still to read; Skip: to drop
  std::deque<Frame> ready_;
};

/// JSON-RPC error codes (and LSP's) the server answers with.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kServerNotInitialized = -32002,
};

/// What one frame is: a message to handle, or the error reply it deserves.
/// A response from the client (no method) is neither: both are empty.
struct Incoming {
  std::optional<llvm::json::Object> message; // has a string "method"; "id" absent or valid
  std::optional<llvm::json::Value> reply;
};
Incoming decode(const Frame &frame);

/// A JSON-RPC error response.
llvm::json::Value error_reply(llvm::json::Value id, int code, const std::string &message);

/// `s` as valid UTF-8 (bad bytes replaced), as JSON strings must be.
std::string utf8(std::string s);

/// Every message and reply a whole byte stream makes, in order (the input
/// ending after its last byte).
std::vector<Incoming> read_all(std::string_view bytes);

} // namespace exgc::lsp
