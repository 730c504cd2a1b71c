#include "split_files.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <string_view>

#include "common/hash.hpp"
#include "parallel/checkpoint.hpp"

namespace polycube {

namespace {

constexpr const char* kJobMagic = "polycube-job";
constexpr const char* kResultMagic = "polycube-result";
// Format 2: every file says its job's number and the split's job count (format 1 did not, so
// a merge could not see that a job and its result were both missing).
constexpr int kFormat = 2;
constexpr uint64_t kSumSeed = 0x6a6f6273ULL;
constexpr size_t kChunk = size_t{1} << 16;
constexpr size_t kSumLineBytes = 21;  // "sum " + 16 hex digits + "\n"
// A result's header lines and a block's length line are short: where they are sought.
constexpr size_t kHeadBytes = 4096;
constexpr size_t kMaxSourceBytes = 1 << 16;
constexpr long long kMaxWords = 10000;

// The checksum of a file's bytes before its "sum" line: hashWords over each 64 KiB chunk in
// turn, each seeded with the one before, so that a result is summed and checked in pieces,
// never held whole.
class Checksum {
public:
    void add(std::string_view bytes) {
        while (!bytes.empty()) {
            const size_t n = std::min(kChunk - chunk_.size(), bytes.size());
            chunk_.append(bytes.data(), n);
            bytes.remove_prefix(n);
            if (chunk_.size() == kChunk) h_ = hashWords(chunk_.data(), chunk_.size(), h_), chunk_.clear();
        }
    }
    std::string hex() const { return hex16(chunk_.empty() ? h_ : hashWords(chunk_.data(), chunk_.size(), h_)); }

private:
    uint64_t h_ = kSumSeed;
    std::string chunk_;
};
std::string sumOf(std::string_view body) {
    Checksum c;
    c.add(body);
    return c.hex();
}
std::string sealed(const std::string& body) { return body + "sum " + sumOf(body) + "\n"; }

// A file's lines and length-prefixed blocks ("<key> <bytes>\n<bytes>\n"), read in place.
class Cursor {
public:
    explicit Cursor(std::string_view text) : t_(text) {}
    bool line(std::string_view& out) {
        const size_t end = t_.find('\n', at_);
        if (end == std::string_view::npos) return false;
        out = t_.substr(at_, end - at_);
        at_ = end + 1;
        return true;
    }
    // The rest of a line "<key> <rest>".
    bool keyed(const char* key, std::string_view& rest) {
        std::string_view l;
        const size_t n = std::strlen(key);
        if (!line(l) || l.size() <= n || l.compare(0, n, key) != 0 || l[n] != ' ') return false;
        rest = l.substr(n + 1);
        return true;
    }
    bool block(const char* key, long long max, std::string_view& out) {
        std::string_view rest;
        long long n = -1;
        if (!keyed(key, rest) || !whole(rest, n) || n < 0 || n > max) return false;
        if (t_.size() - at_ < static_cast<size_t>(n) + 1 || t_[at_ + static_cast<size_t>(n)] != '\n') return false;
        out = t_.substr(at_, static_cast<size_t>(n));
        at_ += static_cast<size_t>(n) + 1;
        return true;
    }
    size_t at() const { return at_; }
    // A whole number written as the encoder writes it: digits only, no leading zero (so that a
    // file has one spelling, and its checksum one meaning).
    static bool whole(std::string_view s, long long& out) {
        if (s.empty() || s[0] < '0' || s[0] > '9' || (s[0] == '0' && s.size() > 1)) return false;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && end == s.data() + s.size();
    }

private:
    std::string_view t_;
    size_t at_ = 0;
};

bool isHex16(std::string_view s) {
    return s.size() == 16 && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// "polycube-job 2": the first line; another format is named as such, not as damage.
bool firstLine(Cursor& in, const char* magic, const char* what, const std::string& source, std::string& error) {
    std::string_view l;
    const std::string want = std::string(magic) + " " + std::to_string(kFormat);
    if (!in.line(l)) return error = source + ": not a polycube " + what + " (no first line)", false;
    if (l == want) return true;
    const std::string prefix = std::string(magic) + " ";
    if (l.compare(0, prefix.size(), prefix) == 0)
        return error = source + ": " + what + " format '" + std::string(l.substr(prefix.size(), 20)) + "', but this polycube reads format " +
                       std::to_string(kFormat) + " (made by another version of polycube: split again with this one)",
               false;
    return error = source + ": not a polycube " + what, false;
}

// "<k> of <n>": a job's number and the split's job count (k from `lowest`).
bool jobOf(std::string_view rest, long long lowest, long long& k, long long& n, std::string_view& after) {
    const size_t of = rest.find(" of ");
    if (of == std::string_view::npos || !Cursor::whole(rest.substr(0, of), k)) return false;
    std::string_view tail = rest.substr(of + 4);
    const size_t space = tail.find(' ');
    after = space == std::string_view::npos ? std::string_view() : tail.substr(space + 1);
    if (!Cursor::whole(tail.substr(0, space), n)) return false;
    return n >= 1 && n <= kMaxSplitJobs && k >= lowest && k <= n;
}

}  // namespace

std::string encodeJob(const JobFile& job) {
    std::ostringstream os;
    auto block = [&](const char* key, const std::string& text) { os << key << " " << text.size() << "\n" << text << "\n"; };
    os << kJobMagic << " " << kFormat << "\nrun " << job.run << "\njob " << job.job << " of " << job.jobs << "\n";
    block("source", job.source);
    os << "puzzle " << job.puzzle << "\nwords " << job.words.size() << "\n";
    for (const std::string& w : job.words) block("word", w);
    block("definition", job.definition);
    block("work", job.work);
    return sealed(os.str());
}

Result<JobFile> decodeJob(const std::string& text, const std::string& source) {
    using R = Result<JobFile>;
    std::string error;
    Cursor in(text);
    if (!firstLine(in, kJobMagic, "job file", source, error)) return R::error(error);
    // The checksum before any field is believed.
    const size_t at = text.rfind("sum ");
    if (at == std::string::npos || text[at - 1] != '\n' || text.size() - at != kSumLineBytes || text.back() != '\n')
        return R::error(source + ": not complete (no checksum line at its end: cut short?)");
    const std::string_view body(text.data(), at);
    if (text.compare(at + 4, 16, sumOf(body)) != 0) return R::error(source + ": damaged (its checksum does not match its contents)");
    JobFile job;
    job.sum = sumOf(body);
    Cursor b(body);
    std::string_view l, rest, after, view;
    auto bad = [&](const std::string& what) { return R::error(source + ": " + what + " (written by another program?)"); };
    b.line(l);  // (the first line, checked above)
    if (!b.keyed("run", rest) || !isHex16(rest)) return bad("expected 'run <16 hex digits>'");
    job.run = std::string(rest);
    if (!b.keyed("job", rest) || !jobOf(rest, 1, job.job, job.jobs, after) || !after.empty())
        return bad("expected 'job <k> of <n>' (1 <= k <= n <= " + std::to_string(kMaxSplitJobs) + ")");
    if (!b.block("source", kMaxSourceBytes, view)) return bad("expected the source block");
    job.source = std::string(view);
    long long n = -1;
    if (!b.keyed("puzzle", rest) || !Cursor::whole(rest, n) || n > 1000000) return bad("expected 'puzzle <index>'");
    job.puzzle = static_cast<int>(n);
    if (!b.keyed("words", rest) || !Cursor::whole(rest, n) || n > kMaxWords) return bad("expected 'words <count>'");
    job.words.resize(static_cast<size_t>(n));
    for (std::string& w : job.words) {
        if (!b.block("word", kMaxJobFileBytes, view)) return bad("expected " + std::to_string(n) + " option words");
        w = std::string(view);
    }
    if (!b.block("definition", kMaxJobFileBytes, view)) return bad("expected the definition block");
    job.definition = std::string(view);
    if (!b.block("work", kMaxCheckpointBytes, view)) return bad("expected the work block");
    job.work = std::string(view);
    if (b.at() != body.size()) return bad("unexpected text after the work block");
    return R::success(std::move(job));
}

ResultText encodeResult(const ResultFile& r, const std::string& solutions) {
    std::ostringstream os;
    os << kResultMagic << " " << kFormat << "\nrun " << r.run << "\njob " << r.job << " of " << r.jobs << " " << r.jobSum << "\n";
    os << "seconds " << std::setprecision(9) << r.seconds << "\n";
    os << "totals " << r.totals.size() << "\n" << r.totals << "\n";
    os << "solutions " << solutions.size() << "\n";
    ResultText t{os.str(), solutions, "\n"};
    Checksum c;
    for (std::string_view part : t.parts()) c.add(part);
    t.tail += "sum " + c.hex() + "\n";
    return t;
}

Result<ResultFile> readResult(long long size, const ReadAt& readAt, const std::string& source) {
    using R = Result<ResultFile>;
    auto read = [&](long long offset, size_t n, std::string& out) {
        out.resize(n);
        return offset >= 0 && offset + static_cast<long long>(n) <= size && (n == 0 || readAt(offset, n, &out[0]));
    };
    auto bad = [&](const std::string& what) { return R::error(source + ": " + what + " (written by another program?)"); };
    const std::string cutShort = source + ": not complete (cut short?)";
    std::string head, error;
    if (!read(0, static_cast<size_t>(std::min<long long>(size, kHeadBytes)), head)) return R::error(cutShort);
    Cursor in(head);
    if (!firstLine(in, kResultMagic, "result file", source, error)) return R::error(error);
    ResultFile r;
    std::string_view rest, after;
    if (!in.keyed("run", rest) || !isHex16(rest)) return bad("expected 'run <16 hex digits>'");
    r.run = std::string(rest);
    if (!in.keyed("job", rest) || !jobOf(rest, 0, r.job, r.jobs, after) || !(r.job == 0 ? after == "split" : isHex16(after)))
        return bad("expected 'job <k> of <n> <job checksum>'");
    r.jobSum = std::string(after);
    double seconds = -1;
    if (!in.keyed("seconds", rest) || std::from_chars(rest.data(), rest.data() + rest.size(), seconds).ptr != rest.data() + rest.size() ||
        !(seconds >= 0 && seconds < 1e12))
        return bad("expected 'seconds <job time>'");
    r.seconds = seconds;
    long long n = -1;
    if (!in.keyed("totals", rest) || !Cursor::whole(rest, n) || n > kMaxCheckpointBytes) return bad("expected 'totals <bytes>'");
    // The totals, then the solutions' length line, then the solutions and the sum line, which
    // end the file exactly.
    const long long totalsAt = static_cast<long long>(in.at());
    if (!read(totalsAt, static_cast<size_t>(n) + 1, r.totals) || r.totals.back() != '\n') return R::error(cutShort);
    r.totals.pop_back();
    std::string line;
    const long long lineAt = totalsAt + n + 1;
    if (!read(lineAt, static_cast<size_t>(std::min<long long>(size - lineAt, 40)), line)) return R::error(cutShort);
    Cursor tail(line);
    if (!tail.keyed("solutions", rest) || !Cursor::whole(rest, n)) return bad("expected 'solutions <bytes>'");
    r.solutionsAt = lineAt + static_cast<long long>(tail.at());
    r.solutionsBytes = n;
    const long long end = n > size ? size + 1 : r.solutionsAt + n + 1 + static_cast<long long>(kSumLineBytes);
    if (end > size) return R::error(cutShort);
    if (end < size)
        return R::error(source + ": damaged (" + std::to_string(size - end) + " bytes after the end its header gives: text added to it?)");
    std::string sum, newline;
    const long long sumAt = size - static_cast<long long>(kSumLineBytes);
    if (!read(sumAt, kSumLineBytes, sum) || !read(sumAt - 1, 1, newline) || newline != "\n" || sum.compare(0, 4, "sum ") != 0 ||
        sum.back() != '\n')
        return R::error(source + ": not complete (no checksum line at its end: cut short?)");
    // Every byte before the sum line, in chunks.
    Checksum c;
    std::string chunk;
    for (long long at = 0; at < sumAt; at += static_cast<long long>(kChunk)) {
        if (!read(at, static_cast<size_t>(std::min<long long>(static_cast<long long>(kChunk), sumAt - at)), chunk))
            return R::error(source + ": cannot read it whole (changed while read?)");
        c.add(chunk);
    }
    if (sum.compare(4, 16, c.hex()) != 0) return R::error(source + ": damaged (its checksum does not match its contents)");
    return R::success(std::move(r));
}

}  // namespace polycube
