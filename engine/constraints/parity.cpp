#include "constraints/parity.hpp"

#include <cstdlib>
#include <map>

namespace polycube {

void ParityMonitor::init(const Model& m) {
    std::map<int, int> classOfMagnitude;
    magnitudes_.clear();
    counts_.clear();
    classOfShape_.assign(m.shapeCount(), -1);
    int maxSum = 0;
    for (int s = 0; s < m.shapeCount(); ++s) {
        int mag = m.shapes[s].parityMagnitude;
        maxSum += mag * m.shapes[s].count;
        if (mag == 0) continue;
        auto [it, inserted] = classOfMagnitude.emplace(mag, static_cast<int>(magnitudes_.size()));
        if (inserted) {
            magnitudes_.push_back(mag);
            counts_.push_back(0);
        }
        classOfShape_[s] = it->second;
        counts_[it->second] += m.shapes[s].count;
    }
    // A piece of magnitude m adds +m or -m; sums range over [-maxSum, maxSum].
    std::vector<std::vector<int>> choices;
    for (int mag : magnitudes_) choices.push_back({mag, -mag});
    sums_.init(std::move(choices), counts_, -maxSum, maxSum);
}

bool ParityMonitor::achievable(const int* remaining, int target) const {
    return sums_.contains(remaining, target);
}

std::string parityImpossibility(const Model& model) {
    ParityMonitor pm;
    pm.init(model);
    std::vector<int> all = pm.initialCounts();
    if (pm.achievable(all.data(), model.openParity())) return {};
    // Says "the space to fill", not the articles' "holes": a board without holes would read as
    // having some.
    return "impossible by parity: the space to fill has parity " + std::to_string(model.openParity()) +
           " (its cells of one checkerboard colour minus the other's), which no placement of the pieces can match";
}

}  // namespace polycube
