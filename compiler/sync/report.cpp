// report.cpp - hazard names, comparison and clang-style rendering ---------//
#include "compiler/sync/report.h"

#include <sstream>

namespace exgc::sync {

const char *hazard_kind_name(HazardKind k) {
  switch (k) {
  case HazardKind::ReadAfterWrite: return "read-after-write";
  case HazardKind::WriteAfterRead: return "write-after-read";
  case HazardKind::WriteAfterWrite: return "write-after-write";
  case HazardKind::UseBeforeAlloc: return "use before allocation";
  case HazardKind::UseAfterFree: return "use after free";
  case HazardKind::FreeWithoutSync: return "free without sync";
  case HazardKind::FreeWithoutArrive: return "free without arrive";
  case HazardKind::ArrivedTwice: return "barrier arrived twice";
  case HazardKind::AwaitedTwice: return "barrier awaited twice";
  case HazardKind::NoForwardProgress: return "no forward progress";
  case HazardKind::OutOfBounds: return "out of bounds";
  case HazardKind::InvalidProgram: return "invalid sync program";
  case HazardKind::ResourceLimit: return "resource limit";
  }
  return "?";
}

const char *hazard_kind_tag(HazardKind k) {
  switch (k) {
  case HazardKind::ReadAfterWrite: return "ReadAfterWrite";
  case HazardKind::WriteAfterRead: return "WriteAfterRead";
  case HazardKind::WriteAfterWrite: return "WriteAfterWrite";
  case HazardKind::UseBeforeAlloc: return "UseBeforeAlloc";
  case HazardKind::UseAfterFree: return "UseAfterFree";
  case HazardKind::FreeWithoutSync: return "FreeWithoutSync";
  case HazardKind::FreeWithoutArrive: return "FreeWithoutArrive";
  case HazardKind::ArrivedTwice: return "ArrivedTwice";
  case HazardKind::AwaitedTwice: return "AwaitedTwice";
  case HazardKind::NoForwardProgress: return "NoForwardProgress";
  case HazardKind::OutOfBounds: return "OutOfBounds";
  case HazardKind::InvalidProgram: return "InvalidProgram";
  case HazardKind::ResourceLimit: return "ResourceLimit";
  }
  return "?";
}

bool Hazard::same_as(const Hazard &o) const {
  return kind == o.kind && seq == o.seq && stmt == o.stmt && tensor_id == o.tensor_id &&
         linear == o.linear && has_prior == o.has_prior &&
         (!has_prior || (prior.seq == o.prior.seq && prior_thread == o.prior_thread &&
                         missing_threads == o.missing_threads && need_flag == o.need_flag &&
                         need_quals == o.need_quals));
}

namespace {
std::string element_string(const Hazard &h) {
  std::string s = h.tensor + "[";
  for (size_t i = 0; i < h.element.size(); ++i)
    s += (i ? ", " : "") + std::to_string(h.element[i]);
  return s + "]";
}

std::string where(const Stmt *s, const std::string &fallback) {
  if (s && s->loc.known())
    return s->loc.str();
  if (s && s->text_loc.known())
    return s->text_loc.str();
  return fallback + ":0:0";
}

std::string threads_string(const ThreadSetP &t) { return t ? t->str() : "{}"; }
} // namespace

std::string Hazard::summary() const {
  std::ostringstream os;
  os << hazard_kind_tag(kind) << " seq=" << seq;
  if (!tensor.empty())
    os << " @ " << element_string(*this);
  if (has_prior) {
    os << " prior_seq=" << prior.seq;
    if (prior_thread >= 0)
      os << " prior_thread=" << prior_thread;
    os << " missing=" << missing_threads.str() << " need=" << flag_name(need_flag)
       << qual_set_string(need_quals);
  }
  if (!message.empty())
    os << " (" << message << ")";
  return os.str();
}

std::string format_hazard(const Hazard &h, const std::string &fallback_file) {
  std::ostringstream os;
  os << where(h.stmt, fallback_file) << ": error: " << hazard_kind_name(h.kind);
  if (!h.tensor.empty())
    os << " on '" << element_string(h) << "'";
  if (!h.message.empty())
    os << ": " << h.message;
  os << " [" << hazard_kind_tag(h.kind) << "]\n";
  if (h.threads)
    os << where(h.stmt, fallback_file) << ": note: executed by threads "
       << threads_string(h.threads) << "\n";
  if (h.has_prior) {
    os << where(h.prior.stmt, fallback_file) << ": note: ";
    bool alloc = h.kind == HazardKind::UseBeforeAlloc;
    os << (alloc ? "slot allocated here" : "conflicting access here");
    if (h.prior_thread >= 0)
      os << ", by thread " << h.prior_thread << " of " << threads_string(h.prior.threads);
    else
      os << ", by threads " << threads_string(h.prior.threads);
    os << "\n";
    bool free_kind = h.kind == HazardKind::FreeWithoutArrive;
    if (free_kind) {
      os << where(h.stmt, fallback_file)
         << ": note: no Arrive on the barrier that frees this slot saw that access\n";
    } else if (!alloc) {
      os << where(h.stmt, fallback_file) << ": note: threads " << h.missing_threads.str()
         << " need " << flag_name(h.need_flag) << " visibility on one of "
         << qual_set_string(h.need_quals) << "; a Fence or Await with first sync-tl covering "
         << qual_set_string(h.prior_quals) << " and second sync-tl covering "
         << (h.need_flag == Temp ? "(at least temporally) " : "")
         << qual_set_string(h.need_quals) << " is missing\n";
    } else {
      os << where(h.stmt, fallback_file)
         << ": note: the slot is allocated only after an Await on its ring barrier\n";
    }
  }
  if (!h.iters.empty()) {
    os << where(h.stmt, fallback_file) << ": note: at";
    for (size_t i = 0; i < h.iters.size(); ++i)
      os << (i ? ", " : " ") << h.iters[i].first << " = " << h.iters[i].second;
    os << "\n";
  }
  for (const std::string &n : h.notes)
    os << where(h.stmt, fallback_file) << ": note: " << n << "\n";
  return os.str();
}

} // namespace exgc::sync
