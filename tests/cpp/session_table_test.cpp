// The Session's table of phases and legal calls (engine/session/session.hpp), walked: every
// checked call in every phase. A legal call succeeds; an illegal one returns the error value
// kIllegalCall with a message naming the call and the phase, and leaves the phase as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "session/session.hpp"
#include "test_support.hpp"

using namespace polycube;
using Phase = Session::Phase;
using Call = Session::Call;
using Code = Session::ErrorCode;

namespace {

std::string somaText() { return polycube::testing::readDefFile("soma.txt"); }

std::string hostileText(const std::string& name) {
    std::ifstream in(std::string(POLYCUBE_HOSTILE_DIR) + "/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

using polycube::testing::stepUntilReady;

// One way to bring a Session into a phase; afterSetup: whether its setup had finished.
struct Variant {
    const char* name;
    Phase phase;
    bool afterSetup;
    std::function<void(Session&)> make;
};

void loaded(Session& s) { ASSERT_TRUE(s.load(somaText(), "soma.txt")) << s.lastError(); }
void started(Session& s) {
    loaded(s);
    ASSERT_TRUE(s.start(0, "-r")) << s.lastError();
}
void readied(Session& s) {
    started(s);
    stepUntilReady(s);
}

const std::vector<Variant>& variants() {
    static const std::vector<Variant> v = {
        {"empty", Phase::kEmpty, false, [](Session&) {}},
        {"loaded", Phase::kLoaded, false, loaded},
        {"setting up", Phase::kSettingUp, false, started},
        {"ready", Phase::kReady, true, readied},
        {"searching", Phase::kSearching, true,
         [](Session& s) {
             readied(s);
             s.step(1);
         }},
        {"finished", Phase::kFinished, true,
         [](Session& s) {
             readied(s);
             while (s.step(1e9) == Session::RUNNING) {
             }
         }},
        {"cancelled in setup", Phase::kCancelled, false,
         [](Session& s) {
             started(s);
             s.cancel();
         }},
        {"cancelled searching", Phase::kCancelled, true,
         [](Session& s) {
             readied(s);
             s.step(1);
             s.cancel();
         }},
        {"failed in setup", Phase::kFailed, false,
         [](Session& s) {
             // too large for memory: refused while the model is counted
             ASSERT_TRUE(s.load(hostileText("random165.txt"), "random165.txt"));
             ASSERT_TRUE(s.start(0, ""));
             while (s.step(1e12) == Session::RUNNING) {
             }
         }},
        {"failed searching", Phase::kFailed, true,
         [](Session& s) {
             readied(s);
             ASSERT_TRUE(s.startSubproblem({0, 0})) << s.lastError();  // no path of this tree
             while (s.step(1e6) == Session::RUNNING) {
             }
         }},
    };
    return v;
}

// Each call with arguments that are right whenever the call is legal.
void invoke(Session& s, Call call) {
    switch (call) {
        case Call::kLoad: s.load(somaText(), "soma.txt"); break;
        case Call::kPuzzleJson: s.puzzleJson(0); break;
        case Call::kBuildOrderJson: {
            // a solution of the loaded puzzle when there is one at hand; a bad grid otherwise
            s.buildOrderJson(0, std::vector<int32_t>(static_cast<size_t>(std::max(s.cellCount(), 1)), 0));
            break;
        }
        case Call::kStart: s.start(0, "-r"); break;
        case Call::kStep: s.step(1); break;
        case Call::kSetTraceLimit: s.setTraceLimit(100); break;
        case Call::kSplitRefusal: s.splitRefusal(); break;
        case Call::kFingerprint: s.fingerprint(); break;
        case Call::kImageCells: s.imageCells(0); break;
        case Call::kImageShapes: s.imageShapes(); break;
        case Call::kInstanceShapes: s.instanceShapes(); break;
        case Call::kCheckResume: s.checkResume("{}"); break;
        case Call::kStartSubproblem: s.startSubproblem({}); break;
        case Call::kDonateJson: s.donateJson(0); break;
        case Call::kStartPlay: s.startPlay(0, {}, "count", 1); break;  // the empty box: how many finishes, at most 1
        case Call::kSolutionsText: s.solutionsText(0, {}, {}); break;  // no solutions: no text, no error
        case Call::kCallCount: break;
    }
}

// What a legal call with invoke()'s arguments answers besides success: buildOrderJson's grid
// of zeros is no solution, and the -r soma search's checkpoint "{}" is none.
Code legalOutcome(Call call, Phase phase) {
    if (call == Call::kBuildOrderJson) return Code::kBadArgument;
    if (call == Call::kCheckResume) return Code::kNotResumable;
    if (call == Call::kStep && phase == Phase::kFailed) return Code::kSearchFailed;
    return Code::kNone;
}

}  // namespace

TEST(SessionTable, EveryCallInEveryPhase) {
    int legalCount = 0, illegalCount = 0;
    for (const Variant& v : variants()) {
        for (int c = 0; c < static_cast<int>(Call::kCallCount); ++c) {
            const Call call = static_cast<Call>(c);
            Session s;
            v.make(s);
            ASSERT_EQ(s.phase(), v.phase) << v.name << ": " << Session::phaseName(s.phase());
            ASSERT_EQ(s.ready(), v.afterSetup) << v.name;
            const bool legal = Session::legal(call, v.phase, v.afterSetup);
            invoke(s, call);
            const std::string where = std::string(Session::callName(call)) + " in " + v.name;
            if (legal) {
                ++legalCount;
                EXPECT_EQ(s.errorCode(), legalOutcome(call, v.phase)) << where << ": " << s.lastError();
            } else {
                ++illegalCount;
                EXPECT_EQ(s.errorCode(), Code::kIllegalCall) << where;
                EXPECT_EQ(s.phase(), v.phase) << where << ": an illegal call changed the phase";
                EXPECT_NE(s.lastError().find(Session::callName(call)), std::string::npos) << where << ": " << s.lastError();
                EXPECT_NE(s.lastError().find(Session::phaseName(v.phase)), std::string::npos) << where << ": " << s.lastError();
            }
        }
    }
    // the table is no formality: both kinds are many
    EXPECT_GT(legalCount, 60);
    EXPECT_GT(illegalCount, 40);
}

// A play question has no search tree: the calls about one are refused while it is on, and a
// start() afterwards searches as usual.
TEST(SessionTable, APlayQuestionRefusesTheCallsAboutASearchTree) {
    Session s;
    ASSERT_TRUE(s.load(somaText(), "soma.txt"));
    ASSERT_TRUE(s.startPlay(0, {}, "count", 5));
    EXPECT_EQ(s.phase(), Phase::kSearching);
    for (int k = 0; k < 3; ++k) {
        switch (k) {
            case 0: s.fingerprint(); break;
            case 1: s.donateJson(0); break;
            case 2: s.imageShapes(); break;
        }
        EXPECT_EQ(s.errorCode(), Code::kIllegalCall) << k;
        EXPECT_NE(s.lastError().find("play question"), std::string::npos) << s.lastError();
    }
    while (s.step(1e6) == Session::RUNNING) {
    }
    EXPECT_EQ(s.phase(), Phase::kFinished);
    ASSERT_TRUE(s.start(0, "-r")) << s.lastError();
    while (s.step(1e6) == Session::RUNNING) {
    }
    EXPECT_FALSE(s.fingerprint().empty()) << s.lastError();
}

// The misuses that used to be absorbed silently.
TEST(SessionTable, MisuseIsAnErrorValue) {
    Session s;
    ASSERT_TRUE(s.load(somaText(), "soma.txt"));
    s.setTraceLimit(10);  // before start: the window would be wiped by start()
    EXPECT_EQ(s.errorCode(), Code::kIllegalCall);
    EXPECT_EQ(s.puzzleJson(3), "");
    EXPECT_EQ(s.errorCode(), Code::kBadArgument);
    EXPECT_EQ(s.lastError(), "no puzzle number 3 (1 loaded)");
    ASSERT_TRUE(s.start(0, "-r -t 1"));
    EXPECT_TRUE(s.imageCells(0).empty());  // before the setup is over
    EXPECT_EQ(s.errorCode(), Code::kIllegalCall);
    EXPECT_EQ(s.donateJson(), "");
    EXPECT_EQ(s.errorCode(), Code::kIllegalCall);
    s.setTraceLimit(10);
    EXPECT_TRUE(s.ok()) << s.lastError();
    while (s.step(1e6) == Session::RUNNING) {
    }
    EXPECT_EQ(s.state(), Session::CANCELLED);
    EXPECT_TRUE(s.traceLimitReached());
    EXPECT_EQ(s.takeTrace(100).size(), 40u);  // the window kept at 10 events
    const int images = static_cast<int>(s.imageShapes().size());
    ASSERT_GT(images, 0);
    EXPECT_FALSE(s.imageCells(images - 1).empty());
    EXPECT_TRUE(s.ok());
    EXPECT_TRUE(s.imageCells(images).empty());
    EXPECT_EQ(s.errorCode(), Code::kBadArgument);
    EXPECT_NE(s.lastError().find("no image number"), std::string::npos) << s.lastError();
}

// A failed call changes nothing that the queries report, and the failure of a search stays
// readable: step() in FAILED gives it again.
TEST(SessionTable, FailureStaysReadable) {
    Session s;
    EXPECT_FALSE(s.load("D:xDim=-1", "bad.txt"));
    EXPECT_EQ(s.errorCode(), Code::kBadDefinition);
    EXPECT_EQ(s.phase(), Phase::kEmpty);
    ASSERT_TRUE(s.load(somaText(), "soma.txt"));
    EXPECT_FALSE(s.start(0, "--no-such-option"));
    EXPECT_EQ(s.errorCode(), Code::kBadOptions);
    EXPECT_EQ(s.phase(), Phase::kLoaded);
    EXPECT_FALSE(s.start(4, "-r"));
    EXPECT_EQ(s.errorCode(), Code::kBadArgument);
    ASSERT_TRUE(s.start(0, "-r"));
    stepUntilReady(s);
    ASSERT_TRUE(s.startSubproblem({0, 0}));
    while (s.step(1e6) == Session::RUNNING) {
    }
    EXPECT_EQ(s.phase(), Phase::kFailed);
    const std::string failure = s.lastError();
    EXPECT_NE(failure.find("not a path of this search"), std::string::npos) << failure;
    s.statsJson();
    s.takeSolutions(10);
    EXPECT_EQ(s.lastError(), failure) << "queries leave the error value as it was";
    EXPECT_EQ(s.step(1), Session::FAILED);
    EXPECT_EQ(s.errorCode(), Code::kSearchFailed);
    EXPECT_EQ(s.lastError(), failure);
}
