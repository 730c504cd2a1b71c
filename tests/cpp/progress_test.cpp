// The CLI's progress line (cli/progress.hpp): the time left projects this run's own rate.
#include <gtest/gtest.h>

#include "../../cli/progress.hpp"

namespace polycube {
namespace {

TEST(Progress, AFreshRunProjectsItsElapsedTimeOverTheShareDone) {
    EXPECT_DOUBLE_EQ(partDone(0, 0.25), 0.25);
    EXPECT_DOUBLE_EQ(projectedSeconds(0, 0.25, 10), 40);  // 30 s left
    EXPECT_EQ(projectedSeconds(0, 0, 10), -1);             // nothing gained yet: no projection
}

TEST(Progress, AResumedRunProjectsTheShareGainedSinceItResumed) {
    // QA: resumed at 41%, one second later at 42%: "~1 s left" (1 s / 0.42), with 35 s to go.
    EXPECT_NEAR(partDone(0.41, 0.42), 0.01 / 0.59, 1e-12);
    EXPECT_NEAR(projectedSeconds(0.41, 0.42, 1), 59, 1e-9);  // 58 s left at that rate
    EXPECT_EQ(projectedSeconds(0.41, 0.41, 1), -1);
    EXPECT_DOUBLE_EQ(partDone(0.41, 1), 1);
    EXPECT_DOUBLE_EQ(partDone(1, 1), 1);  // (nothing was left to search)
}

}  // namespace
}  // namespace polycube
