// A checkpoint of a search stopped midway, shared by the checkpoint tests.
#pragma once
#include <string>

#include "parallel/checkpoint.hpp"
#include "parallel/parallel_search.hpp"
#include "test_support.hpp"

namespace polycube::testing {

// A checkpoint of `def` with `options` (10x6 -r in most tests) stopped midway: finished pieces
// (some of them with solutions) and at least 4 pending ones.
inline Checkpoint midwayCheckpoint(const PuzzleDef& def, std::string& fingerprint, const std::string& options = "-r") {
    auto made = ParallelSearch::create(def, optionsFrom(options), 1);
    EXPECT_TRUE(made.ok());
    ParallelSearch& search = *made.value;
    Checkpoint mid;
    search.setCheckpointHandler(
        [&](const Checkpoint& ck) {
            if (mid.pending.empty() && ck.doneShare > 0 && ck.finished.solutions > 0 && ck.pending.size() >= 4) {
                mid = ck;
                search.cancel();
            }
        },
        0.0);
    search.run();
    fingerprint = search.fingerprint();
    return mid;
}

}  // namespace polycube::testing
