// transport.cpp - framing and decoding of LSP messages ----------------------//
#include "tools/exgc-lsp/transport.h"

#include <algorithm>
#include <cctype>

namespace exgc::lsp {

namespace json = llvm::json;

namespace {

std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// A header value quoted in an error message: short and printable.
std::string quoted(const std::string &s) {
  std::string out;
  for (char c : s.substr(0, 40))
    out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  return "'" + out + (s.size() > 40 ? "...'" : "'");
}

/// Decimal digits only; saturates at UINT64_MAX. None for anything else.
std::optional<uint64_t> parse_length(const std::string &s) {
  if (s.empty() || s.size() > 30)
    return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return std::nullopt;
    uint64_t d = static_cast<uint64_t>(c - '0');
    v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
  }
  return v;
}

/// The deepest nesting of arrays and objects in `text` (strings skipped).
/// LLVM's JSON parser recurses once per level: deep input must not reach it.
size_t json_depth(const std::string &text) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return deepest;
}

} // namespace

std::string utf8(std::string s) { return json::isUTF8(s) ? s : json::fixUTF8(s); }

json::Value error_reply(json::Value id, int code, const std::string &message) {
  return json::Object{{"jsonrpc", "2.0"},
                      {"id", std::move(id)},
                      {"error", json::Object{{"code", code}, {"message", utf8(message)}}}};
}

void FrameReader::feed(std::string_view bytes) {
  size_t at = 0;
  while (at < bytes.size()) {
    if (state_ == State::Body || state_ == State::Skip) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(remaining_, bytes.size() - at));
      if (state_ == State::Body)
        body_.append(bytes.data() + at, n);
      at += n;
      remaining_ -= n;
      if (remaining_ == 0) {
        if (state_ == State::Body)
          ready_.push_back(Frame{std::move(body_), ""});
        body_.clear();
        state_ = State::Headers;
      }
      continue;
    }
    // Headers: up to the next newline.
    size_t nl = bytes.find('\n', at);
    size_t end = nl == std::string_view::npos ? bytes.size() : nl;
    size_t room = kMaxHeaderLineBytes - line_.size();
    if (end - at > room)
      line_cut_ = true;
    line_.append(bytes.data() + at, std::min(end - at, room));
    at = end;
    if (nl != std::string_view::npos) {
      ++at;
      header_line();
    }
  }
}

void FrameReader::header_line() {
  std::string line = std::move(line_);
  bool cut = line_cut_;
  line_.clear();
  line_cut_ = false;
  if (!line.empty() && line.back() == '\r')
    line.pop_back();
  if (line.empty() && !cut) {
    if (block_started_)
      end_of_headers();
    return; // else a stray blank line between messages
  }
  block_started_ = true;
  if (cut) {
    block_bad_ = true;
    block_error_ = "a header line longer than " + std::to_string(kMaxHeaderLineBytes) + " bytes";
    return;
  }
  size_t colon = line.find(':');
  if (colon == std::string::npos) {
    block_bad_ = true;
    block_error_ = "a header line without ':' (" + quoted(line) + ")";
    return;
  }
  if (lower(trim(line.substr(0, colon))) != "content-length")
    return; // Content-Type and anything else: not needed
  std::string value = trim(line.substr(colon + 1));
  length_ = parse_length(value);
  if (!length_) {
    block_bad_ = true;
    block_error_ = "a Content-Length that is no number (" + quoted(value) + ")";
  }
}

void FrameReader::end_of_headers() {
  std::optional<uint64_t> length = length_;
  bool bad = block_bad_;
  std::string error = std::move(block_error_);
  block_started_ = block_bad_ = false;
  block_error_.clear();
  length_.reset();
  if (!length) {
    // The body's end is unknown: what follows is read as headers again, and
    // finds the next frame at its Content-Length.
    ready_.push_back(Frame{"", bad ? error : "a header without Content-Length"});
    return;
  }
  if (*length > kMaxBodyBytes) {
    ready_.push_back(Frame{"", "a message of " + std::to_string(*length) +
                                   " bytes, over the limit of " +
                                   std::to_string(kMaxBodyBytes) + " (skipped)"});
    state_ = State::Skip;
    remaining_ = *length;
    return;
  }
  if (bad)
    ready_.push_back(Frame{"", error + " (its body skipped)"});
  state_ = bad ? State::Skip : State::Body;
  remaining_ = *length;
  if (remaining_ == 0) {
    if (!bad)
      ready_.push_back(Frame{"", ""});
    state_ = State::Headers;
  }
}

void FrameReader::finish() {
  if (state_ == State::Body)
    ready_.push_back(Frame{"", "the input ended inside a message body"});
  else if (state_ == State::Headers && (block_started_ || !line_.empty()))
    ready_.push_back(Frame{"", "the input ended inside a message header"});
  state_ = State::Headers;
  remaining_ = 0;
  body_.clear();
  line_.clear();
  line_cut_ = block_started_ = block_bad_ = false;
  length_.reset();
}

std::optional<Frame> FrameReader::next() {
  if (ready_.empty())
    return std::nullopt;
  Frame f = std::move(ready_.front());
  ready_.pop_front();
  return f;
}

Incoming decode(const Frame &frame) {
  Incoming in;
  if (!frame.error.empty()) {
    in.reply = error_reply(nullptr, kInvalidRequest, frame.error);
    return in;
  }
  if (json_depth(frame.body) > kMaxJsonDepth) {
    in.reply = error_reply(nullptr, kParseError,
                           "JSON nested deeper than " + std::to_string(kMaxJsonDepth));
    return in;
  }
  llvm::Expected<json::Value> value = json::parse(frame.body);
  if (!value) {
    in.reply = error_reply(nullptr, kParseError, "parse error: " + toString(value.takeError()));
    return in;
  }
  json::Object *obj = value->getAsObject();
  if (!obj) {
    in.reply = error_reply(nullptr, kInvalidRequest, "a message must be a JSON object");
    return in;
  }
  const json::Value *id = obj->get("id");
  bool id_ok = !id || id->getAsInteger() || id->getAsString() || id->kind() == json::Value::Null;
  const json::Value *method = obj->get("method");
  if (!method) {
    // A response to a request of ours (exgc-lsp sends none) or junk: nothing to answer.
    return in;
  }
  if (!id_ok || !method->getAsString()) {
    in.reply = error_reply(id_ok && id ? *id : json::Value(nullptr), kInvalidRequest,
                           !id_ok ? "an id must be a number or a string"
                                  : "a method must be a string");
    return in;
  }
  in.message = std::move(*obj);
  return in;
}

std::vector<Incoming> read_all(std::string_view bytes) {
  FrameReader reader;
  reader.feed(bytes);
  reader.finish();
  std::vector<Incoming> out;
  while (std::optional<Frame> f = reader.next())
    out.push_back(decode(*f));
  return out;
}

} // namespace exgc::lsp
