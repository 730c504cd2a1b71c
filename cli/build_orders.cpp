#include "build_orders.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "assembly/build_order.hpp"
#include "output/format.hpp"

namespace polycube {

std::string BuildOrders::solution(const std::vector<int>& grid, long long number) {
    std::string out = options_.quiet ? std::string() : formatSolution(def_, grid, number);
    if (!options_.buildOrder) return out;
    const Result<BuildOrder> order = computeBuildOrder(def_, grid);
    if (!order.ok()) ++failed_;
    else {
        ++counts_[static_cast<int>(order.value.kind)];
        ++best_[static_cast<int>(bestClass(order.value))];
        states_ += order.value.statesSearched;
        maxStates_ = std::max(maxStates_, order.value.statesSearched);
        exhausted_ += order.value.searchExhausted;
        if (!order.value.interlocked.empty()) ++groups_[static_cast<int>(order.value.interlocked.size())];
    }
    if (options_.quiet) return out;
    if (options_.json)
        return out + "{\"solution\":" + std::to_string(number) + ",\"buildOrder\":" +
               (order.ok() ? buildOrderJson(def_, order.value) : buildOrderErrorJson(order.status.message)) + "}\n";
    return out + (order.ok() ? formatBuildOrder(def_, order.value) : "# build order: " + order.status.message + "\n");
}

std::string BuildOrders::jsonSummary(const std::string& summary) const {
    if (!options_.buildOrder) return summary;
    nlohmann::json j = nlohmann::json::parse(summary, nullptr, false);
    if (j.is_discarded()) return summary;
    nlohmann::json counts, best;
    for (BuildClass k : {BuildClass::FromAbove, BuildClass::Sideways, BuildClass::Interlocked, BuildClass::Unsupported}) {
        counts[buildClassName(k)] = counts_[static_cast<int>(k)];
        best[buildClassName(k)] = best_[static_cast<int>(k)];
    }
    counts["bestWayUp"] = best;
    nlohmann::json groups = nlohmann::json::object();
    for (const auto& [size, n] : groups_) groups[std::to_string(size)] = n;
    counts["groups"] = groups;
    counts["states"] = states_;
    counts["maxStates"] = maxStates_;
    if (exhausted_) counts["exhausted"] = exhausted_;
    if (failed_) counts["failed"] = failed_;
    j["buildOrders"] = counts;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string BuildOrders::countsLine() const {
    if (!options_.buildOrder) return "";
    long long total = failed_;
    for (long long c : counts_) total += c;
    std::string out = "# build orders of " + std::to_string(total) + (total == 1 ? " solution: " : " solutions: ") +
                      std::to_string(counts_[0]) + " from above, " + std::to_string(counts_[1]) + " with sideways slides, " +
                      std::to_string(counts_[2]) + " interlocked";
    if (counts_[3]) out += ", " + std::to_string(counts_[3]) + " with a piece that must be held";
    if (failed_) out += ", " + std::to_string(failed_) + " not orderable (an internal error)";
    if (best_[0] != counts_[0]) {
        out += "; the best way up: " + std::to_string(best_[0]) + " from above, " + std::to_string(best_[1]) +
               " with sideways slides, " + std::to_string(best_[2]) + " interlocked";
        if (best_[3]) out += ", " + std::to_string(best_[3]) + " with a piece that must be held";
    }
    return out + "\n";
}

}  // namespace polycube
