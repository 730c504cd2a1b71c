// The engine's rules as data for the front ends, so that none keeps a copy of them:
//
//   engineRulesJson()            the option language (every option with its help, value, range,
//                                scope, what it does to splitting and why it cannot be given
//                                alone, if it cannot), the definition parser's
//                                limits, the trace record's ops and filters, Session's step
//                                states. tools/engine_rules.cpp writes it into
//                                web/src/generated/engine-rules.js for the page.
//   searchOptionsJson(text)      a search's option text read by the engine's parser under the
//                                Session's rules (Session::start says the same):
//     {"ok":true,"options":{...},"given":[{"name":"fila","value":"12"},...],"splitRefusal":""}
//     {"ok":false,"error":"-f needs a whole number from 1 to 1000000, got 'x'"}
//
// The options object holds every SolverOptions field the Session takes, by the long option
// names' meaning: redundancy ("off" | "auto" | "named"), redundancyPiece, unique, mirror,
// order (null: none), fila/bruijn/mch/emch/volumeBacktrack (null: off), nof,
// parityBacktrack, parityFilter/volumeFilter/fitFilter (null: off, "once", or N), trace
// (0: off), monteCarlo (null or {"trials","range","seed"}), limit (null or a decimal string:
// 64-bit), info, quiet, json, threads (0: default), automatic (no algorithm option given).
#pragma once
#include <string>

namespace polycube {

std::string engineRulesJson();
std::string searchOptionsJson(const std::string& text);

}  // namespace polycube
