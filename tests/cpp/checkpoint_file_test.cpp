// Checkpoint files of format 2 (parallel/checkpoint.hpp): the search's pieces and counts with
// its puzzle and options, so that the file alone resumes it; format 1 files still read; the
// page's piece book converted to the file and back by the engine (session/checkpoint_file.hpp).
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "checkpoint_support.hpp"
#include "common/hash.hpp"
#include "parallel/checkpoint.hpp"
#include "parallel/parallel_search.hpp"
#include "parallel/piece_check.hpp"
#include "session/checkpoint_file.hpp"
#include "session/session.hpp"
#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;
using json = nlohmann::json;

namespace {

// A checkpoint of `file` with `options`, stopped once something is finished and pieces are left.
Checkpoint stoppedMidway(const std::string& file, const std::string& options, std::string& fingerprint) {
    return midwayCheckpoint(loadPuzzle(file), fingerprint, options);
}

CheckpointOrigin originOf(const std::string& file, const std::string& options) {
    return CheckpointOrigin{file, 0, options, readDefFile(file)};
}

// As a forger would: the checksum over the edited text.
std::string resigned(const std::string& body) {
    return body + "checksum " + hex16(hashWords(body.data(), body.size(), 0x636b7074ULL)) + "\n";
}

std::string bodyOf(const std::string& text) { return text.substr(0, text.rfind("checksum ")); }

// The search a checkpoint's origin sets up, resumed from it to the end: its solution count.
long long resumedCount(const Checkpoint& ck) {
    const CheckpointOrigin& o = *ck.origin;
    ParseResult parsed = parseDefinitions(o.definition, o.source);
    EXPECT_TRUE(parsed.ok());
    const PuzzleDef& def = parsed.puzzles.at(static_cast<size_t>(o.puzzle));
    const OptionParse options = parseSearchOptions(o.options);
    EXPECT_TRUE(options.ok()) << options.error;
    auto probe = Solver::create(def, options.options);
    EXPECT_TRUE(probe.ok());
    EXPECT_EQ(searchFingerprint(*probe.value), ck.fingerprint);  // the origin is the same search
    auto made = ParallelSearch::create(def, options.options, 2, std::move(probe.value), &ck);
    EXPECT_TRUE(made.ok()) << made.status.message;
    if (!made.ok()) return -1;
    EXPECT_EQ(made.value->run(), Solver::State::Done);
    return made.value->stats().solutions;
}

}  // namespace

TEST(CheckpointFile, Format2CarriesThePuzzleAndOptionsAndRoundTrips) {
    std::string fp;
    Checkpoint ck = stoppedMidway("pentominoes_10x6.txt", "-r", fp);
    ASSERT_GE(ck.pending.size(), 4u);
    ck.origin = originOf("pentominoes_10x6.txt", "-r");
    const std::string text = encodeCheckpoint(ck);
    EXPECT_EQ(text.rfind("polycube-checkpoint 2\n", 0), 0u);
    Result<Checkpoint> back = decodeCheckpoint(text, fp, "run.ck");
    ASSERT_TRUE(back.ok()) << back.status.message;
    ASSERT_TRUE(back.value.origin.has_value());
    EXPECT_EQ(back.value.origin->definition, readDefFile("pentominoes_10x6.txt"));
    EXPECT_EQ(back.value.origin->options, "-r");
    EXPECT_EQ(back.value.origin->source, "pentominoes_10x6.txt");
    EXPECT_EQ(back.value.origin->puzzle, 0);
    EXPECT_EQ(back.value.pending.size(), ck.pending.size());
    EXPECT_EQ(encodeCheckpoint(back.value), text);  // the text form loses nothing
    // readCheckpoint: the same without knowing the search (the file alone).
    Result<Checkpoint> alone = readCheckpoint(text, "run.ck");
    ASSERT_TRUE(alone.ok());
    EXPECT_EQ(encodeCheckpoint(alone.value), text);
    // Another search's fingerprint is still refused.
    EXPECT_NE(decodeCheckpoint(text, "0123456789abcdef", "run.ck").status.message.find("a checkpoint of another search"), std::string::npos);
}

TEST(CheckpointFile, TheEmbeddedPuzzleAndOptionsResumeToOneRunsCount) {
    std::string fp;
    Checkpoint ck = stoppedMidway("pentominoes_10x6.txt", "-r", fp);
    ck.origin = originOf("pentominoes_10x6.txt", "-r");
    Result<Checkpoint> back = readCheckpoint(encodeCheckpoint(ck), "run.ck");
    ASSERT_TRUE(back.ok()) << back.status.message;
    EXPECT_LT(back.value.finished.solutions, 2339);
    EXPECT_EQ(resumedCount(back.value), 2339);
}

TEST(CheckpointFile, Format1IsStillReadAndWrittenWithoutAnOrigin) {
    std::string fp;
    const Checkpoint ck = stoppedMidway("pentominoes_10x6.txt", "-r", fp);
    const std::string text = encodeCheckpoint(ck);  // (no origin: a --split job's pieces, a result's totals)
    EXPECT_EQ(text.rfind("polycube-checkpoint 1\n", 0), 0u);
    Result<Checkpoint> back = decodeCheckpoint(text, fp, "old.ck");
    ASSERT_TRUE(back.ok()) << back.status.message;
    EXPECT_FALSE(back.value.origin.has_value());
    // A file written by an earlier build (the fuzzer's seed): read, no origin.
    std::ifstream in(std::string(POLYCUBE_DEF_DIR) + "/../fuzz/corpus/own_files/checkpoint-tetriscube-midway", std::ios::binary);
    std::stringstream old;
    old << in.rdbuf();
    ASSERT_EQ(old.str().rfind("polycube-checkpoint 1\n", 0), 0u);
    Result<Checkpoint> seed = readCheckpoint(old.str(), "seed.ck");
    ASSERT_TRUE(seed.ok()) << seed.status.message;
    EXPECT_FALSE(seed.value.origin.has_value());
    EXPECT_FALSE(seed.value.pending.empty());
    // The page cannot open it (no puzzle in it): said, with the command that finishes it.
    const json opened = json::parse(openCheckpointJson(old.str(), "seed.ck"));
    EXPECT_FALSE(opened["ok"].get<bool>());
    EXPECT_NE(opened["error"]["message"].get<std::string>().find("seed.ck: a checkpoint of format 1, which does not hold its puzzle"), std::string::npos)
        << opened.dump();
}

TEST(CheckpointFile, DamagedOrForgedOriginsAreRefusedNamingTheFileAndLine) {
    std::string fp;
    Checkpoint ck = stoppedMidway("pentominoes_10x6.txt", "-r", fp);
    ck.origin = originOf("pentominoes_10x6.txt", "-r");
    const std::string text = encodeCheckpoint(ck);
    const std::string body = bodyOf(text);
    const int optionsLine = 1 + static_cast<int>(std::count(body.begin(), body.begin() + static_cast<long>(body.find("\noptions ")) + 1, '\n'));
    auto refused = [&](const std::string& forged) {
        Result<Checkpoint> r = readCheckpoint(forged, "forged.ck");
        EXPECT_FALSE(r.ok());
        return r.ok() ? std::string() : r.status.message;
    };
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string b = body;
        const size_t at = b.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        b.replace(at, from.size(), to);
        return resigned(b);
    };
    // a flipped byte in the definition: the checksum
    {
        std::string damaged = text;
        damaged[damaged.find("definition ") + 40] ^= 1;
        EXPECT_NE(refused(damaged).find("forged.ck: the checkpoint is damaged"), std::string::npos);
    }
    // the command line's own options: refused, naming the line
    EXPECT_EQ(refused(replaced("options 2\n-r\n", "options 17\n-r --checkpoint x\n")),
              "forged.ck:" + std::to_string(optionsLine) +
                  ": the search's options '-r --checkpoint x' are refused: --checkpoint is an option of the polycube command line, not a search option");
    EXPECT_NE(refused(replaced("options 2\n-r\n", "options 9\n--ordered\n")).find("--ordered is an option of the polycube command line"),
              std::string::npos);
    EXPECT_NE(refused(replaced("options 2\n-r\n", "options 5\n-r\n-q\n")).find("more than one line"), std::string::npos);
    EXPECT_NE(refused(replaced("options 2\n-r\n", "options 4\n-r\n")).find("expected 'options <bytes>'"), std::string::npos);
    // a definition block whose byte count does not match it
    {
        const std::string key = "definition " + std::to_string(ck.origin->definition.size()) + "\n";
        EXPECT_NE(refused(replaced(key, "definition " + std::to_string(ck.origin->definition.size() + 5) + "\n")).find("forged.ck:"),
                  std::string::npos);
        EXPECT_NE(refused(replaced(key, "definition 99999999999\n")).find("expected 'definition <bytes>'"), std::string::npos);
    }
    EXPECT_NE(refused(replaced("puzzle 0\n", "puzzle -1\n")).find("expected 'puzzle"), std::string::npos);
    EXPECT_NE(refused(resigned(body + "extra\n")).find("unexpected line after the definition"), std::string::npos);
    // format 2 without its origin, format 1 with one
    EXPECT_NE(refused(resigned(body.substr(0, body.find("options ")))).find("expected 'options <bytes>'"), std::string::npos);
    {
        std::string b = body;
        b[b.find(' ') + 1] = '1';
        EXPECT_NE(refused(resigned(b)).find("unexpected line after the pieces"), std::string::npos);
    }
}

TEST(CheckpointFile, SearchOptionsTextKeepsOnlyTheSearchsOptions) {
    const OptionParse p = parseOptions({"-q", "-j", "2", "-r", "L", "--checkpoint", "run.ck", "-o", "x:s=20", "-P", "--json", "-t", "-3"},
                                       [](const std::string&) { return false; });
    ASSERT_TRUE(p.ok()) << p.error;
    const std::string text = searchOptionsText(p);
    EXPECT_EQ(text, "-r L -o x:s=20 -P -t -3");
    const OptionParse back = parseSearchOptions(text);
    ASSERT_TRUE(back.ok()) << back.error;
    EXPECT_EQ(back.options.redundancyPiece, "L");
    EXPECT_EQ(back.options.order, "x:s=20");
    EXPECT_EQ(back.options.trace, -3);
}

TEST(CheckpointFile, ThePagesPieceBookBecomesTheFileAndComesBack) {
    std::string fp;
    Checkpoint ck = stoppedMidway("pentominoes_10x6.txt", "-r", fp);
    const std::string book = pieceBookJson(ck);
    Result<Checkpoint> fromBook = pieceBookCheckpoint(book, "the kept search");
    ASSERT_TRUE(fromBook.ok()) << fromBook.status.message;
    EXPECT_EQ(encodeCheckpoint(fromBook.value), encodeCheckpoint(ck));  // nothing lost either way

    const json kept = {{"definition", readDefFile("pentominoes_10x6.txt")}, {"source", "pentominoes_10x6.txt"}, {"puzzle", 0},
                       {"options", "-r"}, {"checkpoint", json::parse(book)}};
    const json file = json::parse(Session::checkpointFileJson(kept.dump()));
    ASSERT_TRUE(file["ok"].get<bool>()) << file.dump();
    const std::string text = file["text"].get<std::string>();
    Result<Checkpoint> decoded = decodeCheckpoint(text, fp, "kept.ck");
    ASSERT_TRUE(decoded.ok()) << decoded.status.message;
    EXPECT_EQ(resumedCount(decoded.value), 2339);

    const json opened = json::parse(Session::openCheckpointJson(text, "kept.ck"));
    ASSERT_TRUE(opened["ok"].get<bool>()) << opened.dump();
    EXPECT_EQ(opened["options"], "-r");
    EXPECT_EQ(opened["puzzle"], 0);
    EXPECT_EQ(opened["source"], "pentominoes_10x6.txt");
    EXPECT_EQ(opened["definition"], kept["definition"]);
    EXPECT_EQ(opened["checkpoint"], json::parse(book));
    // The engine's checks of a resume accept what came back.
    Session s;
    ASSERT_TRUE(s.load(opened["definition"].get<std::string>(), "pentominoes_10x6.txt"));
    ASSERT_TRUE(s.start(0, opened["options"].get<std::string>()));
    while (!s.ready() && s.step(1e6) == Session::RUNNING) {
    }
    EXPECT_EQ(s.fingerprint(), fp);
    EXPECT_TRUE(s.checkResume(opened["checkpoint"].dump())) << s.lastError();

    // Refused both ways, saying what is wrong: options of the command line, a damaged piece book,
    // a damaged file.
    json bad = kept;
    bad["options"] = "-r --progress";
    EXPECT_NE(json::parse(Session::checkpointFileJson(bad.dump()))["error"]["message"].get<std::string>().find("--progress is an option of the polycube command line"),
              std::string::npos);
    bad = kept;
    bad["checkpoint"]["pending"].push_back(bad["checkpoint"]["pending"][0]);
    EXPECT_NE(json::parse(Session::checkpointFileJson(bad.dump()))["error"]["message"].get<std::string>().find("the kept search: piece"), std::string::npos);
    EXPECT_FALSE(json::parse(Session::checkpointFileJson("[1,2"))["ok"].get<bool>());
    std::string damaged = text;
    damaged[damaged.find("piece ") + 8] ^= 1;
    EXPECT_NE(json::parse(Session::openCheckpointJson(damaged, "kept.ck"))["error"]["message"].get<std::string>().find("kept.ck: the checkpoint is damaged"),
              std::string::npos);
    EXPECT_NE(json::parse(Session::openCheckpointJson("not a checkpoint\n", "x.ck"))["error"]["message"].get<std::string>().find("x.ck"), std::string::npos);
}
