#include "memo/memo_choice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <unordered_set>
#include <vector>

#include "memo/cover_problem.hpp"

namespace polycube {

namespace {

// What both bounds read off the model: the images' reach along the sweep and the ways to
// choose copies by the cells they cover.
struct Sweep {
    int cells = 0;
    int span = 1;                 // the longest reach of an image, its first cell included
    std::vector<double> sets;     // sets[k]: ways to take copies of the shapes with k cells in all
    std::vector<int> first;       // per image: its first cell's position in the sweep
    std::vector<uint64_t> after;  // per image: its other cells, bit i = position first + 1 + i
};

Sweep readSweep(const Model& model, bool masks) {
    Sweep s;
    s.cells = model.openCellCount();
    const std::vector<int> order = sweepOrder(model);
    // A piece placed before position p starts before p, so the cells it fills past p lie in
    // the next span - 1.
    if (masks) s.first.reserve(model.images.size()), s.after.reserve(model.images.size());
    for (const Image& image : model.images) {
        int lo = s.cells, hi = -1;
        for (int c : image.cells) lo = std::min(lo, order[c]), hi = std::max(hi, order[c]);
        if (hi < lo) continue;
        s.span = std::max(s.span, hi - lo + 1);
        if (!masks || hi - lo > 63) continue;  // (memoReachableBound then gives up)
        uint64_t after = 0;
        for (int c : image.cells)
            if (order[c] != lo) after |= 1ULL << (order[c] - lo - 1);
        s.first.push_back(lo);
        s.after.push_back(after);
    }
    // A bounded knapsack, in doubles: the figures only compare.
    s.sets.assign(static_cast<size_t>(s.cells) + 1, 0.0);
    s.sets[0] = 1;
    for (const Shape& shape : model.shapes) {
        std::vector<double> next(s.sets.size(), 0.0);
        for (int k = 0; k <= s.cells; ++k) {
            if (s.sets[k] == 0) continue;
            for (int c = 0; c <= shape.count && k + c * shape.size <= s.cells; ++c) next[k + c * shape.size] += s.sets[k];
        }
        s.sets.swap(next);
    }
    return s;
}

}  // namespace

double memoSubproblemBound(const Model& model) {
    if (model.openCellCount() == 0) return 1;
    const Sweep s = readSweep(model, false);
    const int window = s.span - 1;
    double bound = 0;
    for (int p = 0; p < s.cells; ++p) {
        // C(reach, j) ways for j of the next `reach` cells to be filled (the window ends with the box).
        const int reach = std::min(window, s.cells - 1 - p);
        double profiles = 1;
        for (int j = 0; j <= reach; ++j) {
            bound += profiles * s.sets[p + j];
            profiles = profiles * (reach - j) / (j + 1);
        }
    }
    return std::max(bound, 1.0);
}

double memoReachableBound(const Model& model, long long work) {
    if (model.openCellCount() == 0) return 1;
    const Sweep s = readSweep(model, true);
    if (s.span - 1 > 63) return -1;  // a frontier past one word: not tried
    // The images by first cell, their masks deduplicated (shapes do not matter here).
    std::vector<std::vector<uint64_t>> at(static_cast<size_t>(s.cells));
    for (size_t i = 0; i < s.first.size(); ++i) at[s.first[i]].push_back(s.after[i]);
    for (auto& masks : at) {
        std::sort(masks.begin(), masks.end());
        masks.erase(std::unique(masks.begin(), masks.end()), masks.end());
    }
    // Breadth first over the positions: the frontiers reachable at p (cells after p filled),
    // each fills p with an image that fits and moves to the next open cell.
    std::vector<std::unordered_set<uint64_t>> frontiers(static_cast<size_t>(s.cells) + 1);
    frontiers[0].insert(0);
    double bound = 0;
    for (int p = 0; p < s.cells; ++p) {
        for (uint64_t filled : frontiers[p]) {
            bound += s.sets[p + __builtin_popcountll(filled)];
            work -= static_cast<long long>(at[p].size()) + 1;
            if (work < 0) return -1;
            for (uint64_t image : at[p]) {
                if (image & filled) continue;
                uint64_t next = image | filled;
                int q = p + 1;
                while (q < s.cells && (next & 1)) next >>= 1, ++q;
                if (q < s.cells) frontiers[q].insert(next >> 1);  // bit 0 is q itself, open
            }
        }
        std::unordered_set<uint64_t>().swap(frontiers[p]);
    }
    return std::max(bound, 1.0);
}

double forecastLayers(const std::vector<long long>& sizes, int positions, int period, double* peak) {
    const int done = static_cast<int>(sizes.size());
    double sum = 0, top = 0;
    for (long long s : sizes) sum += static_cast<double>(s), top = std::max(top, static_cast<double>(s));
    if (peak) *peak = top;
    if (done >= positions) return sum;
    period = std::max(period, 1);
    if (done < 2 * period) {
        if (peak) *peak = -1;
        return -1;
    }
    double last = 0, before = 0;
    for (int p = done - period; p < done; ++p) last += static_cast<double>(sizes[p]);
    for (int p = done - 2 * period; p < done - period; ++p) before += static_cast<double>(sizes[p]);
    if (last == 0) return sum;  // a whole period empty: no subproblem goes on
    // Growth per layer, from the middle of the last period; past the middle of the sweep the
    // layers shrink at the rate they grew (or, already shrinking, go on shrinking).
    const double growth = std::pow(last / std::max(before, 1.0), 1.0 / period);
    const double up = std::max(growth, 1.0), down = growth < 1 ? growth : 1 / growth;
    const double from = done - (period + 1) / 2.0;
    const double middle = std::max(positions / 2.0, from);
    const double atMiddle = last / period * std::pow(up, middle - from);
    for (int q = done; q < positions; ++q) {
        const double size = q <= middle ? last / period * std::pow(up, q - from) : atMiddle * std::pow(down, q - middle);
        sum += size;
        top = std::max(top, size);
    }
    if (peak) *peak = std::min(top, 1e300);
    return std::min(sum, 1e300);
}

double layeredShareDone(const std::vector<long long>& sizes, double expanded, double byLayers, int positions, int period) {
    const int done = static_cast<int>(sizes.size());
    double total = 0;
    if (2 * done <= positions) {
        total = forecastLayers(sizes, positions, period);
    } else {
        const int peak = static_cast<int>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
        for (long long s : sizes) total += static_cast<double>(s);
        for (int q = done; q < positions; ++q)  // (2 peak - q < peak: a layer done)
            if (2 * peak - q >= 0) total += static_cast<double>(sizes[static_cast<size_t>(2 * peak - q)]);
    }
    if (total <= 0) return byLayers;
    return std::clamp(expanded / total, 0.0, 1.0);
}

namespace {

// The rests a race weighs: the layered count's at the probe's rate, the terms after this one
// taken to cost as much as this one (most are smaller: Burnside's terms fix a symmetry), and
// the search's by its share done. `known`: the probe forecasts and both sides have a rest;
// `inFavour`: the layers' rest times the margin is below the search's; `fits`: their largest
// layer is forecast within 1 / budgetFit of the budget (past it, the count would end without
// a result after the search was stopped).
struct RaceRests {
    bool known = false, inFavour = false, fits = false;
    double layersLeft = 0, searchLeft = 0;
};

RaceRests raceRests(const RaceReading& r, const RaceRules& rules) {
    RaceRests rests;
    if (r.probe.termSubproblems < 0 || r.probe.subproblems <= 0 || r.searchDone <= 0 || r.searchDone >= 1) return rests;
    const double left = std::max(0.0, r.probe.termSubproblems - r.probe.termDone) + r.probe.termsAfter * r.probe.termSubproblems;
    rests.known = true;
    rests.layersLeft = r.probeSpent / static_cast<double>(r.probe.subproblems) * left;
    rests.searchLeft = r.searchSpent * (1 - r.searchDone) / r.searchDone;
    rests.inFavour = rests.layersLeft * rules.margin < rests.searchLeft;
    rests.fits = r.probe.peakBytes >= 0 && r.probe.peakBytes * rules.budgetFit <= static_cast<double>(r.maxBytes);
    return rests;
}

}  // namespace

RaceDecision raceDecision(const RaceReading& r, const RaceRules& rules) {
    RaceDecision d;
    char line[320];
    const double start = r.clock ? rules.startSeconds : rules.startAttempts;
    if (r.searchSpent < start) return d;
    double share = rules.share;
    if (const RaceRests rests = raceRests(r, rules); rests.known) {
        if (rests.inFavour && rests.fits) {
            d.move = RaceMove::Switch;
            std::snprintf(line, sizeof line,
                          "memoized after the enumerating search did %.2g%%: the layers forecast %.3g subproblems (%lld "
                          "counted), their rest %.2g %s against the search's %.2g",
                          100 * r.searchDone, r.probe.termSubproblems * (1 + r.probe.termsAfter), r.probe.subproblems,
                          rests.layersLeft, r.clock ? "s" : "attempts", rests.searchLeft);
            d.why = line;
            return d;
        }
        if (rests.inFavour && r.probe.peakBytes >= 0 && r.probe.peakBytes <= rules.hopeFactor * static_cast<double>(r.maxBytes))
            share = rules.promisingShare;
    }
    // (compared, not subtracted first: a fused multiply-add would leave a share fully spent a
    // rounding error of allowance)
    const double due = share * r.searchSpent;
    if (r.probeSpent < due) d.move = RaceMove::Probe, d.allowance = due - r.probeSpent;
    return d;
}

std::string raceStanding(const RaceReading& r, const RaceRules& rules) {
    if (r.probe.subproblems <= 0) return "";
    const char* unit = r.clock ? "s" : "attempts";
    // (each part in its own buffer, well within it: the line's length never depends on one)
    char part[240];
    std::snprintf(part, sizeof part,
                  "enumerating to the end: the layered count beside it counted %lld subproblems for %.3g %s (%.2g%% of the "
                  "search's %.3g)",
                  r.probe.subproblems, r.probeSpent, unit, 100 * r.probeSpent / std::max(r.searchSpent, 1e-9), r.searchSpent);
    std::string line = part;
    const RaceRests rests = raceRests(r, rules);
    if (!rests.known) return line + "; too few of its layers yet to forecast the rest";
    std::snprintf(part, sizeof part,
                  "; its layers forecast %.3g subproblems, their rest %.2g %s against the search's %.2g (they take over below "
                  "1/%g of it",
                  r.probe.termSubproblems * (1 + r.probe.termsAfter), rests.layersLeft, unit, rests.searchLeft, rules.margin);
    line += part;
    if (r.probe.peakBytes >= 0 && !rests.fits) {
        std::snprintf(part, sizeof part, ", and their largest layer within 1/%g of the budget: forecast %.3g bytes of %lld",
                      rules.budgetFit, r.probe.peakBytes, r.maxBytes);
        line += part;
    }
    return line + ")";
}

MemoForecast forecastMemo(double bound, double enumeratingCost, bool reached) {
    MemoForecast f;
    f.subproblemBound = bound;
    f.reached = reached;
    f.enumeratingCost = enumeratingCost;
    f.raceable = true;
    char line[256];
    if (enumeratingCost < 0) {
        std::snprintf(line, sizeof line, "enumerating: at most %.3g subproblems to remember, %s", bound,
                      bound * kMemoSubproblemCost >= kMemoWorthWeighing
                          ? "too many to weigh against the enumerating search"
                          : "and no estimate of the enumerating search (FILA cannot start on the whole puzzle)");
        f.reason = line;
        return f;
    }
    f.memoize = bound * kMemoSubproblemCost < enumeratingCost;
    f.raceable = !f.memoize;
    std::snprintf(line, sizeof line, "%s: at most %.3g subproblems to remember%s, x %g %s the enumerating search's estimate %.3g",
                  f.memoize ? "memoized" : "enumerating", bound, reached ? " (frontiers reached)" : "", kMemoSubproblemCost,
                  f.memoize ? "<" : ">=", enumeratingCost);
    f.reason = line;
    return f;
}

}  // namespace polycube
