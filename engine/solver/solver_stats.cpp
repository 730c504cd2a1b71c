// SolverStats' sums (solver/solver_stats.hpp).
#include "solver/solver_stats.hpp"

#include <numeric>

namespace polycube {

long long SolverStats::totalAttempts() const { return std::accumulate(attempts.begin(), attempts.end(), 0LL); }

long long SolverStats::totalFits() const { return std::accumulate(fits.begin(), fits.end(), 0LL); }

void SolverStats::add(const SolverStats& other, int sign) {
    solutions += sign * other.solutions;
    found += sign * other.found;
    redundant += sign * other.redundant;
    monteCarloTrials += sign * other.monteCarloTrials;
    forEachLevelCounter(*this, other, [sign](std::vector<long long>& a, const std::vector<long long>& b) {
        if (a.size() < b.size()) a.resize(b.size(), 0);
        for (std::size_t i = 0; i < b.size(); ++i) a[i] += sign * b[i];
    });
}

}  // namespace polycube
