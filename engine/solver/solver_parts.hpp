// What the files of Solver share and nothing else needs: the setup's and the slices' clock
// (solver.cpp, solver_setup.cpp).
#pragma once
#include <chrono>

namespace polycube::solver_parts {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace polycube::solver_parts
