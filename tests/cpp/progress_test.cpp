// The CLI's progress line (cli/progress.hpp): the time left projects this run's own rate.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

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

// A memoized count knows its count only at the end: its line says no number of solutions.
TEST(Progress, ALineWithoutACountSaysNoSolutions) {
    std::ostringstream captured;
    std::streambuf* const saved = std::cerr.rdbuf(captured.rdbuf());
    ProgressReporter reporter(false, "polycube: ");
    reporter.report(0.5, -1);
    reporter.report(0.75, 3);
    std::cerr.rdbuf(saved);
    const std::string text = captured.str();
    const std::string first = text.substr(0, text.find('\n'));
    EXPECT_EQ(first.rfind("polycube: about 50% done", 0), 0u) << first;
    EXPECT_EQ(first.find("solution"), std::string::npos) << first;
    EXPECT_NE(first.find(" elapsed"), std::string::npos) << first;
    EXPECT_NE(text.find("about 75% done"), std::string::npos) << text;
    EXPECT_NE(text.find(", 3 solutions, "), std::string::npos) << text;
}

}  // namespace
}  // namespace polycube
