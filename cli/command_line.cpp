#include "command_line.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "common/text.hpp"
#include "memo_count.hpp"

namespace polycube {

namespace {

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


// Options that cannot go together, said at once (exit 2) instead of some being ignored:
// --merge, --job and --split are separate runs; a job file carries its puzzle and its search
// options (those of the split), so --job and --merge take only output and thread options.
std::string usageConflict(const OptionParse& p) {
    const SolverOptions& o = p.options;
    const int modes = !o.merge.empty() + !o.job.empty() + (o.splitJobs > 0);
    if (modes > 1) return "--merge, --job and --split are separate runs: give one of them";
    if (!o.jobsOut.empty() && o.splitJobs == 0) return "--jobs-out DIR goes with --split N (how many job files to write)";
    if (o.buildOrder && o.splitJobs > 0) return "--build-order prints with the solutions of a search run here: not with --split";
    if (o.splitJobs > 0 && !o.checkpoint.empty()) return "--split writes job files, not checkpoints: --checkpoint does not go with it";
    if (o.job.empty() && o.merge.empty()) return "";
    const bool job = !o.job.empty();
    const char* mode = job ? "--job" : "--merge";
    if (!p.files.empty())
        return std::string(mode) + " takes no puzzle file (" + (job ? "the job file holds its puzzle" : "the job files hold the puzzle") +
               "): '" + shownPath(p.files.front()) + "'";
    for (const std::string& name : p.given) {
        const bool allowed = name == "quiet" || name == "info" || name == "json" || name == (job ? "job" : "merge") ||
                             (job && (name == "jobs" || name == "progress"));
        if (!allowed)
            return std::string(mode) + " uses the search options the split was made with: --" + name +
                   " cannot be given here (only -q, -i, --json" + (job ? ", -j, --progress" : "") + ")";
    }
    return "";
}

}  // namespace

bool outputFailed(std::string& why) {
    errno = 0;
    std::cout.flush();
    if (std::cout.good()) return false;
    why = errno ? std::strerror(errno) : "write error";
    return true;
}

int readCommandLine(const std::vector<std::string>& args, OptionParse& p) {
    // -r's piece name is optional: the next word is its name unless it names a file. Any
    // existing path counts (/dev/stdin, a FIFO, <(...)), and so does any word with a '/',
    // which no piece name has: such a word is a file to read, even a missing one (its error
    // then names it as a file, not as an unknown piece).
    p = parseOptions(args, [](const std::string& w) {
        std::error_code ec;
        return w.find('/') != std::string::npos || std::filesystem::exists(w, ec);
    });
    if (!p.ok()) {
        std::cerr << "polycube: " << p.error << "\n";
        return 2;
    }
    if (p.help || p.version) {
        if (p.help) usage(std::cout);
        else std::cout << "polycube " << POLYCUBE_VERSION << "\n";
        std::string why;
        if (outputFailed(why)) {
            std::cerr << "polycube: cannot write the output (" << why << ")\n";
            return 1;
        }
        return 0;
    }
    if (p.options.ordered && (!p.options.checkpoint.empty() || !p.options.resume.empty() || p.options.splitJobs > 0 ||
                              !p.options.jobsOut.empty() || !p.options.job.empty() || !p.options.merge.empty())) {
        std::cerr << "polycube: --ordered cannot be combined with --checkpoint, --resume, --split, --job or --merge "
                     "(their pieces report their solutions when each ends)\n";
        return 2;
    }
    std::string conflict = usageConflict(p);
    if (conflict.empty()) conflict = memoCommandLineConflict(p);
    if (!conflict.empty()) {
        std::cerr << "polycube: " << conflict << "\n";
        return 2;
    }
    return -1;
}

}  // namespace polycube
