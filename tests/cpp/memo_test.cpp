// The memoized counter (engine/memo/memo_counter.hpp) counts what the enumerating search
// counts: the corpus and the families against their catalogs (each count there confirmed by
// the enumerating search), random small puzzles against the enumerating search itself (copies,
// stationary cells, one-sided sets, boxes of two layers; with -r, -r NAME and -r -M), both ways
// (layer by layer, the default, and the table's search), layers past their budget left to the
// table, the layers' threads, ways too large to pack beside their key, a table too small to
// keep much (eviction), slices and cancel, and budgets out of range.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <nlohmann/json.hpp>

#include "memo/cover_problem.hpp"
#include "memo/memo_counter.hpp"
#include "memo/sweep_state.hpp"
#include "memo/window_rows.hpp"
#include "test_support.hpp"

namespace polycube {
namespace {

using testing::loadPuzzle;
using testing::readDefFile;

struct MemoRun {
    MemoCounter::State state = MemoCounter::State::Running;
    uint64_t count = 0;
    std::string error;
    MemoStats stats;
};


// Counts in slices of `slice` image attempts; with `maxAttempts`, gives up (state Running)
// after about that many: the tests bound their work by a count, not by a clock.
MemoRun memoCount(const PuzzleDef& def, const MemoSettings& settings, long long slice = 1 << 20,
                  long long maxAttempts = 0) {
    MemoRun out;
    std::unique_ptr<MemoCounter> c = MemoCounter::begin(def, settings);
    while ((out.state = c->step(slice)) == MemoCounter::State::Running) {
        if (maxAttempts > 0 && c->stats().attempts > maxAttempts) break;
    }
    out.count = c->count();
    out.error = c->error();
    out.stats = c->stats();
    return out;
}

MemoRun memoCount(const PuzzleDef& def, const std::string& options) { return memoCount(def, testing::memoSettingsFrom(options)); }

// Work per puzzle in the corpus and family tests: a count past it is left out (said, and the
// number left out is bounded). The 3-D boxes of 12 distinct pentacubes have too many
// subproblems for a test (bench/MEMO.md).
constexpr long long kTestAttempts = 40'000'000;
constexpr long long kFamilyAttempts = 8'000'000;  // 69 puzzles

// Both ways: layer by layer (the default) and by the table's search.
TEST(Memo, CorpusCountsEqualTheCatalogAndTheEnumeratingSearch) {
    int checked = 0, leftOut = 0;
    testing::forEachFastCount([&](const std::string& file, const PuzzleDef& def, const std::string& options, uint64_t count) {
        const long long enumerated = testing::solve(def, options).count;
        for (const bool layered : {true, false}) {
            SCOPED_TRACE(file + " " + options + (layered ? " (layers)" : " (table)"));
            MemoSettings settings = testing::memoSettingsFrom(options);
            settings.layered = layered;
            const MemoRun got = memoCount(def, settings, 1 << 20, kTestAttempts);
            if (got.state == MemoCounter::State::Running) {
                std::printf("left out (past the test's work): %s %s %s\n", file.c_str(), options.c_str(), layered ? "layers" : "table");
                ++leftOut;
                continue;
            }
            ASSERT_EQ(got.state, MemoCounter::State::Done) << got.error;
            EXPECT_EQ(got.count, count);
            EXPECT_EQ(static_cast<long long>(got.count), enumerated);
            if (got.stats.terms > 0 && layered) EXPECT_EQ(got.stats.layeredTerms, got.stats.terms);
            ++checked;
        }
    });
    EXPECT_GE(checked, 32);
    EXPECT_LE(leftOut, 4);
}

// Keys of more than one word (30 straight pentominoes in a 5x5x6 box: a row reaches 101 cells
// along the sweep, the key takes 111 bits), plain and through the Burnside terms of -r and
// -r -M (the orbit rows): both ways count what the enumerating search counts.
TEST(Memo, KeysOfTwoWordsCountAsTheEnumeratingSearch) {
    ParseResult parsed = parseDefinitions("D:xDim=5:yDim=5:zDim=6\nC:name=I:count=30:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0, 4 0 0\n~D\n", "i5");
    ASSERT_TRUE(parsed.ok());
    const PuzzleDef& def = parsed.puzzles.front();
    Result<Model> model = Model::build(def);
    ASSERT_TRUE(model.ok()) << model.status.message;
    const std::vector<char> allowed(model.value.images.size(), 1);
    Result<CoverProblem> problem = buildCoverProblem(model.value, sweepOrder(model.value), allowed, nullptr);
    ASSERT_TRUE(problem.ok());
    EXPECT_EQ(problem.value.keyWords, 2);
    for (const std::string options : {"", "-r", "-r -M"}) {
        const long long want = testing::solve(def, options).count;
        EXPECT_GT(want, 100);
        for (const bool layered : {true, false}) {
            SCOPED_TRACE(options + (layered ? " (layers)" : " (table)"));
            MemoSettings settings = testing::memoSettingsFrom(options);
            settings.layered = layered;
            const MemoRun got = memoCount(def, settings, 997);
            ASSERT_EQ(got.state, MemoCounter::State::Done) << got.error;
            EXPECT_EQ(static_cast<long long>(got.count), want);
            if (layered) EXPECT_EQ(got.stats.layeredTerms, got.stats.terms);
        }
    }
}

// The layered count reads a subproblem's copies from its key (RowIndex::keyHasCopies, one mask
// per field): for every row it agrees with the copies unpacked (SweepState::loadCopies), which
// round-trip through the key, on fields of several bits (copies), keys of two words, and 28
// shapes whose fields would straddle the key's first word (their block starts the second).
TEST(Memo, CopiesReadFromTheKeyAgreeWithTheUnpackedCopies) {
    // (28 distinct shapes, two copies each: a bar of L cells with one cell on top of its k-th,
    // k in the bar's first half; equal layouts would be one shape. 444 cells: the key's
    // position takes 9 bits, and the 28 fields of 2 bits after it would put the last one
    // across bits 63 and 64.)
    std::string bars;
    int volume = 0, shapes = 0;
    for (int length = 2; shapes < 28; ++length)
        for (int k = 0; k < (length + 1) / 2 && shapes < 28; ++k, ++shapes) {
            bars += "C:name=B" + std::to_string(shapes) + ":count=2:layout=" + std::to_string(k) + " 1 0";
            for (int x = 0; x < length; ++x) bars += ", " + std::to_string(x) + " 0 0";
            bars += "\n";
            volume += 2 * (length + 1);
        }
    bars = "D:xDim=" + std::to_string(volume / 2) + ":yDim=2:zDim=1\n" + bars + "~D\n";
    const std::string cases[] = {
        readDefFile("copies/trominoes_9x6.txt"),
        "D:xDim=5:yDim=5:zDim=6\nC:name=I:count=30:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0, 4 0 0\n~D\n",
        bars,
    };
    std::mt19937 rng(11);
    int straddlesMoved = 0;
    for (const std::string& text : cases) {
        ParseResult parsed = parseDefinitions(text, "case");
        ASSERT_TRUE(parsed.ok());
        Result<Model> model = Model::build(parsed.puzzles.front());
        ASSERT_TRUE(model.ok()) << model.status.message;
        const std::vector<char> allowed(model.value.images.size(), 1);
        Result<CoverProblem> built = buildCoverProblem(model.value, sweepOrder(model.value), allowed, nullptr);
        ASSERT_TRUE(built.ok());
        const CoverProblem& p = built.value;
        SCOPED_TRACE(std::to_string(p.shapes) + " shapes, key of " + std::to_string(p.keyWords) + " words");
        for (int w = 0; w < p.countWords; ++w) {
            EXPECT_LE(p.countAt[w] % 64 + p.countBits[w], 64);
            straddlesMoved += p.countAt[w] != (w == 0 ? p.positionBits : p.countAt[w - 1] + p.countBits[w - 1]);
        }
        const RowIndex index(p);
        SweepState state;
        state.reset(p);
        for (int trial = 0; trial < 300; ++trial) {
            std::vector<int> left(static_cast<size_t>(p.shapes));
            std::vector<uint64_t> packed(static_cast<size_t>(p.countWords), 0);
            for (int s = 0; s < p.shapes; ++s) {
                // (mostly the full count or none: rows then both pass and fail)
                const int r = static_cast<int>(rng() % 4);
                left[s] = r == 0 ? 0 : r == 1 ? p.startCount[s] : static_cast<int>(rng() % (p.startCount[s] + 1));
                packed[p.fieldWord[s]] |= static_cast<uint64_t>(left[s]) << p.fieldShift[s];
            }
            std::vector<uint64_t> key(static_cast<size_t>(p.keyWords), 0);
            putCopies(p, packed.data(), key.data());
            state.loadCopies(key.data());
            ASSERT_EQ(state.left, left);
            for (int r = 0; r < p.rows(); ++r)
                ASSERT_EQ(index.keyHasCopies(key.data(), r), index.copiesLeft(left.data(), r)) << "row " << r << ", trial " << trial;
        }
    }
    EXPECT_EQ(straddlesMoved, 1);  // (the 28 shapes')
}

// Layers that pass the budget give the term to the table's search, which counts it exactly
// (and forgets what it must); within the budget the layers count every term.
TEST(Memo, LayersPastTheBudgetLeaveTheTermToTheTable) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    const MemoRun roomy = memoCount(def, testing::memoSettingsFrom("-r", 64LL << 20));
    ASSERT_EQ(roomy.state, MemoCounter::State::Done) << roomy.error;
    EXPECT_EQ(roomy.count, 2339u);
    EXPECT_EQ(roomy.stats.layeredTerms, roomy.stats.terms);
    EXPECT_EQ(roomy.stats.fallbackTerms, 0);
    EXPECT_GT(roomy.stats.subproblems, 10000);
    EXPECT_LE(roomy.stats.layerBytes, 64LL << 20);
    EXPECT_EQ(roomy.stats.lookups, 0);  // (no table)

    const MemoRun tight = memoCount(def, testing::memoSettingsFrom("-r", 256 << 10));
    ASSERT_EQ(tight.state, MemoCounter::State::Done) << tight.error;
    EXPECT_EQ(tight.count, 2339u);
    EXPECT_GE(tight.stats.fallbackTerms, 1);
    EXPECT_EQ(tight.stats.layeredTerms + tight.stats.fallbackTerms, tight.stats.terms);
    EXPECT_GT(tight.stats.lookups, 0);
    EXPECT_LE(tight.stats.layerBytes, 256 << 10);
    EXPECT_LE(tight.stats.tableBytes, 256 << 10);
}

// The layered count's threads share each layer: the same count and the same subproblems on
// any number of threads, in any slices.
TEST(Memo, LayeredThreadsCountWhatOneThreadCounts) {
    for (const auto& [file, options, want] : {std::tuple<const char*, const char*, uint64_t>{"pentominoes_10x6.txt", "-r", 2339},
                                              {"soma.txt", "", 11520},
                                              {"copies/dominoes_8x8.txt", "", 12988816}}) {
        SCOPED_TRACE(std::string(file) + " " + options);
        const PuzzleDef def = loadPuzzle(file);
        const MemoRun one = memoCount(def, testing::memoSettingsFrom(options));
        ASSERT_EQ(one.state, MemoCounter::State::Done) << one.error;
        EXPECT_EQ(one.count, want);
        for (const int threads : {2, 3}) {
            MemoSettings settings = testing::memoSettingsFrom(options);
            settings.threads = threads;
            const MemoRun many = memoCount(def, settings, threads == 2 ? 5000 : 1 << 20);
            ASSERT_EQ(many.state, MemoCounter::State::Done) << many.error;
            EXPECT_EQ(many.count, want);
            EXPECT_EQ(many.stats.subproblems, one.stats.subproblems);
            EXPECT_EQ(many.stats.placements, one.stats.placements);
        }
    }
}

// A layer's entry keeps its ways beside its key when they fit in the bits the key leaves, else
// at its chunk's far end (layer_sort.hpp's EntryPacking). 64 bars of 1x4 in a 16x16 board:
// keys of about 50 bits and subproblems reached in more than 2^14 ways, so both kinds are
// written (half a million of the second kind); on one thread and on two the count is the
// table's search's (4,741,673,762).
TEST(Memo, WaysTooLargeToPackBesideTheKeyCountExactly) {
    const PuzzleDef def = testing::parsePuzzle("D:xDim=16:yDim=16:zDim=1\nC:name=I:count=64:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0\n~D\n");
    const MemoRun table = memoCount(def, testing::tableSettingsFrom(""));
    ASSERT_EQ(table.state, MemoCounter::State::Done) << table.error;
    for (const int threads : {1, 2}) {
        MemoSettings settings = testing::memoSettingsFrom("");
        settings.threads = threads;
        const MemoRun layers = memoCount(def, settings);
        ASSERT_EQ(layers.state, MemoCounter::State::Done) << layers.error;
        EXPECT_EQ(layers.stats.layeredTerms, layers.stats.terms);
        EXPECT_EQ(layers.count, table.count) << threads << " thread(s)";
        EXPECT_GT(layers.stats.farEntries, 1000) << threads << " thread(s)";
    }
}

// The puzzles of def/impossible have no solution: the memoized count says 0, proved before
// counting like the enumerating search (the same proofs) or counted.
TEST(Memo, ImpossiblePuzzlesCountZero) {
    for (const char* file : {"impossible/bars_10x10.txt", "impossible/pentominoes_two_nooks.txt", "impossible/skew_tetrominoes_4x4.txt",
                             "impossible/trominoes_8x8_notch.txt", "impossible/two_t_tetrominoes.txt",
                             "impossible/pentacube_ring_5x13.txt", "hexominoes_rect_15x14.txt"}) {
        SCOPED_TRACE(file);
        const MemoRun got = memoCount(loadPuzzle(file), testing::memoSettingsFrom("-r"), 1 << 20, kTestAttempts);
        ASSERT_EQ(got.state, MemoCounter::State::Done) << got.error;
        EXPECT_EQ(got.count, 0u);
    }
}

// Every piece constrained in turn: the same classes, whichever piece (some keep symmetric
// images, counted by the Burnside terms).
TEST(Memo, EveryConstrainedPieceGivesTheSameCount) {
    for (const auto& [file, want] : {std::pair<const char*, uint64_t>{"soma.txt", 480}, {"lesson_symmetry_4x3.txt", 7}}) {
        const PuzzleDef def = loadPuzzle(file);
        for (const PieceDef& piece : def.pieces) {
            SCOPED_TRACE(std::string(file) + " -r " + piece.name);
            const MemoRun got = memoCount(def, "-r " + piece.name);
            ASSERT_EQ(got.state, MemoCounter::State::Done) << got.error;
            EXPECT_EQ(got.count, want);
        }
    }
}

TEST(Memo, FamilyCountsEqualTheCatalog) {
    const nlohmann::json catalog = nlohmann::json::parse(readDefFile("families/catalog.json"));
    int checked = 0, leftOut = 0;
    for (const auto& entry : catalog) {
        const std::string file = "families/" + entry["file"].get<std::string>();
        SCOPED_TRACE(file);
        const MemoRun got = memoCount(loadPuzzle(file), testing::memoSettingsFrom("-r"), 1 << 20, kFamilyAttempts);
        if (got.state == MemoCounter::State::Running) {
            ++leftOut;
            continue;
        }
        ASSERT_EQ(got.state, MemoCounter::State::Done) << got.error;
        EXPECT_EQ(got.count, entry["counts"]["-r"].get<uint64_t>());
        ++checked;
    }
    std::printf("families: %d counted, %d left out (past the test's work)\n", checked, leftOut);
    EXPECT_GE(checked, 30);
}

// Random small puzzles, generated here from a fixed seed: polyominoes and a few polycubes of 2
// to 5 cells with up to 3 copies, on boxes of one or two layers with stationary cells, some
// one-sided. The memoized count equals the enumerating search's with no filter, with -r (the
// automatic piece and the last piece by name) and with -r -M.
TEST(Memo, RandomPuzzlesCountAsTheEnumeratingSearch) {
    const std::vector<std::string> shapes = {
        "0 0 0, 1 0 0",
        "0 0 0, 1 0 0, 2 0 0",
        "0 0 0, 1 0 0, 0 1 0",
        "0 0 0, 1 0 0, 2 0 0, 3 0 0",
        "0 0 0, 1 0 0, 2 0 0, 1 1 0",
        "0 0 0, 1 0 0, 1 1 0, 2 1 0",
        "0 0 0, 1 0 0, 2 0 0, 0 1 0",
        "0 0 0, 1 0 0, 0 1 0, 1 1 0",
        "0 0 0, 1 0 0, 2 0 0, 0 1 0, 0 2 0",
        "0 0 0, 1 0 0, 2 0 0, 1 1 0, 1 2 0",
        "0 0 0, 1 0 0, 1 1 0, 2 1 0, 2 2 0",
        "0 0 0, 1 0 0, 2 0 0, 3 0 0, 1 1 0",
        "1 0 0, 0 1 0, 1 1 0, 2 1 0, 1 2 0",
        "0 0 0, 1 0 0, 0 1 0, 0 0 1",  // a corner of the cube (3-D)
        "0 0 0, 1 0 0, 1 1 0, 1 1 1",  // a screw (3-D, chiral)
    };
    const int kPuzzles = testing::kReducedRun ? 300 : 1500;
    std::mt19937 rng(30);
    int made = 0, solvable = 0, withMirror = 0;
    long long solutions = 0;
    while (made < kPuzzles) {
        const bool layers = rng() % 4 == 0;
        const int w = 2 + rng() % 4, h = 2 + rng() % (layers ? 2 : 4), d = layers ? 2 : 1;
        const int cells = w * h * d;
        std::vector<char> blocked(cells, 0);
        int open = cells;
        const int blocks = rng() % 4;
        for (int b = 0; b < blocks; ++b) {
            const int c = rng() % cells;
            if (!blocked[c]) blocked[c] = 1, open--;
        }
        const bool oneSided = rng() % 5 == 0;
        std::string text = "D:xDim=" + std::to_string(w) + ":yDim=" + std::to_string(h) + ":zDim=" + std::to_string(d) +
                           (oneSided ? ":oneSide=true" : "") + "\n";
        int volume = 0, piece = 0;
        while (volume < open) {
            const size_t pick = rng() % shapes.size();
            if (pick >= 13 && d == 1) continue;
            const std::string& shape = shapes[pick];
            const int size = static_cast<int>(std::count(shape.begin(), shape.end(), ',')) + 1;
            if (volume + size > open) {
                if (open - volume < 2) break;
                continue;
            }
            const int copies = 1 + rng() % 3;
            int take = 0;
            while (take < copies && volume + size <= open) volume += size, take++;
            text += "C:name=P" + std::to_string(piece++) + ":count=" + std::to_string(take) + ":layout=" + shape + "\n";
        }
        if (volume != open) continue;
        std::string stationary;
        for (int c = 0; c < cells; ++c)
            if (blocked[c])
                stationary += (stationary.empty() ? "" : ", ") + std::to_string(c % w) + " " + std::to_string(c / w % h) + " " +
                              std::to_string(c / (w * h));
        if (!stationary.empty()) text += "C:name=*:type=S:layout=" + stationary + "\n";
        text += "~D\n";
        ParseResult r = parseDefinitions(text, "random");
        if (!r.ok()) continue;
        const PuzzleDef& def = r.puzzles.front();
        ++made;
        SCOPED_TRACE(text);
        std::vector<std::string> optionSets = {"", "-r", "-r -M"};
        // The last piece by name, when it has one copy (a piece of copies cannot be constrained:
        // both searches must say so).
        optionSets.push_back("-r P" + std::to_string(piece - 1));
        for (const std::string& options : optionSets) {
            SCOPED_TRACE(options);
            const testing::RunResult want = testing::solve(def, options);
            MemoSettings settings = testing::memoSettingsFrom(options);
            settings.layered = made % 4 != 0;  // (every fourth by the table's search)
            const MemoRun got = memoCount(def, settings);
            if (!want.error.empty()) {
                EXPECT_EQ(got.state, MemoCounter::State::Failed) << want.error;
                EXPECT_FALSE(got.error.empty());
                continue;
            }
            ASSERT_EQ(got.state, MemoCounter::State::Done) << got.error;
            EXPECT_EQ(static_cast<long long>(got.count), want.count);
            if (options.empty()) {
                solutions += want.count;
                if (want.count > 0) ++solvable;
            }
            if (options == "-r -M") ++withMirror;
        }
    }
    std::printf("random puzzles: %d, %d with solutions (%lld in all), %d counted with -r -M\n", made, solvable, solutions,
                withMirror);
    EXPECT_GT(solvable, kPuzzles / 5);
    EXPECT_GT(withMirror, kPuzzles / 4);
}

// A table of a few buckets: almost every subproblem is forgotten and counted again, the counts
// stay exact.
TEST(Memo, ATinyTableEvictsAndStillCountsExactly) {
    const PuzzleDef def = loadPuzzle("soma.txt");
    for (const auto& [options, want] : {std::pair<const char*, uint64_t>{"-r", 480}, {"", 11520}}) {
        const MemoRun got = memoCount(def, testing::tableSettingsFrom(options, 8 << 10));
        ASSERT_EQ(got.state, MemoCounter::State::Done) << got.error;
        EXPECT_EQ(got.count, want);
        EXPECT_GT(got.stats.evictions, 1000);
        EXPECT_LE(got.stats.tableBytes, 8 << 10);
        EXPECT_GT(got.stats.hits, 0);
    }
    // With room for everything, nothing is evicted.
    const MemoRun roomy = memoCount(def, testing::tableSettingsFrom("-r", 64LL << 20));
    EXPECT_EQ(roomy.count, 480u);
    // Every subproblem not found is stored once: kept, or in the place of one forgotten.
    EXPECT_EQ(roomy.stats.misses(), roomy.stats.entries + roomy.stats.evictions);
    EXPECT_LT(roomy.stats.evictions * 10, roomy.stats.entries);  // (a few buckets overflow before the table is half full)
}

TEST(Memo, SlicesAndCancel) {
    const PuzzleDef def = loadPuzzle("solid_pentominoes_2x3x10.txt");
    const MemoRun whole = memoCount(def, testing::memoSettingsFrom("-r -M"));
    const MemoRun sliced = memoCount(def, testing::memoSettingsFrom("-r -M"), 7);
    EXPECT_EQ(whole.count, 12u);
    EXPECT_EQ(sliced.count, 12u);
    EXPECT_EQ(sliced.stats.placements, whole.stats.placements);
    EXPECT_EQ(sliced.stats.hits, whole.stats.hits);

    std::unique_ptr<MemoCounter> c = MemoCounter::begin(loadPuzzle("soma.txt"), testing::memoSettingsFrom(""));
    while (!c->ready()) ASSERT_EQ(c->step(1000), MemoCounter::State::Running);
    ASSERT_EQ(c->step(1000), MemoCounter::State::Running);
    const double part = c->fractionDone();
    EXPECT_GT(part, 0);
    EXPECT_LT(part, 1);
    c->cancel();
    EXPECT_EQ(c->step(1000), MemoCounter::State::Cancelled);
    EXPECT_EQ(c->state(), MemoCounter::State::Cancelled);
}

TEST(Memo, BudgetsOutOfRangeAreRefusedWithAMessage) {
    const PuzzleDef def = loadPuzzle("lesson_tiny_4x3.txt");
    for (long long bytes : {0LL, -5LL, (kMemoMaxMb << 20) + 1}) {
        const MemoRun got = memoCount(def, testing::memoSettingsFrom("", bytes));
        EXPECT_EQ(got.state, MemoCounter::State::Failed);
        EXPECT_NE(got.error.find("budget"), std::string::npos) << got.error;
    }
    const MemoRun tiny = memoCount(def, testing::memoSettingsFrom("", 16));
    EXPECT_EQ(tiny.state, MemoCounter::State::Failed);
    EXPECT_NE(tiny.error.find("not even one bucket"), std::string::npos) << tiny.error;

    for (const char* words : {"--memo-mb 0", "--memo-mb -1", "--memo-mb 1048577", "--memo-mb 99999999999999999999",
                              "--memo-mb lots", "--memo-mb"}) {
        OptionParse p = parseOptions(splitWords(words), [](const std::string&) { return false; });
        EXPECT_FALSE(p.ok()) << words;
        EXPECT_NE(p.error.find("--memo-mb"), std::string::npos) << p.error;
    }
    OptionParse ok = parseOptions(splitWords("--memo --memo-mb 64 -q"), [](const std::string&) { return false; });
    ASSERT_TRUE(ok.ok()) << ok.error;
    EXPECT_TRUE(ok.options.memo);
    EXPECT_EQ(ok.options.memoMb, 64);
}

// Errors of -r and -M are the enumerating search's: a piece not in the puzzle, a stationary
// piece, a set not closed under mirroring.
TEST(Memo, RedundancyErrorsAreSaid) {
    const PuzzleDef def = loadPuzzle("pentominoes_1s_18x5.txt");
    EXPECT_NE(memoCount(def, "-r Q").error.find("no piece named"), std::string::npos);
    const PuzzleDef tiny = loadPuzzle("lesson_tiny_4x3.txt");
    const MemoRun one = memoCount(testing::parsePuzzle("D:xDim=3:yDim=1:zDim=1:oneSide=true\nC:name=A:layout=0 0 0, 1 0 0\n"
                                                       "C:name=S:type=S:layout=0 0 0\n~D\n"),
                                  "-r S");
    EXPECT_NE(one.error.find("stationary"), std::string::npos) << one.error;
    EXPECT_EQ(memoCount(tiny, "-r").count, 1u);
}

}  // namespace
}  // namespace polycube
