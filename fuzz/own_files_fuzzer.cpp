// libFuzzer target: the command line's own files, read as --resume, --job and --merge read
// them: a checkpoint (decodeCheckpoint, then checkResume against the Soma cube's -r search
// when it claims to be of that search; a format 2 one's origin, and the page's conversions
// both ways, session/checkpoint_file.hpp), a job file (decodeJob, then its pieces, definition
// and option words) and a result file (readResult through an offset reader, then its
// totals). What decodes must encode back to what decodes the same. Seeds: fuzz/corpus/
// own_files/ (a split of def/soma.txt into jobs and results, checkpoints of a short run).
// Built by scripts/fuzz.sh (clang, ASan + UBSan).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "../cli/split_files.hpp"
#include "soma.hpp"
#include "parallel/checkpoint.hpp"
#include "parallel/piece_check.hpp"
#include "parallel/subproblem.hpp"
#include "puzzle/puzzle.hpp"
#include "session/checkpoint_file.hpp"
#include "solver/options.hpp"
#include "solver/solver.hpp"

using namespace polycube;

namespace {

using polycube_fuzz::kSoma;

// The fingerprint a checkpoint text claims (its second line), so that decoding goes past the
// fingerprint check into the counts and pieces.
std::string claimedFingerprint(const std::string& text) {
    const size_t at = text.find("\nfingerprint ");
    if (at == std::string::npos) return "";
    const size_t from = at + 13, end = text.find('\n', from);
    return text.substr(from, std::min<size_t>(end == std::string::npos ? text.size() : end, from + 64) - from);
}

// The Soma cube's -r search, set up once: what a checkpoint of it is checked against.
const Solver& soma() {
    static std::unique_ptr<Solver> s = [] {
        OptionParse p = parseOptions({"-r"}, [](const std::string&) { return false; });
        Result<std::unique_ptr<Solver>> made = Solver::create(parseDefinitions(kSoma, "soma.txt").puzzles.at(0), p.options);
        if (!made.ok()) __builtin_trap();
        return std::move(made.value);
    }();
    return *s;
}

void checkpointText(const std::string& text) {
    Result<Checkpoint> ck = decodeCheckpoint(text, claimedFingerprint(text), "fuzz.ck");
    if (!ck.ok()) {
        if (ck.status.message.size() > 2000) __builtin_trap();  // messages quote bounded text
        return;
    }
    // Encoded again, it decodes to the same pieces, counts and origin.
    Result<Checkpoint> again = decodeCheckpoint(encodeCheckpoint(ck.value), ck.value.fingerprint, "again.ck");
    if (!again.ok() || again.value.pending.size() != ck.value.pending.size() ||
        again.value.finished.solutions != ck.value.finished.solutions || again.value.origin.has_value() != ck.value.origin.has_value())
        __builtin_trap();
    if (const std::optional<CheckpointOrigin>& o = ck.value.origin) {
        const CheckpointOrigin& back = *again.value.origin;
        if (back.options != o->options || back.source != o->source || back.puzzle != o->puzzle || back.definition != o->definition)
            __builtin_trap();
        // What --resume FILE alone does with it: its options, its definition (bounded).
        if (!parseSearchOptions(o->options).ok()) __builtin_trap();  // (decoding refuses options that do not parse)
        ParseLimits small;
        small.maxInputBytes = 1 << 16;
        if (o->definition.size() <= small.maxInputBytes) parseDefinitions(o->definition, o->source, small);
    }
    // The page's side: the file as the page opens it, and its piece book written back to a
    // file that reads the same.
    const nlohmann::json opened = nlohmann::json::parse(openCheckpointJson(text, "fuzz.ck"), nullptr, false);
    if (opened.is_discarded() || !opened.contains("ok")) __builtin_trap();
    if (opened["ok"] == true) {
        nlohmann::json kept = opened;
        kept.erase("ok");
        const nlohmann::json file = nlohmann::json::parse(checkpointFileJson(kept.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)), nullptr, false);
        if (file.is_discarded() || !file.contains("ok")) __builtin_trap();
        // The same search, as far as the page keeps it (text that is not UTF-8 comes back with
        // its bytes replaced; the per-level lists from one piece left).
        const CheckpointOrigin* o = ck.value.origin ? &*ck.value.origin : nullptr;
        if (!o) __builtin_trap();  // (a file without its puzzle is not opened)
        if (file["ok"] == true && kept["definition"] == o->definition && kept["options"] == o->options && kept["source"] == o->source) {
            const Result<Checkpoint> back = readCheckpoint(file["text"].get<std::string>(), "back.ck");
            if (!back.ok() || pieceBookJson(back.value) != pieceBookJson(ck.value) || back.value.origin->definition != o->definition ||
                back.value.origin->puzzle != o->puzzle)
                __builtin_trap();
        }
    }
    if (ck.value.fingerprint == searchFingerprint(soma())) {
        checkResume(ck.value, soma(), true);
        checkResume(ck.value, soma(), false);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    soma();
    checkpointText(text);

    Result<JobFile> job = decodeJob(text, "fuzz.job");
    if (job.ok()) {
        Result<JobFile> again = decodeJob(encodeJob(job.value), "again.job");
        if (!again.ok() || again.value.sum != job.value.sum || again.value.words != job.value.words ||
            again.value.definition != job.value.definition || again.value.work != job.value.work || again.value.job != job.value.job ||
            again.value.jobs != job.value.jobs)
            __builtin_trap();
        checkpointText(job.value.work);
        ParseLimits small;
        small.maxInputBytes = 1 << 16;
        if (job.value.definition.size() <= small.maxInputBytes) parseDefinitions(job.value.definition, job.value.source, small);
        parseOptions(job.value.words, [&](const std::string& w) { return w == job.value.source; });
    } else if (job.status.message.size() > 2000) {
        __builtin_trap();
    }

    auto readAt = [&](long long at, size_t n, char* out) {
        if (at < 0 || static_cast<unsigned long long>(at) + n > text.size()) return false;
        std::memcpy(out, text.data() + at, n);
        return true;
    };
    Result<ResultFile> result = readResult(static_cast<long long>(text.size()), readAt, "fuzz.result");
    if (result.ok()) {
        const ResultFile& r = result.value;
        if (r.solutionsAt < 0 || r.solutionsBytes < 0 || static_cast<unsigned long long>(r.solutionsAt + r.solutionsBytes) > text.size())
            __builtin_trap();
        const std::string solutions = text.substr(static_cast<size_t>(r.solutionsAt), static_cast<size_t>(r.solutionsBytes));
        const std::string whole = encodeResult(r, solutions).whole();
        auto readWhole = [&](long long at, size_t n, char* out) {
            if (at < 0 || static_cast<unsigned long long>(at) + n > whole.size()) return false;
            std::memcpy(out, whole.data() + at, n);
            return true;
        };
        Result<ResultFile> again = readResult(static_cast<long long>(whole.size()), readWhole, "again.result");
        if (!again.ok() || again.value.totals != r.totals || again.value.solutionsBytes != r.solutionsBytes || again.value.job != r.job)
            __builtin_trap();
        checkpointText(r.totals);
    } else if (result.status.message.size() > 2000) {
        __builtin_trap();
    }
    return 0;
}
