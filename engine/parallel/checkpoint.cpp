#include "parallel/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "common/hash.hpp"

namespace polycube {

namespace {

constexpr const char* kMagic = "polycube-checkpoint";
constexpr int kFormat = 1;
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
    os << kMagic << " " << kFormat << "\n";
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
    const std::string body = os.str();
    return body + "checksum " + hex16(checksum(body)) + "\n";
}

Result<Checkpoint> decodeCheckpoint(const std::string& text, const std::string& expectedFingerprint,
                                    const std::string& source) {
    using R = Result<Checkpoint>;
    // The checksum first: a truncated or edited file is refused before anything is believed.
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
    std::istringstream w;
    Checkpoint ck;
    {
        if (!std::getline(in, line)) return bad("empty");
        ++lineNo;
        std::istringstream head(line);
        std::string magic;
        int format = 0;
        if (!(head >> magic) || magic != kMagic) return bad("not a polycube checkpoint (it should start with '" + std::string(kMagic) + "')");
        if (!(head >> format) || format != kFormat)
            return bad("checkpoint format " + std::to_string(format) + ", but this polycube reads format " + std::to_string(kFormat));
    }
    if (!next("fingerprint", w) || !(w >> ck.fingerprint)) return bad("expected 'fingerprint <hex>'");
    if (ck.fingerprint != expectedFingerprint)
        return R::error(source + ": a checkpoint of another search: its fingerprint " + ck.fingerprint + " is not this search's " +
                        expectedFingerprint + " (another puzzle, other options, or another build of polycube)");
    if (!next("solutions", w) || !(w >> ck.finished.solutions >> ck.finished.found >> ck.finished.redundant) ||
        ck.finished.solutions < 0 || ck.finished.found < ck.finished.solutions)
        return bad("expected 'solutions <reported> <found> <redundant>'");
    if (!next("done", w) || !(w >> ck.doneShare) || !(ck.doneShare >= 0 && ck.doneShare <= 1.000001))
        return bad("expected 'done <share between 0 and 1>'");
    const auto counters = levelCounters(ck.finished);
    for (int k = 0; k < kLevelCount; ++k) {
        std::string name;
        long long n = -1;
        if (!next("level", w) || !(w >> name) || name != kLevelNames[k] || !(w >> n) || n < 0 || n > 100000)
            return bad(std::string("expected 'level ") + kLevelNames[k] + " <count> <values>'");
        counters[k]->assign(static_cast<size_t>(n), 0);
        for (long long& v : *counters[k])
            if (!(w >> v) || v < 0) return bad(std::string("level ") + kLevelNames[k] + ": a count is missing or negative");
    }
    long long pieces = -1;
    if (!next("pieces", w) || !(w >> pieces) || pieces < 0 || pieces > 100000000) return bad("expected 'pieces <count>'");
    ck.pending.reserve(static_cast<size_t>(std::min<long long>(pieces, 1 << 20)));
    for (long long k = 0; k < pieces; ++k) {
        CheckpointPiece p;
        long long length = -1;
        if (!next("piece", w) || !(w >> p.share >> length) || !(p.share >= 0 && p.share <= 1.000001) || length < 0 || length > 100000)
            return bad("expected 'piece <share> <length> <image ids>' (piece " + std::to_string(k + 1) + " of " + std::to_string(pieces) + ")");
        for (long long j = 0; j < length; ++j) {
            long long image = -1;
            if (!(w >> image) || image < 0 || image > 0x7fffffff) return bad("piece " + std::to_string(k + 1) + ": a path entry is not an image id");
            p.path.push_back(static_cast<int>(image));
        }
        ck.pending.push_back(std::move(p));
    }
    if (std::getline(in, line) && !line.empty()) {
        ++lineNo;
        return bad("unexpected line after the pieces");
    }
    return R::success(std::move(ck));
}

Status writeFileAtomically(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return Status::error("cannot write " + tmp + ": " + std::strerror(errno));
    size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const std::string why = std::strerror(errno);
            ::close(fd);
            ::unlink(tmp.c_str());
            return Status::error("cannot write " + tmp + ": " + why);
        }
        written += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        ::unlink(tmp.c_str());
        return Status::error("cannot write " + tmp + ": " + std::strerror(errno));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) return Status::error("cannot rename " + tmp + " to " + path + ": " + std::strerror(errno));
    return Status::success();
}

}  // namespace polycube
