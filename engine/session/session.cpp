#include "session/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <cstdio>
#include <limits>
#include <utility>

#include "assembly/build_order.hpp"
#include "common/text.hpp"
#include "memo/memo_counter.hpp"
#include "memo/memo_options.hpp"
#include "memo/memo_report.hpp"
#include "output/format.hpp"
#include "parallel/piece_check.hpp"
#include "parallel/subproblem.hpp"
#include "play/play.hpp"
#include "puzzle/puzzle.hpp"
#include "session/checkpoint_file.hpp"
#include "session/draft.hpp"
#include "solver/options.hpp"
#include "search/trace.hpp"
#include "solver/solver.hpp"

namespace polycube {

namespace {

using Phase = Session::Phase;
using Call = Session::Call;

const char* stepStateName(Session::StepState s) {
    switch (s) {
        case Session::RUNNING: return "running";
        case Session::DONE: return "done";
        case Session::CANCELLED: return "cancelled";
        case Session::FAILED: return "failed";
        case Session::IDLE: return "idle";
    }
    return "idle";
}

// The table of session.hpp, one row per Call, one letter per Phase (EMPTY ... FAILED):
// 'x' legal, 'r' legal once the setup had finished, '-' refused.
constexpr const char* kLegal[static_cast<int>(Call::kCallCount)] = {
    "xxxxxxxx",  // load
    "-xxxxxxx",  // puzzleJson
    "-xxxxxxx",  // buildOrderJson
    "-xxxxxxx",  // start
    "--xxxxxx",  // step
    "--xx----",  // setTraceLimit
    "--xxxxxx",  // splitRefusal
    "---xxxrr",  // fingerprint
    "---xxxrr",  // imageCells
    "---xxxrr",  // imageShapes
    "---xxxrr",  // instanceShapes
    "---xxxrr",  // checkResume
    "---x-x--",  // startSubproblem
    "----x---",  // donateJson
    "-xxxxxxx",  // startPlay
    "-xxxxxxx",  // solutionsText
};

// The calls about a search's tree (its setup, images, sharing): a play question has none.
bool describesSearch(Call c) {
    switch (c) {
        case Call::kLoad:
        case Call::kPuzzleJson:
        case Call::kBuildOrderJson:
        case Call::kStart:
        case Call::kStep:
        case Call::kStartPlay:
        case Call::kSolutionsText: return false;
        default: return true;
    }
}

}  // namespace

const char* Session::phaseName(Phase p) {
    switch (p) {
        case Phase::kEmpty: return "empty";
        case Phase::kLoaded: return "loaded";
        case Phase::kSettingUp: return "setting up";
        case Phase::kReady: return "ready";
        case Phase::kSearching: return "searching";
        case Phase::kFinished: return "finished";
        case Phase::kCancelled: return "cancelled";
        case Phase::kFailed: return "failed";
    }
    return "empty";
}

const char* Session::errorCodeName(ErrorCode c) {
    switch (c) {
        case ErrorCode::kNone: return "none";
        case ErrorCode::kIllegalCall: return "illegal-call";
        case ErrorCode::kBadArgument: return "bad-argument";
        case ErrorCode::kBadDefinition: return "bad-definition";
        case ErrorCode::kBadOptions: return "bad-options";
        case ErrorCode::kSearchFailed: return "search-failed";
        case ErrorCode::kNotResumable: return "not-resumable";
        case ErrorCode::kOtherSearch: return "other-search";
    }
    return "none";
}

const char* Session::callName(Call c) {
    static const char* const names[] = {"load", "puzzleJson", "buildOrderJson", "start", "step",
                                        "setTraceLimit", "splitRefusal", "fingerprint", "imageCells",
                                        "imageShapes", "instanceShapes", "checkResume", "startSubproblem",
                                        "donateJson", "startPlay", "solutionsText"};
    const int i = static_cast<int>(c);
    return i >= 0 && i < static_cast<int>(Call::kCallCount) ? names[i] : "?";
}

bool Session::legal(Call call, Phase phase, bool afterSetup) {
    const int i = static_cast<int>(call);
    if (i < 0 || i >= static_cast<int>(Call::kCallCount)) return false;
    const char mark = kLegal[i][static_cast<int>(phase)];
    return mark == 'x' || (mark == 'r' && afterSetup);
}

bool Session::fail(ErrorCode code, std::string message) const {
    code_ = code;
    error_ = std::move(message);
    return false;
}

bool Session::enter(Call call) const {
    code_ = ErrorCode::kNone;
    error_.clear();
    if (play_ && describesSearch(call))
        return fail(ErrorCode::kIllegalCall, std::string(callName(call)) + ": not legal while the session answers a play question (startPlay)");
    if (memo_ && describesSearch(call) && call != Call::kSplitRefusal)
        return fail(ErrorCode::kIllegalCall, std::string(callName(call)) + ": not legal for a memoized count (--memo): it has no search tree");
    if (legal(call, phase_, ready())) return true;
    std::string allowed;
    for (int p = 0; p <= static_cast<int>(Phase::kFailed); ++p) {
        if (!legal(call, static_cast<Phase>(p), true)) continue;
        allowed += allowed.empty() ? "" : ", ";
        allowed += phaseName(static_cast<Phase>(p));
        if (!legal(call, static_cast<Phase>(p), false)) allowed += " after the setup";
    }
    std::string why = std::string(callName(call)) + ": not legal while the session is " + phaseName(phase_);
    if ((phase_ == Phase::kCancelled || phase_ == Phase::kFailed) && legal(call, phase_, true))
        why += " before its setup finished";
    return fail(ErrorCode::kIllegalCall, why + " (legal: " + allowed + ")");
}

Session::StepState Session::state() const {
    switch (phase_) {
        case Phase::kEmpty:
        case Phase::kLoaded: return IDLE;
        case Phase::kSettingUp:
        case Phase::kReady:
        case Phase::kSearching: return RUNNING;
        case Phase::kFinished: return DONE;
        case Phase::kCancelled: return CANCELLED;
        case Phase::kFailed: return FAILED;
    }
    return IDLE;
}

void Session::dropSearch() {
    solver_.reset();
    memo_.reset();
    play_.reset();
    buffers_.solutions.clear();
    buffers_.trace.clear();
    failure_.clear();
    cellCount_ = 0;
    traceLimit_ = traceCount_ = 0;
    traceFull_ = false;
    windowStats_.reset();
}

Session::Session() : puzzles_(std::make_unique<std::vector<PuzzleDef>>()) {}

Session::~Session() = default;  // here, where PuzzleDef, Solver and MemoCounter are complete

std::string Session::version() { return POLYCUBE_VERSION; }

// Source names come from the page (a file's name, a link): capped like any quoted input, since
// every message and puzzle description repeats them.
std::string Session::draftJson(const std::string& text, const std::string& sourceName) {
    return polycube::draftJson(text, quoteText(sourceName, 200));
}

std::string Session::checkpointFileJson(const std::string& keptJson) { return polycube::checkpointFileJson(keptJson); }

std::string Session::openCheckpointJson(const std::string& text, const std::string& fileName) {
    return polycube::openCheckpointJson(text, fileName);
}

bool Session::load(const std::string& text, const std::string& sourceName) {
    enter(Call::kLoad);
    dropSearch();
    ParseResult r = parseDefinitions(text, sourceName.empty() ? "<input>" : quoteText(sourceName, 200));
    if (!r.ok()) {
        puzzles_->clear();
        phase_ = Phase::kEmpty;
        return fail(ErrorCode::kBadDefinition, r.error.format());
    }
    *puzzles_ = std::move(r.puzzles);
    phase_ = Phase::kLoaded;
    return true;
}

int Session::puzzleCount() const { return static_cast<int>(puzzles_->size()); }

namespace {

std::string noPuzzle(int index, int count) {
    return "no puzzle number " + std::to_string(index) + " (" + std::to_string(count) + " loaded)";
}

}  // namespace

std::string Session::buildOrderJson(int index, const std::vector<int32_t>& grid) const {
    if (!enter(Call::kBuildOrderJson)) return std::string();
    if (index < 0 || index >= puzzleCount()) return fail(ErrorCode::kBadArgument, noPuzzle(index, puzzleCount())), std::string();
    const PuzzleDef& def = (*puzzles_)[index];
    Result<BuildOrder> order = computeBuildOrder(def, std::vector<int>(grid.begin(), grid.end()));
    if (!order.ok()) return fail(ErrorCode::kBadArgument, order.status.message), std::string();
    return polycube::buildOrderJson(def, order.value);
}

std::string Session::puzzleJson(int index) const {
    if (!enter(Call::kPuzzleJson)) return std::string();
    if (index < 0 || index >= puzzleCount()) return fail(ErrorCode::kBadArgument, noPuzzle(index, puzzleCount())), std::string();
    return polycube::puzzleJson((*puzzles_)[index]);
}

bool Session::startAfresh(Call call, int index) {
    if (!enter(call)) return false;
    dropSearch();
    phase_ = Phase::kLoaded;
    if (index < 0 || index >= puzzleCount()) return fail(ErrorCode::kBadArgument, noPuzzle(index, puzzleCount()));
    return true;
}

bool Session::start(int index, const std::string& options) {
    if (!startAfresh(Call::kStart, index)) return false;
    // The search options under the engine's own rules (solver/options.hpp): the command line's
    // switches for its terminal, files and output order are refused there.
    OptionParse p = parseSearchOptions(options);
    if (!p.ok()) return fail(ErrorCode::kBadOptions, p.error);
    // Setup (model, filters' tables, matrix: seconds for a big puzzle) runs in step()
    // slices like the search, so start() returns at once and cancel() is honoured there too.
    // Its errors (e.g. a puzzle too large for memory) end the first steps with FAILED.
    const PuzzleDef& def = (*puzzles_)[index];
    if (p.options.memo) return startMemo(def, p.options);
    // The counting forecast, for a listing too: statsJson's "countingForecast" tells the page
    // when a count alone (--memo) would be quicker than this listing (memo/memo_choice.hpp).
    SolverOptions searchOptions = p.options;
    searchOptions.forecastListing = true;
    solver_ = Solver::begin(def, searchOptions);
    cellCount_ = def.boxVolume();
    solver_->setSolutionHandler([this](const Solution& s) {
        // (a solution's trace event comes just before it: after the window, it was dropped)
        if (traceFull_ && traceCount_ > traceLimit_) return;
        buffers_.solutions.insert(buffers_.solutions.end(), s.grid.begin(), s.grid.end());
    });
    if (p.options.trace != 0) {
        solver_->setTraceHandler([this](const TraceEvent& e) {
            traceCount_ += 1;
            if (traceFull_) return;
            buffers_.trace.insert(buffers_.trace.end(), {e.op, e.remaining, e.a, e.b});
            if (traceLimit_ > 0 && traceCount_ >= traceLimit_) {
                traceFull_ = true;
                windowStats_ = std::make_unique<SolverStats>(solver_->stats());
                solver_->cancel();  // seen at the end of the solver's current chunk
            }
        });
    }
    phase_ = Phase::kSettingUp;
    return true;
}

// --memo: the memoized counter, with a table within the engine's memory budget for a search
// (memo/memo_options.hpp sessionMemoBytes). It lists nothing: the count comes in statsJson.
bool Session::startMemo(const PuzzleDef& def, const SolverOptions& options) {
    const ModelLimits limits;
    const Result<long long> bytes = sessionMemoBytes(options, limits);
    if (!bytes.ok()) return fail(ErrorCode::kBadOptions, bytes.status.message);
    MemoSettings settings = memoSettings(options);
    settings.maxTableBytes = bytes.value;
    memo_ = MemoCounter::begin(def, settings, limits);
    cellCount_ = def.boxVolume();
    phase_ = Phase::kSettingUp;
    return true;
}

Session::StepState Session::stepMemo(long long budget) {
    if (phase_ == Phase::kReady) phase_ = Phase::kSearching;
    const MemoCounter::State stepped = memo_->step(budget);
    // (--solution, --random: the solutions the count's walk listed, as a search lists them)
    for (const MemoCounter::Picked& p : memo_->takePicked())
        buffers_.solutions.insert(buffers_.solutions.end(), p.grid.begin(), p.grid.end());
    switch (stepped) {
        case MemoCounter::State::Running:
            if (phase_ == Phase::kSettingUp && memo_->ready()) phase_ = Phase::kReady;
            return state();
        case MemoCounter::State::Done: phase_ = Phase::kFinished; return state();
        case MemoCounter::State::Cancelled: phase_ = Phase::kCancelled; return state();
        case MemoCounter::State::Failed: break;
    }
    failure_ = memo_->error();
    phase_ = Phase::kFailed;
    return fail(ErrorCode::kSearchFailed, failure_), FAILED;
}

Session::StepState Session::step(double budget) {
    if (!enter(Call::kStep)) return state();
    if (phase_ == Phase::kFailed) return fail(ErrorCode::kSearchFailed, failure_), FAILED;
    if (phase_ != Phase::kSettingUp && phase_ != Phase::kReady && phase_ != Phase::kSearching) return state();
    // NaN, infinities and negative budgets are clamped (NaN compares false with everything:
    // `!(budget >= 1)` catches it, and the cast of NaN is undefined).
    const long long b = !(budget >= 1) ? 1 : budget >= kMaxBudget ? static_cast<long long>(kMaxBudget)
                                                                  : static_cast<long long>(budget);
    if (play_) {
        switch (play_->step(b, kSliceSeconds)) {
            case PlayQuery::State::Running: break;
            case PlayQuery::State::Done: phase_ = Phase::kFinished; break;
            case PlayQuery::State::Cancelled: phase_ = Phase::kCancelled; break;
            case PlayQuery::State::Failed: failure_ = play_->error(); break;
        }
        if (!failure_.empty()) {
            phase_ = Phase::kFailed;
            return fail(ErrorCode::kSearchFailed, failure_), FAILED;
        }
        return state();
    }
    if (memo_) return stepMemo(b);
    if (phase_ == Phase::kReady) phase_ = Phase::kSearching;
    switch (solver_->step(b, kSliceSeconds)) {
        case Solver::State::Running:
            if (phase_ == Phase::kSettingUp && solver_->ready()) phase_ = Phase::kReady;
            break;
        case Solver::State::Done:
        case Solver::State::LimitReached:
            phase_ = Phase::kFinished;
            if (!solver_->subproblemError().empty()) failure_ = solver_->subproblemError();  // a path of another tree
            break;
        case Solver::State::Cancelled: phase_ = Phase::kCancelled; break;
        case Solver::State::Failed: failure_ = solver_->error(); break;
    }
    if (!failure_.empty()) {
        phase_ = Phase::kFailed;
        return fail(ErrorCode::kSearchFailed, failure_), FAILED;
    }
    return state();
}

void Session::cancel() {
    if (solver_) solver_->cancel();
    if (memo_) memo_->cancel();
    if (play_) play_->cancel();
    if (phase_ == Phase::kSettingUp || phase_ == Phase::kReady || phase_ == Phase::kSearching) phase_ = Phase::kCancelled;
}

std::vector<int32_t> Session::takeSolutions(int max) {
    std::vector<int32_t> out;
    if (cellCount_ <= 0 || max <= 0) return out;
    size_t available = buffers_.solutions.size() / cellCount_;
    size_t n = std::min<size_t>(available, static_cast<size_t>(max));
    size_t len = n * cellCount_;
    out.assign(buffers_.solutions.begin(), buffers_.solutions.begin() + len);
    buffers_.solutions.erase(buffers_.solutions.begin(), buffers_.solutions.begin() + len);
    return out;
}

int Session::pendingSolutions() const {
    return cellCount_ > 0 ? static_cast<int>(buffers_.solutions.size() / cellCount_) : 0;
}

int Session::cellCount() const { return cellCount_; }

std::string Session::splitRefusal() const {
    if (!enter(Call::kSplitRefusal)) return std::string();
    if (memo_) {
        SolverOptions memo;  // (every memoized count has the same refusal)
        memo.memo = true;
        return whyNotSplittable(memo);
    }
    return whyNotSplittable(solver_->options());
}

std::string Session::fingerprint() const {
    if (!enter(Call::kFingerprint)) return std::string();
    return searchFingerprint(*solver_);
}

bool Session::startSubproblem(const std::vector<int32_t>& path) {
    if (!enter(Call::kStartSubproblem)) return false;
    const std::string refusal = whyNotSplittable(solver_->options());
    if (!refusal.empty()) return fail(ErrorCode::kIllegalCall, "startSubproblem: this search cannot be split (" + refusal + ")");
    Status st = solver_->startSubproblem(std::vector<int>(path.begin(), path.end()));
    if (!st.ok) return fail(ErrorCode::kBadArgument, st.message);
    buffers_.solutions.clear();
    phase_ = solver_->state() == Solver::State::Running ? Phase::kSearching : Phase::kFinished;  // proved impossible: nothing to search
    return true;
}

bool Session::checkResume(const std::string& checkpointJson) {
    if (!enter(Call::kCheckResume)) return false;
    bool otherSearch = false;
    const Status st = checkPieceBookJson(checkpointJson, *solver_, "the kept search", &otherSearch);
    return st.ok || fail(otherSearch ? ErrorCode::kOtherSearch : ErrorCode::kNotResumable, st.message);
}

std::string Session::donateJson(int maxPaths) {
    if (!enter(Call::kDonateJson)) return std::string();
    std::vector<std::vector<int>> paths;
    double share = 0;
    solver_->donate(paths, &share, maxPaths < 1 ? std::numeric_limits<int>::max() : maxPaths);
    char number[32];
    std::snprintf(number, sizeof number, "%.17g", paths.empty() ? 0.0 : share);
    std::string out = std::string("{\"share\":") + number + ",\"paths\":[";
    for (size_t i = 0; i < paths.size(); ++i) {
        out += i ? ",[" : "[";
        for (size_t k = 0; k < paths[i].size(); ++k) {
            if (k) out += ',';
            out += std::to_string(paths[i][k]);
        }
        out += ']';
    }
    return out + "]}";
}

bool Session::startPlay(int index, const std::vector<int32_t>& placements, const std::string& kind, double limit,
                        int fixed, int piece) {
    if (!startAfresh(Call::kStartPlay, index)) return false;
    const std::pair<const char*, PlayQuery::Kind> kinds[] = {
        {"count", PlayQuery::Kind::Count}, {"hint", PlayQuery::Kind::Hint}, {"wrong", PlayQuery::Kind::Wrong},
        {"where", PlayQuery::Kind::Where}};
    const auto named = std::find_if(std::begin(kinds), std::end(kinds), [&](const auto& e) { return kind == e.first; });
    if (named == std::end(kinds)) {
        return fail(ErrorCode::kBadArgument, "play: the question must be count, hint, wrong or where (not '" + quoteText(kind) + "')");
    }
    const PuzzleDef& def = (*puzzles_)[index];
    std::vector<Placement> placed;
    for (size_t at = 0; at < placements.size();) {
        const size_t number = placed.size() + 1;
        if (placed.size() >= static_cast<size_t>(def.instanceCount())) {
            return fail(ErrorCode::kBadArgument, "play: more placements than the puzzle has pieces (" + std::to_string(def.instanceCount()) + ")");
        }
        if (at + 2 > placements.size() || placements[at + 1] < 1 ||
            static_cast<size_t>(placements[at + 1]) > placements.size() - at - 2) {
            return fail(ErrorCode::kBadArgument, "play: the list of placements ends inside placement " + std::to_string(number) +
                     " (each is a piece number, a cell count and that many cells)");
        }
        Placement p;
        p.instance = placements[at];
        p.cells.assign(placements.begin() + static_cast<std::ptrdiff_t>(at + 2),
                       placements.begin() + static_cast<std::ptrdiff_t>(at + 2 + static_cast<size_t>(placements[at + 1])));
        at += 2 + p.cells.size();
        placed.push_back(std::move(p));
    }
    // (a double from JavaScript: below 1 or NaN is no limit, and so is one past any count)
    const long long cap = limit >= 1 && limit < 4e18 ? static_cast<long long>(limit) : 0;
    // (a count past its limit is made whole where that is cheap: play.hpp)
    auto q = PlayQuery::begin(def, std::move(placed), named->second, cap, fixed, named->second == PlayQuery::Kind::Count, piece);
    if (!q.ok()) {
        return fail(ErrorCode::kBadArgument, q.status.message);
    }
    play_ = std::move(q.value);
    cellCount_ = def.boxVolume();
    phase_ = Phase::kSearching;
    return true;
}

std::string Session::playJson() const { return play_ ? play_->json() : "{}"; }

std::string Session::statsJson() const {
    if (memo_) {
        const MemoStats& st = memo_->stats();
        nlohmann::json j = memoCountJson(*memo_, st, stepStateName(state()),
                                         phase_ == Phase::kFinished ? std::optional<uint64_t>(memo_->count()) : std::nullopt, 1);
        j["fits"] = st.placements;  // (the enumerating search's name for placements)
        j["fractionDone"] = memo_->fractionDone();
        j["memo"]["mostBudgetBytes"] = sessionMostMemoBytes(ModelLimits{});  // (--memo-mb's most here)
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (!solver_) return std::string("{\"state\":\"") + stepStateName(state()) + "\"}";
    return polycube::statsJson(*solver_, windowStats_ ? *windowStats_ : solver_->stats(), stepStateName(state()));
}

void Session::setTraceLimit(double events) {
    if (!enter(Call::kSetTraceLimit)) return;
    // (a double: 2^31 and more events are a window too; NaN is none)
    traceLimit_ = events >= 1 ? std::floor(events) : 0;
}

std::vector<int32_t> Session::takeTrace(int maxEvents) {
    // In events, not ints: maxEvents * 4 overflows a 32-bit size_t (WebAssembly) from 2^30.
    const size_t events = std::min<size_t>(buffers_.trace.size() / trace::kRecordInts, static_cast<size_t>(std::max(0, maxEvents)));
    const size_t n = events * trace::kRecordInts;
    std::vector<int32_t> out(buffers_.trace.begin(), buffers_.trace.begin() + n);
    buffers_.trace.erase(buffers_.trace.begin(), buffers_.trace.begin() + n);
    return out;
}

bool Session::ready() const { return (solver_ && solver_->ready()) || (memo_ && memo_->ready()); }

std::vector<int32_t> Session::imageCells(int imageIndex) const {
    std::vector<int32_t> out;
    if (!enter(Call::kImageCells)) return out;
    const Model& m = solver_->model();
    if (imageIndex < 0 || imageIndex >= static_cast<int>(m.images.size())) {
        fail(ErrorCode::kBadArgument, "imageCells: no image number " + std::to_string(imageIndex) + " (" +
                                          std::to_string(m.images.size()) + " images)");
        return out;
    }
    for (int c : m.images[imageIndex].cells) out.push_back(m.boxOfOpenCell[c]);
    return out;
}

std::vector<int32_t> Session::imageShapes() const {
    std::vector<int32_t> out;
    if (!enter(Call::kImageShapes)) return out;
    for (const Image& image : solver_->model().images) out.push_back(image.shape);
    return out;
}

std::vector<int32_t> Session::instanceShapes() const {
    std::vector<int32_t> out;
    if (!enter(Call::kInstanceShapes)) return out;
    for (const PieceInstance& inst : solver_->model().instances) out.push_back(inst.shape);
    return out;
}

}  // namespace polycube
