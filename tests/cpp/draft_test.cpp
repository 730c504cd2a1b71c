// The editor's draft checks (session/draft.hpp): lenient parsing, cell counts, images per piece,
// equal shapes, parity.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "session/session.hpp"
#include "test_support.hpp"

using nlohmann::json;
using polycube::Session;

namespace {

json draft(const std::string& text) { return json::parse(Session::draftJson(text, "draft.txt")); }

}  // namespace

TEST(Draft, AcceptsAVolumeMismatchThatLoadRefuses) {
    const std::string text = "D:xDim=3:yDim=2:zDim=1\nC:name=A:layout=0 0 0, 1 0 0, 2 0 0\n~D\n";
    Session s;
    EXPECT_FALSE(s.load(text, "draft.txt"));
    EXPECT_NE(s.lastError().find("pieces cover 3 cells but the box has 6 free cells"), std::string::npos);
    json j = draft(text);
    ASSERT_TRUE(j["ok"].get<bool>()) << j.dump();
    const json& c = j["puzzles"][0]["checks"];
    EXPECT_EQ(c["freeCells"], 6);
    EXPECT_EQ(c["pieceCells"], 3);
    EXPECT_EQ(c["images"][0], 2);  // the straight tromino lies along x in either row; it cannot stand
    EXPECT_EQ(c["parity"], "");    // not judged while the volumes differ
}

TEST(Draft, NoMobilePieceYetIsADraftNotAnError) {
    json j = draft("D:xDim=4:yDim=4:zDim=1\n~D\n");
    ASSERT_TRUE(j["ok"].get<bool>()) << j.dump();
    EXPECT_EQ(j["puzzles"][0]["checks"]["freeCells"], 16);
    EXPECT_EQ(j["puzzles"][0]["checks"]["pieceCells"], 0);
}

TEST(Draft, SyntaxErrorsAreReportedAsTheParserReportsThem) {
    json j = draft("D:xDim=3:yDim=3:zDim=3\nC:name=B:layout=0 0 0, 1 0\n~D\n");
    EXPECT_FALSE(j["ok"].get<bool>());
    EXPECT_EQ(j["error"].get<std::string>().rfind("draft.txt:2:", 0), 0u) << j["error"];
}

TEST(Draft, PiecesThatFitNowhereAndEqualShapes) {
    // a 3x3 square never fits a 2-high board; the two L tetrominoes are one shape written twice
    const std::string text =
        "D:xDim=4:yDim=2:zDim=1\n"
        "C:name=Q:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0, 1 1 0, 2 1 0, 0 2 0, 1 2 0, 2 2 0\n"
        "C:name=L1:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
        "C:name=L2:layout=0 0 0, 0 1 0, 0 2 0, 1 2 0\n"
        "~D\n";
    json c = draft(text)["puzzles"][0]["checks"];
    EXPECT_EQ(c["images"][0], 0);
    EXPECT_GT(c["images"][1].get<int>(), 0);
    ASSERT_EQ(c["sameShapes"].size(), 1u);
    EXPECT_EQ(c["sameShapes"][0], json::array({1, 2}));
}

TEST(Draft, ParityIsTheSolversCheck) {
    json c = draft(polycube::testing::readDefFile("hexominoes_rect_15x14.txt"))["puzzles"][0]["checks"];
    EXPECT_EQ(c["freeCells"], 210);
    EXPECT_EQ(c["pieceCells"], 210);
    EXPECT_NE(c["parity"].get<std::string>().find("impossible by parity"), std::string::npos);
    json ok = draft(polycube::testing::readDefFile("pentominoes_10x6.txt"))["puzzles"][0]["checks"];
    EXPECT_EQ(ok["parity"], "");
    EXPECT_EQ(ok["impossible"], "");
    for (const json& n : ok["images"]) EXPECT_GT(n.get<int>(), 0);
}

TEST(Draft, OtherWeightingsAreTheSolversCheckToo) {
    json c = draft(polycube::testing::readDefFile("impossible/two_t_tetrominoes.txt"))["puzzles"][0]["checks"];
    EXPECT_EQ(c["parity"], "");
    EXPECT_EQ(c["impossible"].get<std::string>().rfind("impossible by corner cells: the board has 5 corner cells", 0), 0u);
    // Not judged while the volumes differ (the draft has one T too many).
    std::string text = polycube::testing::readDefFile("impossible/two_t_tetrominoes.txt");
    text.replace(text.find("count=2"), 7, "count=3");
    json more = draft(text)["puzzles"][0]["checks"];
    EXPECT_EQ(more["impossible"], "");
}
