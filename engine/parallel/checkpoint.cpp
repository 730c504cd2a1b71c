#include "parallel/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "common/hash.hpp"
#include "common/text.hpp"
#include "solver/options.hpp"

namespace polycube {

namespace {

constexpr const char* kMagic = kCheckpointMagic;
constexpr int kFormat = 1;          // without an origin
constexpr int kOriginFormat = 2;    // with one
// The per-level counters in SolverStats::forEachLevelCounter's order, by name.
const char* const kLevelNames[] = {"attempts",       "fits",           "parityBacktracks", "volumeBacktracks",
                                   "parityFiltered", "volumeFiltered", "fitFiltered"};
constexpr int kLevelCount = sizeof kLevelNames / sizeof kLevelNames[0];

std::vector<std::vector<long long>*> levelCounters(SolverStats& s) {
    std::vector<std::vector<long long>*> out;
    SolverStats::forEachLevelCounter(s, s, [&](std::vector<long long>& a, std::vector<long long>&) { out.push_back(&a); });
    return out;
}

uint64_t checksum(const std::string& body) { return hashWords(body.data(), body.size(), 0x636b7074ULL); }

}  // namespace

std::string encodeCheckpoint(const Checkpoint& ck) {
    std::ostringstream os;
    os << std::setprecision(17);
    os << kMagic << " " << (ck.origin ? kOriginFormat : kFormat) << "\n";
    os << "fingerprint " << ck.fingerprint << "\n";
    os << "solutions " << ck.finished.solutions << " " << ck.finished.found << " " << ck.finished.redundant << "\n";
    os << "done " << ck.doneShare << "\n";
    SolverStats stats = ck.finished;
    const auto counters = levelCounters(stats);
    for (int k = 0; k < kLevelCount; ++k) {
        os << "level " << kLevelNames[k] << " " << counters[k]->size();
        for (long long v : *counters[k]) os << " " << v;
        os << "\n";
    }
    os << "pieces " << ck.pending.size() << "\n";
    for (const CheckpointPiece& p : ck.pending) {
        os << "piece " << p.share << " " << p.path.size();
        for (int image : p.path) os << " " << image;
        os << "\n";
    }
    if (ck.origin) {
        const CheckpointOrigin& o = *ck.origin;
        auto block = [&](const char* key, const std::string& bytes) { os << key << " " << bytes.size() << "\n" << bytes << "\n"; };
        block("options", o.options);
        block("source", o.source);
        os << "puzzle " << o.puzzle << "\n";
        block("definition", o.definition);
    }
    const std::string body = os.str();
    return body + "checksum " + hex16(checksum(body)) + "\n";
}

namespace {

// expectedFingerprint: null to leave the fingerprint unchecked (readCheckpoint).
Result<Checkpoint> decode(const std::string& text, const std::string* expectedFingerprint, const std::string& source) {
    using R = Result<Checkpoint>;
    if (static_cast<long long>(text.size()) > kMaxCheckpointBytes)
        return R::error(source + ": " + std::to_string(text.size()) + " bytes, more than a checkpoint's limit of " +
                        std::to_string(kMaxCheckpointBytes));
    // Another format first (a later polycube's gets its own words, not "cut short?"), then the
    // checksum: a truncated or edited file is refused before anything is believed.
    {
        std::istringstream head(text.substr(0, text.find('\n')));
        std::string magic;
        int format = 0;
        if (head >> magic && magic == kMagic && head >> format && format != kFormat && format != kOriginFormat)
            return R::error(source + ":1: checkpoint format " + std::to_string(format) + ", but this polycube reads formats " +
                            std::to_string(kFormat) + " and " + std::to_string(kOriginFormat));
    }
    const size_t at = text.rfind("checksum ");
    if (at == std::string::npos || (at > 0 && text[at - 1] != '\n'))
        return R::error(source + ": not a complete polycube checkpoint (no checksum line: cut short?)");
    std::istringstream tail(text.substr(at + 9));
    std::string sum, extra;
    tail >> sum;
    const std::string body = text.substr(0, at);
    if (sum != hex16(checksum(body)) || (tail >> extra))
        return R::error(source + ": the checkpoint is damaged (its checksum does not match its contents)");

    std::istringstream in(body);
    std::string line;
    int lineNo = 0;
    auto bad = [&](const std::string& what) { return R::error(source + ":" + std::to_string(lineNo) + ": " + what); };
    auto next = [&](const char* key, std::istringstream& words) {
        if (!std::getline(in, line)) return false;
        ++lineNo;
        words.clear();
        words.str(line);
        std::string k;
        return static_cast<bool>(words >> k) && k == key;
    };
    // Nothing more on a line than its fields: 'solutions 3973 3973 0 7' is refused.
    auto ends = [](std::istringstream& words) {
        std::string extra;
        return !(words >> extra);
    };
    std::istringstream w;
    Checkpoint ck;
    int format = 0;
    {
        if (!std::getline(in, line)) return bad("empty");
        ++lineNo;
        std::istringstream head(line);
        std::string magic;
        if (!(head >> magic) || magic != kMagic) return bad("not a polycube checkpoint (it should start with '" + std::string(kMagic) + "')");
        if (!(head >> format) || (format != kFormat && format != kOriginFormat) || !ends(head))
            return bad("checkpoint format " + std::to_string(format) + ", but this polycube reads formats " + std::to_string(kFormat) +
                       " and " + std::to_string(kOriginFormat));
    }
    if (!next("fingerprint", w) || !(w >> ck.fingerprint) || !ends(w)) return bad("expected 'fingerprint <hex>'");
    if (expectedFingerprint && ck.fingerprint != *expectedFingerprint)
        return R::error(source + ": a checkpoint of another search: its fingerprint " + ck.fingerprint + " is not this search's " +
                        *expectedFingerprint + " (another puzzle, other options, or another build of polycube)");
    const std::string maxCount = std::to_string(kMaxCheckpointCount);
    if (!next("solutions", w) || !(w >> ck.finished.solutions >> ck.finished.found >> ck.finished.redundant) || !ends(w))
        return bad("expected 'solutions <reported> <found> <redundant>'");
    {
        const SolverStats& f = ck.finished;
        if (f.solutions < 0 || f.found < 0 || f.redundant < 0 || f.found > kMaxCheckpointCount)
            return bad("solution counts must be between 0 and " + maxCount);
        // Every assembly found is reported or filtered as redundant (DlxDriver::reportSolution),
        // exactly: the one exception, -u's table filling up, needs -u without -r, a search that
        // cannot be checkpointed (whyNotSplittable). (Without this check a forged "solutions
        // 5 9 0" would be taken, and the resumed run would count 4 assemblies that are neither.)
        if (f.solutions > f.found || f.redundant > f.found - f.solutions)
            return bad("more solutions (" + std::to_string(f.solutions) + ") and redundant assemblies (" +
                       std::to_string(f.redundant) + ") than assemblies found (" + std::to_string(f.found) + ")");
        if (f.solutions + f.redundant != f.found)
            return bad("fewer solutions (" + std::to_string(f.solutions) + ") and redundant assemblies (" +
                       std::to_string(f.redundant) + ") than assemblies found (" + std::to_string(f.found) +
                       "): every assembly found is one or the other");
    }
    if (!next("done", w) || !(w >> ck.doneShare) || !(ck.doneShare >= 0 && ck.doneShare <= 1 + kShareTolerance) || !ends(w))
        return bad("expected 'done <share between 0 and 1>'");
    const auto counters = levelCounters(ck.finished);
    for (int k = 0; k < kLevelCount; ++k) {
        std::string name;
        long long n = -1;
        if (!next("level", w) || !(w >> name) || name != kLevelNames[k] || !(w >> n) || n < 0 || n > 100000)
            return bad(std::string("expected 'level ") + kLevelNames[k] + " <count> <values>'");
        // One length for every per-level list: each is indexed by pieces left.
        if (k > 0 && static_cast<size_t>(n) != counters[0]->size())
            return bad(std::string("level ") + kLevelNames[k] + ": " + std::to_string(n) + " levels, but level " + kLevelNames[0] +
                       " has " + std::to_string(counters[0]->size()));
        counters[k]->assign(static_cast<size_t>(n), 0);
        for (long long& v : *counters[k])
            if (!(w >> v) || v < 0 || v > kMaxCheckpointCount)
                return bad(std::string("level ") + kLevelNames[k] + ": a count is missing, negative or over " + maxCount);
        if (!ends(w)) return bad(std::string("level ") + kLevelNames[k] + ": more counts than its " + std::to_string(n) + " levels");
    }
    long long pieces = -1;
    if (!next("pieces", w) || !(w >> pieces) || pieces < 0 || pieces > 100000000 || !ends(w)) return bad("expected 'pieces <count>'");
    const int firstPieceLine = lineNo + 1;
    ck.pending.reserve(static_cast<size_t>(std::min<long long>(pieces, 1 << 20)));
    double total = ck.doneShare;
    for (long long k = 0; k < pieces; ++k) {
        CheckpointPiece p;
        long long length = -1;
        if (!next("piece", w) || !(w >> p.share >> length) || !(p.share >= 0 && p.share <= 1 + kShareTolerance) || length < 0 || length > 100000)
            return bad("expected 'piece <share> <length> <image ids>' (piece " + std::to_string(k + 1) + " of " + std::to_string(pieces) + ")");
        for (long long j = 0; j < length; ++j) {
            long long image = -1;
            if (!(w >> image) || image < 0 || image > 0x7fffffff) return bad("piece " + std::to_string(k + 1) + ": a path entry is not an image id");
            p.path.push_back(static_cast<int>(image));
        }
        if (!ends(w)) return bad("piece " + std::to_string(k + 1) + ": more image ids than its length " + std::to_string(length));
        // A path places each image once (a placed image leaves the matrix).
        std::vector<int> sorted = p.path;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
            return bad("piece " + std::to_string(k + 1) + ": its path places an image twice");
        total += p.share;
        ck.pending.push_back(std::move(p));
    }
    if (format == kOriginFormat) {
        // "<key> <bytes>", the bytes, a newline; the lines it spans counted for later messages.
        auto block = [&](const char* key, long long limit, std::string& out) {
            long long n = -1;
            if (!next(key, w) || !(w >> n) || n < 0 || !ends(w)) return false;
            if (n > limit) return false;
            out.assign(static_cast<size_t>(n), '\0');
            if (!in.read(&out[0], static_cast<std::streamsize>(n)) || in.get() != '\n') return false;
            lineNo += static_cast<int>(std::count(out.begin(), out.end(), '\n'));
            return true;
        };
        CheckpointOrigin o;
        if (!block("options", kMaxCheckpointOptionsBytes, o.options))
            return bad("expected 'options <bytes>' and the search's options, at most " + std::to_string(kMaxCheckpointOptionsBytes) + " bytes");
        if (o.options.find_first_of("\n\r") != std::string::npos) return bad("the search's options are more than one line");
        // Only a search's options: the command line's own (--checkpoint, --ordered, ...) are
        // no part of what the checkpoint resumes, and no program writes them there.
        if (const OptionParse parsed = parseSearchOptions(o.options); !parsed.ok())
            return bad("the search's options '" + quoteText(o.options) + "' are refused: " + parsed.error);
        if (!block("source", kMaxCheckpointSourceBytes, o.source))
            return bad("expected 'source <bytes>' and the definition file's name, at most " + std::to_string(kMaxCheckpointSourceBytes) + " bytes");
        long long puzzle = -1;
        if (!next("puzzle", w) || !(w >> puzzle) || puzzle < 0 || puzzle > kMaxCheckpointPuzzle || !ends(w))
            return bad("expected 'puzzle <index of the puzzle in the definition, from 0>'");
        o.puzzle = static_cast<int>(puzzle);
        if (!block("definition", kMaxCheckpointDefinitionBytes, o.definition) || o.definition.empty())
            return bad("expected 'definition <bytes>' and the puzzle's definition (not empty), at most " +
                       std::to_string(kMaxCheckpointDefinitionBytes) + " bytes");
        ck.origin = std::move(o);
    }
    if (std::getline(in, line) && !line.empty()) {
        ++lineNo;
        return bad(format == kOriginFormat ? "unexpected line after the definition" : "unexpected line after the pieces");
    }
    // Distinct, disjoint subtrees: no path equal to or a prefix of another. In lexicographic
    // order a path's extensions follow it at once, so neighbours are enough.
    std::vector<size_t> order(ck.pending.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ck.pending[a].path < ck.pending[b].path; });
    for (size_t k = 1; k < order.size(); ++k) {
        const std::vector<int>& a = ck.pending[order[k - 1]].path;
        const std::vector<int>& b = ck.pending[order[k]].path;
        if (a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin())) {
            const size_t first = std::min(order[k - 1], order[k]), second = std::max(order[k - 1], order[k]);
            const std::string where = source + ":" + std::to_string(firstPieceLine + static_cast<int>(second)) + ": piece " +
                                      std::to_string(second + 1);
            const std::string other = "piece " + std::to_string(first + 1) + " (line " +
                                      std::to_string(firstPieceLine + static_cast<int>(first)) + ")";
            if (a.size() == b.size()) return R::error(where + " is the same as " + other + ": it would be searched twice");
            return R::error(where + " and " + other + " overlap: one's path begins with the other's" +
                            (a.empty() ? " (an empty path is the whole tree)" : "") + ", so a subtree would be searched twice");
        }
    }
    if (total > 1 + kShareTolerance) {
        std::ostringstream why;
        why << std::setprecision(12) << source << ": the finished share and the pieces' shares add up to " << total
            << ", more than the whole search (a piece given twice, or a share changed)";
        return R::error(why.str());
    }
    ck.source = source;
    return R::success(std::move(ck));
}

}  // namespace

Result<Checkpoint> decodeCheckpoint(const std::string& text, const std::string& expectedFingerprint, const std::string& source) {
    return decode(text, &expectedFingerprint, source);
}

Result<Checkpoint> readCheckpoint(const std::string& text, const std::string& source) { return decode(text, nullptr, source); }

Status checkResume(const Checkpoint& ck, const Solver& solver, bool whole) {
    const std::string& source = ck.source.empty() ? std::string("the checkpoint") : ck.source;
    const int pieces = solver.pieceCount();
    const size_t levels = solver.stats().attempts.size();
    // A search cancelled while splitting writes empty lists (nothing counted).
    if (!ck.finished.attempts.empty() && ck.finished.attempts.size() != levels)
        return Status::error(source + ": per-level counts for " + std::to_string(ck.finished.attempts.size()) +
                             " levels, but this puzzle's search has " + std::to_string(levels));
    const Model& model = solver.model();
    std::vector<char> covered;
    for (size_t k = 0; k < ck.pending.size(); ++k) {
        const std::vector<int>& path = ck.pending[k].path;
        const std::string piece = source + ": piece " + std::to_string(k + 1);
        if (static_cast<int>(path.size()) > pieces)
            return Status::error(piece + ": a path of " + std::to_string(path.size()) + " placements, but the puzzle has " +
                                 std::to_string(pieces) + " pieces");
        covered.assign(static_cast<size_t>(model.openCellCount()), 0);
        for (int image : path) {
            if (image < 0 || image >= static_cast<int>(model.images.size()))
                return Status::error(piece + ": image " + std::to_string(image) + " does not exist in this puzzle (" +
                                     std::to_string(model.images.size()) + " images)");
            for (int cell : model.images[static_cast<size_t>(image)].cells) {
                if (covered[static_cast<size_t>(cell)])
                    return Status::error(piece + ": image " + std::to_string(image) + " overlaps an earlier placement of its path");
                covered[static_cast<size_t>(cell)] = 1;
            }
        }
    }
    if (whole) {
        double total = ck.doneShare;
        for (const CheckpointPiece& p : ck.pending) total += p.share;
        if (std::abs(total - 1) > kShareTolerance) {
            std::ostringstream why;
            why << std::setprecision(12) << source << ": the finished share (" << ck.doneShare << ") and the " << ck.pending.size()
                << " pieces' shares add up to " << total << ", not the whole search (a piece missing or a share changed)";
            return Status::error(why.str());
        }
    }
    return Status::success();
}

Status writeFileAtomically(const std::string& path, const std::string& text) {
    return writeFileAtomically(path, std::vector<std::string_view>{text});
}

Status writeFileAtomically(const std::string& path, const std::vector<std::string_view>& parts) {
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return Status::error("cannot write " + shownPath(tmp) + ": " + std::strerror(errno));
    for (std::string_view text : parts) {
        size_t written = 0;
        while (written < text.size()) {
            const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                const std::string why = std::strerror(errno);
                ::close(fd);
                ::unlink(tmp.c_str());
                return Status::error("cannot write " + shownPath(tmp) + ": " + why);
            }
            written += static_cast<size_t>(n);
        }
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        ::unlink(tmp.c_str());
        return Status::error("cannot write " + shownPath(tmp) + ": " + std::strerror(errno));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) return Status::error("cannot rename " + shownPath(tmp) + " to " + shownPath(path) + ": " + std::strerror(errno));
    return Status::success();
}

}  // namespace polycube
