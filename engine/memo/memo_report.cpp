#include "memo/memo_report.hpp"

namespace polycube {

const char* memoStateName(MemoCounter::State s) {
    switch (s) {
        case MemoCounter::State::Running: return "running";
        case MemoCounter::State::Done: return "done";
        case MemoCounter::State::Cancelled: return "cancelled";
        case MemoCounter::State::Failed: return "failed";
    }
    return "running";
}

nlohmann::json memoCountJson(const MemoCounter& setup, const MemoStats& s, const char* stateName,
                             std::optional<uint64_t> count, int threads) {
    nlohmann::json j;
    j["state"] = stateName;
    j["phase"] = setup.ready() ? "search" : "setup";
    if (count) j["solutions"] = *count;
    else j["solutions"] = nullptr;  // a count not finished has no partial figure
    j["placements"] = s.placements;
    j["attempts"] = s.attempts;
    j["pockets"] = s.pockets;
    j["seconds"] = s.setupSeconds + s.searchSeconds;
    j["setupSeconds"] = s.setupSeconds;
    j["searchSeconds"] = s.searchSeconds;
    j["redundancyFilter"] = setup.redundancyDescription();
    if (!setup.impossibleReason().empty()) j["impossible"] = setup.impossibleReason();
    j["configuration"] = "memoized count (a sweep along the longest axis)";
    j["memo"] = {{"lookups", s.lookups},
                 {"hits", s.hits},
                 {"misses", s.misses()},
                 {"entries", s.entries},
                 {"evictions", s.evictions},
                 {"tableBytes", s.tableBytes},
                 {"budgetBytes", s.maxTableBytes},
                 {"terms", setup.termsDescription()},
                 {"threads", threads},
                 {"layeredTerms", s.layeredTerms},
                 {"fallbackTerms", s.fallbackTerms},
                 {"subproblems", s.subproblems},
                 {"layerBytes", s.layerBytes}};
    if (setup.settings().picks()) {
        j["memo"]["picked"] = s.picked;  // solutions listed by --solution or --random
        // their numbers in the count's order, as decimal strings (past 2^53 for a JavaScript number)
        nlohmann::json numbers = nlohmann::json::array();
        for (uint64_t n : setup.pickedNumbers()) numbers.push_back(std::to_string(n));
        j["memo"]["numbers"] = std::move(numbers);
        if (setup.settings().randomSolutions > 0) j["memo"]["seed"] = setup.settings().seed;  // (the draw, to repeat it)
    }
    return j;
}

}  // namespace polycube
