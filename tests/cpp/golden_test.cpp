// The golden corpus: every puzzle of def/catalog.json in the fast and slow tiers, with every
// option string listed, must give its known count, and every solution must pass the
// independent checker.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

namespace {

struct GoldenCase {
    std::string file, options, tier;
    long long expected;
};

std::vector<GoldenCase> goldenCases() {
    std::vector<GoldenCase> out;
    auto catalog = nlohmann::json::parse(readDefFile("catalog.json"));
    for (const auto& entry : catalog) {
        std::string tier = entry["tier"];
        if (tier == "bench") continue;
        for (auto it = entry["counts"].begin(); it != entry["counts"].end(); ++it)
            out.push_back({entry["file"], it.key(), tier, it.value().get<long long>()});
    }
    return out;
}

std::string goldenCaseName(const ::testing::TestParamInfo<GoldenCase>& info) {
    std::string n = info.param.file.substr(0, info.param.file.find('.')) + (info.param.options.empty() ? "_all" : "_" + info.param.options);
    for (char& c : n)
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

}  // namespace

TEST_P(Golden, CountMatchesAndEverySolutionChecks) {
    const GoldenCase& c = GetParam();
    PuzzleDef def = loadPuzzle(c.file);
    RunResult r = solve(def, c.options);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.count, c.expected) << c.file << " with '" << c.options << "'";
    EXPECT_EQ(r.checkerFailures, 0) << r.firstCheckerFailure;
}

INSTANTIATE_TEST_SUITE_P(Corpus, Golden, ::testing::ValuesIn(goldenCases()), goldenCaseName);

// Independent check of the redundancy filter: every raw 10x6 solution is a rotation (or a
// turn-over) of exactly one of the 2339 solutions reported with -r.
TEST(GoldenRedundancy, PentominoRawSolutionsAreRotationsOfExactlyOneUniqueSolution) {
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RunResult raw = solve(def, "", true);
    RunResult unique = solve(def, "-r", true);
    ASSERT_EQ(raw.grids.size(), 9356u);
    ASSERT_EQ(unique.grids.size(), 2339u);
    const int X = def.xDim, Y = def.yDim;
    // The four symmetries of a 10x6 rectangle (all pieces unique, so grids compare directly).
    auto transformed = [&](const std::vector<int>& g, int t) {
        std::vector<int> out(g.size());
        for (int y = 0; y < Y; ++y)
            for (int x = 0; x < X; ++x) {
                int tx = (t & 1) ? X - 1 - x : x, ty = (t & 2) ? Y - 1 - y : y;
                out[tx + X * ty] = g[x + X * y];
            }
        return out;
    };
    std::map<std::vector<int>, int> owner;  // every rotation of a unique solution -> its index
    for (size_t i = 0; i < unique.grids.size(); ++i)
        for (int t = 0; t < 4; ++t) {
            auto [it, inserted] = owner.emplace(transformed(unique.grids[i], t), static_cast<int>(i));
            EXPECT_TRUE(inserted || it->second == static_cast<int>(i)) << "two -r solutions are rotations of each other";
        }
    for (const auto& g : raw.grids) EXPECT_EQ(owner.count(g), 1u);
}
