#include "parallel/subproblem.hpp"

#include <cstdint>
#include <cstdio>
#include <sstream>

#include "common/hash.hpp"
#include "solver/solver.hpp"

namespace polycube {

namespace {

// Bump when the meaning of a path changes (how levels are ordered or tried, what a path
// holds), so that jobs written by an older engine are refused instead of mis-searched.
constexpr int kSubproblemFormat = 1;
constexpr const char* kSubproblemMagic = "polycube-subproblem";

// FNV-1a, 64 bits: a fingerprint against mix-ups, not against forgery.
struct Hasher {
    uint64_t h = 1469598103934665603ULL;
    void bytes(const void* p, size_t n) {
        const unsigned char* c = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i) {
            h ^= c[i];
            h *= 1099511628211ULL;
        }
    }
    void add(long long v) { bytes(&v, sizeof v); }
    void add(const std::string& s) {
        add(static_cast<long long>(s.size()));
        bytes(s.data(), s.size());
    }
};

}  // namespace

std::string searchFingerprint(const Solver& solver) {
    Hasher h;
    h.add(std::string(kSubproblemMagic));
    h.add(kSubproblemFormat);
    h.add(std::string(POLYCUBE_VERSION));
    const Model& m = solver.model();
    for (int v : {m.xDim, m.yDim, m.zDim, m.openCellCount(), m.shapeCount(), m.mobileCount()}) h.add(v);
    h.add(static_cast<long long>(m.images.size()));
    for (const Image& img : m.images) {
        h.add(img.shape);
        h.add(static_cast<long long>(img.cells.size()));
        for (int c : img.cells) h.add(c);
    }
    for (const Shape& s : m.shapes) h.add(s.count);
    for (int b : m.boxOfOpenCell) h.add(b);
    const SolverOptions& o = solver.options();
    for (long long v : {static_cast<long long>(o.redundancy), static_cast<long long>(o.unique), static_cast<long long>(o.mirror),
                        static_cast<long long>(o.fila), static_cast<long long>(o.nof), static_cast<long long>(o.bruijn),
                        static_cast<long long>(o.mch), static_cast<long long>(o.emch),
                        static_cast<long long>(o.parityBacktrack), static_cast<long long>(o.volumeBacktrack),
                        static_cast<long long>(o.parityFilter), static_cast<long long>(o.volumeFilter),
                        static_cast<long long>(o.fitFilter), static_cast<long long>(o.autoTune)})
        h.add(v);
    h.add(o.redundancyPiece);
    h.add(o.order);
    h.add(solver.configurationDescription());
    // (it tells the orbit listing of all solutions from the enumerating search, whose trees
    // differ: AlgorithmPlan::orbits)
    h.add(solver.redundancyDescription());
    return hex16(h.h);
}

std::string encodeSubproblem(const std::string& fingerprint, const Subproblem& sub) {
    std::ostringstream os;
    os << kSubproblemMagic << " " << kSubproblemFormat << " " << fingerprint << " " << sub.path.size();
    for (int image : sub.path) os << " " << image;
    return os.str();
}

Result<Subproblem> decodeSubproblem(const std::string& text, const std::string& expectedFingerprint) {
    std::istringstream in(text);
    std::string magic, fingerprint;
    long long format = 0, count = -1;
    if (!(in >> magic) || magic != kSubproblemMagic)
        return Result<Subproblem>::error("not a polycube subproblem (it should start with '" + std::string(kSubproblemMagic) + "')");
    if (!(in >> format) || format != kSubproblemFormat)
        return Result<Subproblem>::error("subproblem format " + std::to_string(format) + ", but this polycube reads format " +
                                         std::to_string(kSubproblemFormat) + ": written by another version");
    if (!(in >> fingerprint))
        return Result<Subproblem>::error("subproblem: the fingerprint is missing");
    if (fingerprint != expectedFingerprint)
        return Result<Subproblem>::error("subproblem for another search: its fingerprint " + fingerprint +
                                         " is not this search's " + expectedFingerprint +
                                         " (another puzzle, other options, or another build of polycube)");
    if (!(in >> count) || count < 0 || count > 100000)
        return Result<Subproblem>::error("subproblem: bad path length");
    Subproblem sub;
    sub.path.reserve(static_cast<size_t>(count));
    for (long long k = 0; k < count; ++k) {
        long long image = -1;
        if (!(in >> image) || image < 0 || image > 0x7fffffff)
            return Result<Subproblem>::error("subproblem: path entry " + std::to_string(k + 1) + " is not an image id");
        sub.path.push_back(static_cast<int>(image));
    }
    std::string extra;
    if (in >> extra) return Result<Subproblem>::error("subproblem: unexpected '" + extra + "' after the path");
    return Result<Subproblem>::success(std::move(sub));
}

std::string whyNotSplittable(const SolverOptions& o) {
    if (o.memo) return "--memo: a memoized count is no enumerating tree to share (it runs on one worker, its table its own)";
    if (o.trace != 0) return "-t: a trace is one ordered record of the search";
    if (o.monteCarlo.trials > 0) return "-s: Monte Carlo trials are sequential random restarts";
    if (o.maxSolutions > 0) return "-l: which solutions come first depends on the order of the search";
    if (o.unique && o.redundancy == Redundancy::Off)
        return "-u: which of two equivalent solutions is kept depends on the order of the search";
    return "";
}

}  // namespace polycube
