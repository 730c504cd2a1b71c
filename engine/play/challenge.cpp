#include "play/challenge.hpp"

#include <random>

namespace polycube {

Result<CompletionCount> countCompletions(const PuzzleDef& def, const std::vector<Placement>& given, long long limit) {
    auto q = PlayQuery::begin(def, given, PlayQuery::Kind::Count, limit);
    if (!q.ok()) return Result<CompletionCount>::error(q.status);
    PlayQuery& query = *q.value;
    while (query.step(1 << 20) == PlayQuery::State::Running) {
    }
    if (query.state() != PlayQuery::State::Done) return Result<CompletionCount>::error(query.error());
    CompletionCount out;
    out.completions = query.completions();
    out.capped = query.capped();
    out.placements = query.placements();
    out.completion = query.completion();
    return Result<CompletionCount>::success(std::move(out));
}

Result<Challenge> challengeFromSolution(const PuzzleDef& def, const std::vector<int>& grid, const std::vector<int>& order) {
    using R = Result<Challenge>;
    const std::vector<Placement> pieces = placementsOfGrid(def, grid);
    std::vector<char> seen(pieces.size(), 0);
    for (int k : order) {
        if (k < 0 || k >= static_cast<int>(pieces.size()) || seen[static_cast<size_t>(k)])
            return R::error("challenge: the order must name each of the " + std::to_string(pieces.size()) + " pieces once");
        seen[static_cast<size_t>(k)] = 1;
    }
    if (order.size() != pieces.size()) return R::error("challenge: the order must name every piece");
    // unique: counted with limit 1, the search stops at a second completion (capped)
    auto unique = [&](const std::vector<Placement>& given, long long* placements) -> Result<bool> {
        Result<CompletionCount> c = countCompletions(def, given, 1);
        if (!c.ok()) return Result<bool>::error(c.status);
        if (c.value.completions == 0) return Result<bool>::error("challenge: the grid is not a solution of the puzzle");
        if (placements) *placements = c.value.placements;
        return Result<bool>::success(!c.value.capped);
    };
    std::vector<Placement> given;
    for (int k : order) {
        Result<bool> u = unique(given, nullptr);
        if (!u.ok()) return R::error(u.status);
        if (u.value) break;
        given.push_back(pieces[static_cast<size_t>(k)]);
    }
    for (int i = static_cast<int>(given.size()) - 1; i >= 0; --i) {
        std::vector<Placement> fewer = given;
        fewer.erase(fewer.begin() + i);
        Result<bool> u = unique(fewer, nullptr);
        if (!u.ok()) return R::error(u.status);
        if (u.value) given = std::move(fewer);
    }
    Challenge c;
    Result<bool> u = unique(given, &c.placements);
    if (!u.ok()) return R::error(u.status);
    c.given = std::move(given);
    return R::success(std::move(c));
}

std::vector<int> shuffledOrder(int n, uint64_t seed) {
    std::vector<int> order(static_cast<size_t>(n > 0 ? n : 0));
    for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
    std::mt19937_64 rng(seed);
    for (int i = n - 1; i > 0; --i) std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(rng() % static_cast<uint64_t>(i + 1))]);
    return order;
}

std::string challengeGrade(long long placements) {
    if (placements < 200) return "starter";
    if (placements < 2000) return "junior";
    if (placements < 20000) return "expert";
    return "master";
}

}  // namespace polycube
