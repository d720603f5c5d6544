// big_stack.cpp - run a function on a thread with a large stack -------------//
#include "compiler/support/big_stack.h"

#include <pthread.h>

namespace exgc {

namespace {
void *trampoline(void *arg) {
  (*static_cast<const std::function<void()> *>(arg))();
  return nullptr;
}
} // namespace

void run_on_big_stack(const std::function<void()> &fn, size_t stack_bytes) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t thread;
  void *arg = const_cast<std::function<void()> *>(&fn);
  if (pthread_create(&thread, &attr, trampoline, arg) != 0)
    fn();
  else
    pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

} // namespace exgc
