// budget.cpp - reading --script-budget=NAME=N --------------------------------//
#include "compiler/schedule/budget.h"

#include <cctype>

namespace exgc::schedule {

bool ScriptBudget::set(const std::string &spec, std::string &error) {
  size_t eq = spec.find('=');
  std::string name = spec.substr(0, eq);
  int64_t *slot = name == "steps"     ? &steps
                  : name == "values"  ? &values
                  : name == "stmts"   ? &stmts
                  : name == "history" ? &history
                                      : nullptr;
  if (!slot || eq == std::string::npos) {
    error = "'" + spec + "' is not NAME=N with NAME one of steps, values, stmts, history";
    return false;
  }
  std::string digits = spec.substr(eq + 1);
  int64_t n = 0;
  bool ok = !digits.empty() && digits.size() <= 18;
  for (char c : digits)
    ok = ok && std::isdigit(static_cast<unsigned char>(c));
  if (ok)
    n = std::stoll(digits);
  if (!ok || n < 1) {
    error = "budget '" + name + "' needs a whole number from 1 to 10^18, not '" + digits + "'";
    return false;
  }
  *slot = n;
  return true;
}

} // namespace exgc::schedule
