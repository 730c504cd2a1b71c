// polycube: the native command-line solver. Reads the reference solver's definition files
// and speaks its option language (see `polycube --help` and README.md).
#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <thread>

#include "output/format.hpp"
#include "parallel/parallel_search.hpp"
#include "puzzle/puzzle.hpp"
#include "solver/options.hpp"
#include "solver/solver.hpp"

using namespace polycube;

namespace {

Solver* activeSolver = nullptr;
ParallelSearch* activeParallel = nullptr;
volatile std::sig_atomic_t interrupted = 0;

void onInterrupt(int) {
    interrupted = 1;
    // Atomic stores only: safe in a signal handler. Every thread stops within a slice.
    if (activeParallel) activeParallel->cancel();
    if (activeSolver) activeSolver->cancel();
}

const char* stateName(Solver::State s) {
    switch (s) {
        case Solver::State::Running: return "running";
        case Solver::State::Done: return "done";
        case Solver::State::Cancelled: return "cancelled";
        case Solver::State::LimitReached: return "limit";
    }
    return "done";
}

void usage(std::ostream& os) {
    os << "Usage: polycube [OPTIONS] [FILE...]\n"
          "Find every way to pack the pieces of each puzzle defined in FILE (standard input\n"
          "when no file is given) into its box. Definition files use the reference polycube\n"
          "solver's format. Solutions print as layers of the box, bottom layer first.\n\n"
          "Options:\n"
       << optionsHelp()
       << "\nExamples:\n"
          "  polycube -q -r -i def/pentominoes_10x6.txt      count the 2339 unique solutions, with statistics\n"
          "  polycube -r L def/tetriscube.txt                Tetris Cube, constraining piece L\n"
          "  polycube -q -r --json def/*.txt                 one JSON summary line per puzzle\n";
}

bool readInput(const std::string& file, std::string& text, std::string& error) {
    if (file == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        return true;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        error = file + ": is a directory, not a definition file";
        return false;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        error = file + ": cannot open (" + std::string(std::strerror(errno)) + ")";
        return false;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    OptionParse p = parseOptions(args, [](const std::string& w) {
        std::error_code ec;
        return std::filesystem::is_regular_file(w, ec);
    });
    if (!p.ok()) {
        std::cerr << "polycube: " << p.error << "\n";
        return 2;
    }
    if (p.help) {
        usage(std::cout);
        return 0;
    }
    if (p.version) {
        std::cout << "polycube " << POLYCUBE_VERSION << "\n";
        return 0;
    }
    if (p.files.empty()) p.files.push_back("-");
    std::signal(SIGINT, onInterrupt);
    std::ios::sync_with_stdio(false);

    // -j: threads for the searches that can be split (default every core).
    const int threads = p.options.threads > 0 ? p.options.threads
                                              : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const bool parallel = threads > 1 && whyNotSplittable(p.options).empty();

    int status = 0;
    for (const std::string& file : p.files) {
        std::string text, error;
        if (!readInput(file, text, error)) {
            std::cerr << "polycube: " << error << "\n";
            status = 1;
            continue;
        }
        const std::string source = file == "-" ? "<stdin>" : file;
        ParseResult parsed = parseDefinitions(text, source);
        if (!parsed.ok()) {
            std::cerr << "polycube: " << parsed.error.format() << "\n";
            status = 1;
            continue;
        }
        for (size_t i = 0; i < parsed.puzzles.size() && !interrupted; ++i) {
            const PuzzleDef& def = parsed.puzzles[i];
            if (parallel) {
                // The same output as one thread, except that solutions are numbered in the
                // order the threads find them.
                Result<std::unique_ptr<ParallelSearch>> made = ParallelSearch::create(def, p.options, threads);
                if (!made.ok()) {
                    std::cerr << "polycube: " << source << ":" << def.line << ": " << made.status.message << "\n";
                    status = 1;
                    continue;
                }
                ParallelSearch& search = *made.value;
                if (p.options.info) {
                    if (!def.title.empty()) std::cout << "\n# " << def.title << "\n";
                    std::cout << formatInfo(search.primary());
                }
                if (!p.options.quiet)
                    search.setSolutionHandler(
                        [&](const Solution& s, long long number) { std::cout << formatSolution(def, s.grid, number); });
                activeParallel = &search;
                const Solver::State st = search.run();
                activeParallel = nullptr;
                if (p.options.info) {
                    std::cout << formatStatistics(search.primary(), search.stats());
                    std::cout << "\n# Threads that shared the search, subproblems searched, times work was given away,\n"
                                 "# seconds the threads waited for work (summed):\n"
                              << "THREADS=" << search.threads() << "\nSUBPROBLEMS=" << search.subproblems()
                              << "\nDONATIONS=" << search.donations() << "\nIDLE_SECONDS=" << search.idleSeconds() << "\n";
                }
                if (p.options.json)
                    std::cout << summaryJson(search.primary(), search.stats(), source, static_cast<int>(i),
                                             stateName(st), search.threads(), search.idleSeconds())
                              << "\n";
                std::cout.flush();
                if (!search.error().empty()) {
                    std::cerr << "polycube: " << source << ":" << def.line << ": " << search.error() << "\n";
                    status = 1;
                    continue;
                }
                if (st == Solver::State::Cancelled) {
                    std::cerr << "polycube: interrupted\n";
                    return 130;
                }
                continue;
            }
            Result<std::unique_ptr<Solver>> created = Solver::create(def, p.options);
            if (!created.ok()) {
                std::cerr << "polycube: " << source << ":" << def.line << ": " << created.status.message << "\n";
                status = 1;
                continue;
            }
            Solver& solver = *created.value;
            if (p.options.info) {
                if (!def.title.empty()) std::cout << "\n# " << def.title << "\n";
                std::cout << formatInfo(solver);
            }
            if (!p.options.quiet) {
                solver.setSolutionHandler([&](const Solution& s) { std::cout << formatSolution(def, s.grid, s.number); });
            }
            std::vector<int> current;
            long long traceCount = 0;
            if (p.options.trace != 0) {
                solver.setTraceHandler([&](const TraceEvent& e) {
                    std::cout << "TRACE " << ++traceCount << ": " << formatTraceEvent(solver, e);
                    if (e.op == trace::kPlace || e.op == trace::kRemove) {
                        if (e.op == trace::kPlace) current.push_back(e.b);
                        else if (!current.empty()) current.pop_back();
                        std::cout << formatSolution(def, solver.gridOf(current), traceCount) << "END TRACE\n";
                    } else {
                        std::cout << "\n";
                    }
                });
            }
            activeSolver = &solver;
            Solver::State st;
            while ((st = solver.step(1LL << 40)) == Solver::State::Running) {
            }
            activeSolver = nullptr;
            if (p.options.info) std::cout << formatStatistics(solver);
            if (p.options.json) std::cout << summaryJson(solver, source, static_cast<int>(i), stateName(st)) << "\n";
            std::cout.flush();
            if (st == Solver::State::Cancelled) {
                std::cerr << "polycube: interrupted\n";
                return 130;
            }
        }
    }
    return status;
}
