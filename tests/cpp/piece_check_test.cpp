// Session::checkResume (parallel/piece_check.hpp): a checkpoint the page keeps of a shared
// search, made here as the page makes it (a piece that gave work away and finished, the pieces
// it gave still to search), is accepted; every damage that would miscount a resumed search (a
// piece twice, a piece dropped, forged counts and shares, paths of another tree) is refused
// with a message naming it.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "session/session.hpp"
#include "test_support.hpp"

using namespace polycube;
using json = nlohmann::json;

namespace {

using polycube::testing::stepUntilReady;

// A prepared search of the 10x6 pentominoes with -r (as the pool's workers prepare it).
void prepare(Session& s) {
    ASSERT_TRUE(s.load(polycube::testing::readDefFile("pentominoes_10x6.txt"), "p.txt")) << s.lastError();
    ASSERT_TRUE(s.start(0, "-r")) << s.lastError();
    stepUntilReady(s);
    ASSERT_TRUE(s.ready());
}

// The whole tree searched by one piece that gave its first open level away after one slice
// and then finished: the page's checkpoint of that moment.
json pageCheckpoint() {
    Session s;
    prepare(s);
    const std::string fingerprint = s.fingerprint();
    EXPECT_TRUE(s.startSubproblem({}));
    // (the first slices may set the piece up without entering a level: nothing to give yet)
    json given = json::parse(s.donateJson(0));
    while (given["paths"].empty() && s.step(2000) == Session::RUNNING) given = json::parse(s.donateJson(0));
    EXPECT_GE(given["paths"].size(), 2u);
    while (s.step(1e6) == Session::RUNNING) s.takeSolutions(1 << 20);
    const json stats = json::parse(s.statsJson());
    json pending = json::array();
    const double share = given["share"].get<double>() / static_cast<double>(given["paths"].size());
    for (const json& path : given["paths"]) pending.push_back({{"path", path}, {"share", share}});
    json kept = json::object();
    for (const char* key : {"solutions", "found", "redundant", "attempts", "fits", "attemptsByRemaining", "fitsByRemaining",
                            "parityBacktracks", "volumeBacktracks", "parityFiltered", "volumeFiltered", "fitFiltered"})
        kept[key] = stats[key];
    return {{"fingerprint", fingerprint}, {"doneShare", stats["fractionDone"]}, {"solutions", stats["solutions"]},
            {"stats", kept}, {"pending", pending}};
}

}  // namespace

TEST(PieceCheck, AcceptsThePagesCheckpointAndRefusesEachDamage) {
    const json good = pageCheckpoint();
    ASSERT_GE(good["pending"].size(), 2u);
    ASSERT_GT(good["solutions"].get<long long>(), 0);
    Session s;
    prepare(s);
    EXPECT_TRUE(s.checkResume(good.dump())) << s.lastError();

    struct Damage {
        const char* what;
        std::function<void(json&)> change;
        const char* message;
    };
    const long long max53 = (1LL << 53) - 1;
    const Damage damages[] = {
        {"a piece twice", [](json& c) { c["pending"].push_back(c["pending"][0]); }, "is the same as piece 1: it would be searched twice"},
        {"a piece dropped", [](json& c) { c["pending"].erase(c["pending"].begin()); }, "not the whole search (a piece missing"},
        {"a piece inside another", [](json& c) {
             json inner = c["pending"][0];
             inner["path"].push_back(0);
             inner["share"] = 0;
             c["pending"].push_back(inner);
         }, "overlap: one's path begins with the other's"},
        {"100% done with pieces left", [](json& c) { c["doneShare"] = 1; }, "more than the whole search"},
        {"a share changed", [](json& c) { c["pending"][0]["share"] = c["pending"][0]["share"].get<double>() / 2; }, "not the whole search"},
        {"forged solution count", [&](json& c) { c["solutions"] = max53; }, "is not its statistics'"},
        {"forged counts that agree", [&](json& c) {
             c["solutions"] = max53;
             c["stats"]["solutions"] = max53;
             c["stats"]["found"] = max53;
         }, "assemblies found, but the last piece fitted only"},
        {"more fits than attempts", [](json& c) {
             json& st = c["stats"];
             const long long more = st["attemptsByRemaining"][3].get<long long>() + 1 - st["fitsByRemaining"][3].get<long long>();
             st["fitsByRemaining"][3] = st["fitsByRemaining"][3].get<long long>() + more;
             st["fits"] = st["fits"].get<long long>() + more;  // (the total agrees: the levels are what is wrong)
         }, "more placements fitted"},
        {"a count over 2^60", [](json& c) { c["stats"]["found"] = (1ULL << 61); }, "found is not a whole number from 0 to"},
        {"a negative count", [](json& c) { c["stats"]["redundant"] = -1; }, "redundant is not a whole number"},
        {"a fractional count", [](json& c) { c["solutions"] = 2.5; }, "the solution count is not a whole number"},
        {"a count as text", [](json& c) { c["stats"]["found"] = "2339"; }, "found is not a whole number"},
        {"a total that is not its levels' sum", [](json& c) { c["stats"]["attempts"] = c["stats"]["attempts"].get<long long>() + 1; },
         "attempts"},
        {"a level list cut short", [](json& c) {
             json& levels = c["stats"]["fitsByRemaining"];
             c["stats"]["fits"] = c["stats"]["fits"].get<long long>() - levels.back().get<long long>();
             levels.erase(levels.size() - 1);
         }, "levels, but level attempts has"},
        {"an image that does not exist", [](json& c) { c["pending"][0]["path"].push_back(99999999); }, "does not exist in this puzzle"},
        {"another search", [](json& c) { c["fingerprint"] = "0123456789abcdef"; }, "a checkpoint of another search"},
        {"no pieces list", [](json& c) { c.erase("pending"); }, "the list of pieces to search is missing"},
        {"a piece of another shape", [](json& c) { c["pending"][0] = json::array({1, 2}); }, "piece 1 is not {path, share}"},
        {"a share not a number", [](json& c) { c["pending"][0]["share"] = nullptr; }, "piece 1: its share is not a number"},
    };
    for (const Damage& d : damages) {
        SCOPED_TRACE(d.what);
        json c = good;
        d.change(c);
        EXPECT_FALSE(s.checkResume(c.dump()));
        EXPECT_NE(s.lastError().find(d.message), std::string::npos) << s.lastError();
        // another search's checkpoint has a code of its own (a front end may try it as it ran)
        const bool other = std::string(d.what) == "another search";
        EXPECT_EQ(s.errorCode(), other ? Session::ErrorCode::kOtherSearch : Session::ErrorCode::kNotResumable) << s.lastError();
        EXPECT_EQ(s.lastError().rfind("the kept search: ", 0), 0u) << s.lastError();
        EXPECT_EQ(s.lastError().find("(line "), std::string::npos) << s.lastError();  // no lines of a file the page never had
    }
    // Text that is no checkpoint at all: refused, whatever its shape.
    for (const std::string& text : {std::string(""), std::string("[1,2"), std::string("null"), std::string(100000, '['),
                                    std::string("{\"pending\":") + std::string(50, '[')}) {
        EXPECT_FALSE(s.checkResume(text));
        EXPECT_NE(s.lastError().find("not a checkpoint"), std::string::npos) << s.lastError();
    }
    // A path of images that overlap, and one that places a piece twice, is not a path of this tree.
    json twice = good;
    twice["pending"][0]["path"] = json::array({0, 0});
    EXPECT_FALSE(s.checkResume(twice.dump()));
    EXPECT_NE(s.lastError().find("places an image twice"), std::string::npos) << s.lastError();
    // Before the search is set up there is nothing to check against.
    Session idle;
    EXPECT_FALSE(idle.checkResume(good.dump()));
    EXPECT_EQ(idle.errorCode(), Session::ErrorCode::kIllegalCall) << idle.lastError();
}
