// big_stack.h - run a function on a thread with a large stack ---------------//
//
// Deeply nested input (long operator chains, nested blocks) recurses deeply
// in every tree walk. Whoever runs the whole pipeline (the driver, the fuzz
// targets) runs it here, so that depth is a non-event instead of a crash;
// the parser separately bounds bracket nesting.
#pragma once

#include <cstddef>
#include <functional>

namespace exgc {

/// The driver's stack: 1 GiB (address space only; pages are touched on use).
constexpr size_t kBigStackBytes = size_t(1) << 30;

/// Runs `fn` to completion on a new thread with a `stack_bytes` stack, or on
/// the calling thread when no such thread can be made.
void run_on_big_stack(const std::function<void()> &fn, size_t stack_bytes = kBigStackBytes);

} // namespace exgc
