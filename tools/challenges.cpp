// polycube-challenges: the library's challenges (engine/play/challenge.hpp), as JSON on
// standard output; scripts/make-challenges.sh writes them to def/challenges.json.
//
//   polycube-challenges [--per N] [--candidates C] [--solutions S] def/pentominoes_10x6.txt ...
//
// For each file (its first puzzle): the first S solutions up to rotation (-r -l S); from C of
// them, spread over that list, each with its own order of pieces (seeds 1..C), a minimal start
// position with one finish, and an easier one (up to two more pieces of the same solution given,
// leaving at least three to place).
// Of these, N with different given pieces, spread from the smallest search to the largest,
// ordered by the size of their search (placements). Deterministic: the same engine writes
// the same file.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "play/challenge.hpp"
#include "play/play.hpp"
#include "puzzle/puzzle.hpp"
#include "solver/options.hpp"
#include "solver/solver.hpp"

using namespace polycube;
using json = nlohmann::json;

namespace {

struct Candidate {
    std::vector<Placement> given;
    long long placements = 0;
};

std::vector<std::vector<int>> firstSolutions(const PuzzleDef& def, int count) {
    SolverOptions o;
    o.redundancy = Redundancy::Auto;
    o.maxSolutions = count;
    std::vector<std::vector<int>> grids;
    auto s = Solver::create(def, o);
    if (!s.ok()) {
        std::cerr << "  " << s.status.message << "\n";
        return grids;
    }
    s.value->setSolutionHandler([&](const Solution& sol) { grids.push_back(sol.grid); });
    while (s.value->step(1 << 22) == Solver::State::Running) {
    }
    return grids;
}

std::set<std::vector<int>> key(const std::vector<Placement>& given) {
    std::set<std::vector<int>> k;
    for (Placement p : given) {
        std::sort(p.cells.begin(), p.cells.end());
        p.cells.insert(p.cells.begin(), p.instance);
        k.insert(p.cells);
    }
    return k;
}

json challengesOf(const PuzzleDef& def, const std::string& stem, int per, int candidates, int solutions) {
    const std::vector<std::vector<int>> grids = firstSolutions(def, solutions);
    json out = json::array();
    if (grids.empty()) return out;
    std::vector<Candidate> found;
    for (int c = 0; c < candidates; ++c) {
        const std::vector<int>& grid = grids[static_cast<size_t>(c) * grids.size() / static_cast<size_t>(candidates)];
        const std::vector<Placement> pieces = placementsOfGrid(def, grid);
        const std::vector<int> order = shuffledOrder(static_cast<int>(pieces.size()), static_cast<uint64_t>(c + 1));
        auto made = challengeFromSolution(def, grid, order);
        if (!made.ok()) {
            std::cerr << "  " << made.status.message << "\n";
            continue;
        }
        found.push_back({made.value.given, made.value.placements});
        // easier: up to two more of the solution's pieces given (the first of the order not
        // given yet), leaving at least three to place
        std::vector<Placement> more = made.value.given;
        std::set<int> taken;
        for (const Placement& p : more) taken.insert(p.instance);
        const int extra = std::min(2, static_cast<int>(pieces.size() - more.size()) - 3);
        int added = 0;
        for (int k : order) {
            if (added >= extra) break;
            if (taken.count(pieces[static_cast<size_t>(k)].instance) > 0) continue;
            more.push_back(pieces[static_cast<size_t>(k)]);
            ++added;
        }
        auto count = countCompletions(def, more, 1);
        if (added > 0 && count.ok() && count.value.completions == 1 && !count.value.capped)
            found.push_back({more, count.value.placements});
        std::cerr << "  candidate " << c + 1 << ": " << made.value.given.size() << " given, " << made.value.placements
                  << " placements\n";
    }
    std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.placements < b.placements; });
    std::vector<Candidate> distinct;
    std::set<std::set<std::vector<int>>> seen;
    for (const Candidate& c : found)
        if (seen.insert(key(c.given)).second) distinct.push_back(c);
    std::vector<size_t> picks;
    const size_t n = distinct.size(), want = std::min(n, static_cast<size_t>(per));
    for (size_t i = 0; i < want; ++i) {
        const size_t at = want == 1 ? 0 : (i * (n - 1) + (want - 1) / 2) / (want - 1);
        if (picks.empty() || picks.back() != at) picks.push_back(at);
    }
    int number = 0;
    for (size_t at : picks) {
        const Candidate& c = distinct[at];
        json given = json::array();
        for (Placement p : c.given) {
            std::sort(p.cells.begin(), p.cells.end());
            p.cells.insert(p.cells.begin(), p.instance);
            given.push_back(p.cells);
        }
        out.push_back({{"id", stem + "-" + std::to_string(++number)},
                       {"grade", challengeGrade(c.placements)},
                       {"placements", c.placements},
                       {"given", given}});
    }
    return out;
}

int usage() {
    std::cerr << "usage: polycube-challenges [--per N] [--candidates C] [--solutions S] FILE...\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    int per = 5, candidates = 8, solutions = 100;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        int* target = a == "--per" ? &per : a == "--candidates" ? &candidates : a == "--solutions" ? &solutions : nullptr;
        if (target) {
            if (i + 1 >= argc || std::atoi(argv[i + 1]) < 1) return usage();
            *target = std::atoi(argv[++i]);
        } else if (!a.empty() && a[0] == '-') {
            return usage();
        } else {
            files.push_back(a);
        }
    }
    if (files.empty()) return usage();
    json puzzles = json::array();
    for (const std::string& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        const std::string file = path.substr(path.find_last_of('/') + 1);
        ParseResult r = parseDefinitions(text.str(), file);
        if (!in || !r.ok() || r.puzzles.empty()) {
            std::cerr << path << ": " << (r.ok() ? "cannot read it" : r.error.format()) << "\n";
            return 1;
        }
        std::cerr << file << "\n";
        const std::string stem = file.substr(0, file.rfind(".txt"));
        json list = challengesOf(r.puzzles.front(), stem, per, candidates, solutions);
        if (list.empty()) {
            std::cerr << "  no solution found: no challenges\n";
            continue;
        }
        puzzles.push_back({{"file", file}, {"puzzle", 0}, {"challenges", list}});
    }
    // one challenge a line: a readable diff when they are made again
    std::cout << "{\"version\": 1, \"puzzles\": [\n";
    for (size_t p = 0; p < puzzles.size(); ++p) {
        const json& e = puzzles[p];
        std::cout << "  {\"file\": " << e["file"].dump() << ", \"puzzle\": 0, \"challenges\": [\n";
        for (size_t c = 0; c < e["challenges"].size(); ++c)
            std::cout << "    " << e["challenges"][c].dump() << (c + 1 < e["challenges"].size() ? ",\n" : "\n");
        std::cout << "  ]}" << (p + 1 < puzzles.size() ? ",\n" : "\n");
    }
    std::cout << "]}\n";
    return 0;
}
