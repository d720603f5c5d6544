// lsp_fuzz.cpp - libFuzzer target: exgc-lsp's message layer -----------------//
//
// The bytes are what a client writes to exgc-lsp's standard input. They go
// to the FrameReader in pieces (the first byte sets their size, as reads of
// a pipe cut a stream anywhere), each frame is decoded, and each message is
// handled by a Server that keeps documents but checks none (the front end
// has its own targets). A finding is a crash, a sanitizer report, a hang, or
// a frame that is neither a message nor an error reply with a code.
#include "test/fuzz/fuzz_support.h"
#include "tools/exgc-lsp/server.h"
#include "tools/exgc-lsp/transport.h"

#include <string>
#include <string_view>

namespace {

void handle(exgc::lsp::FrameReader &reader, exgc::lsp::Server &server, bool &done) {
  while (std::optional<exgc::lsp::Frame> frame = reader.next()) {
    exgc::lsp::Incoming in = exgc::lsp::decode(*frame);
    if (in.reply) {
      const llvm::json::Object *obj = in.reply->getAsObject();
      const llvm::json::Object *error = obj ? obj->getObject("error") : nullptr;
      if (!error || !error->getInteger("code"))
        exgc::fuzz::finding("an error reply without a code");
    }
    if (!frame->error.empty() && !in.reply)
      exgc::fuzz::finding("a bad frame without a reply: " + frame->error);
    if (in.message && !done && !server.handle(*in.message))
      done = true;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  size_t piece = 1 + data[0] % 64;
  std::string_view bytes(reinterpret_cast<const char *>(data) + 1, size - 1);
  exgc::lsp::ServerOptions opts;
  opts.check_documents = false;
  size_t sent = 0;
  exgc::lsp::Server server(opts, [&](const llvm::json::Value &v) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << v; // every reply must serialize
    sent += os.str().size();
  });
  exgc::lsp::FrameReader reader;
  bool done = false;
  for (size_t at = 0; at < bytes.size(); at += piece) {
    reader.feed(bytes.substr(at, piece));
    handle(reader, server, done);
  }
  reader.finish();
  handle(reader, server, done);
  // The same bytes in one piece make the same frames (read_all's answer).
  (void)exgc::lsp::read_all(bytes);
  return 0;
}
