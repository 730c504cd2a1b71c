#include "session/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "assembly/build_order.hpp"
#include "common/text.hpp"
#include "output/format.hpp"
#include "parallel/piece_check.hpp"
#include "parallel/subproblem.hpp"
#include "puzzle/puzzle.hpp"
#include "session/draft.hpp"
#include "solver/options.hpp"
#include "search/trace.hpp"
#include "solver/solver.hpp"

namespace polycube {

namespace {

const char* stateName(Session::StepState s) {
    switch (s) {
        case Session::RUNNING: return "running";
        case Session::DONE: return "done";
        case Session::CANCELLED: return "cancelled";
        case Session::FAILED: return "failed";
        case Session::IDLE: return "idle";
    }
    return "idle";
}

}  // namespace

Session::Session() : puzzles_(std::make_unique<std::vector<PuzzleDef>>()) {}

Session::~Session() = default;  // here, where PuzzleDef and Solver are complete

std::string Session::version() { return POLYCUBE_VERSION; }

// Source names come from the page (a file's name, a link): capped like any quoted input, since
// every message and puzzle description repeats them.
std::string Session::draftJson(const std::string& text, const std::string& sourceName) {
    return polycube::draftJson(text, quoteText(sourceName, 200));
}

bool Session::load(const std::string& text, const std::string& sourceName) {
    solver_.reset();
    state_ = IDLE;
    buffers_.solutions.clear();
    buffers_.trace.clear();
    ParseResult r = parseDefinitions(text, sourceName.empty() ? "<input>" : quoteText(sourceName, 200));
    if (!r.ok()) {
        puzzles_->clear();
        error_ = r.error.format();
        return false;
    }
    *puzzles_ = std::move(r.puzzles);
    error_.clear();
    return true;
}

int Session::puzzleCount() const { return static_cast<int>(puzzles_->size()); }

std::string Session::buildOrderJson(int index, const std::vector<int32_t>& grid) const {
    if (index < 0 || index >= puzzleCount())
        return polycube::buildOrderErrorJson("no puzzle number " + std::to_string(index) + " (" +
                                             std::to_string(puzzleCount()) + " loaded)");
    const PuzzleDef& def = (*puzzles_)[index];
    Result<BuildOrder> order = computeBuildOrder(def, std::vector<int>(grid.begin(), grid.end()));
    return order.ok() ? polycube::buildOrderJson(def, order.value) : polycube::buildOrderErrorJson(order.status.message);
}

std::string Session::puzzleJson(int index) const {
    if (index < 0 || index >= puzzleCount()) return "null";
    return polycube::puzzleJson((*puzzles_)[index]);
}

bool Session::start(int index, const std::string& options) {
    solver_.reset();
    buffers_.solutions.clear();
    buffers_.trace.clear();
    state_ = FAILED;
    if (index < 0 || index >= puzzleCount()) {
        error_ = "no puzzle number " + std::to_string(index) + " (" + std::to_string(puzzleCount()) + " loaded)";
        return false;
    }
    OptionParse p = parseSearchOptions(options);
    if (!p.ok()) {
        error_ = p.error;
        return false;
    }
    // Setup (model, filters' tables, matrix: seconds for a big puzzle) runs in step()
    // slices like the search, so start() returns at once and cancel() is honoured there too.
    // Its errors (e.g. a puzzle too large for memory) end the first steps with FAILED.
    const PuzzleDef& def = (*puzzles_)[index];
    solver_ = Solver::begin(def, p.options);
    cellCount_ = def.boxVolume();
    traceLimit_ = traceCount_ = 0;
    traceFull_ = false;
    windowStats_.reset();
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
    error_.clear();
    state_ = RUNNING;
    return true;
}

Session::StepState Session::step(double budget) {
    if (!solver_ || state_ != RUNNING) return state_;
    // NaN, infinities and negative budgets are clamped (NaN compares false with everything:
    // `!(budget >= 1)` catches it, where `budget < 1` did not and the cast was undefined).
    const long long b = !(budget >= 1) ? 1 : budget >= kMaxBudget ? static_cast<long long>(kMaxBudget)
                                                                  : static_cast<long long>(budget);
    switch (solver_->step(b, kSliceSeconds)) {
        case Solver::State::Running: state_ = RUNNING; break;
        case Solver::State::Done:
        case Solver::State::LimitReached:
            state_ = DONE;
            if (!solver_->subproblemError().empty()) {  // a path of another tree (startSubproblem)
                state_ = FAILED;
                error_ = solver_->subproblemError();
            }
            break;
        case Solver::State::Cancelled: state_ = CANCELLED; break;
        case Solver::State::Failed:
            state_ = FAILED;
            error_ = solver_->error();
            break;
    }
    return state_;
}

void Session::cancel() {
    if (solver_) solver_->cancel();
    if (state_ == RUNNING) state_ = CANCELLED;
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
    if (!solver_) return "no search was started";
    return whyNotSplittable(solver_->options());
}

std::string Session::fingerprint() const {
    return solver_ && solver_->ready() ? searchFingerprint(*solver_) : std::string();
}

bool Session::startSubproblem(const std::vector<int32_t>& path) {
    if (!solver_ || !solver_->ready()) {
        error_ = "subproblem: start() the search and let its setup finish first";
        return false;
    }
    if (state_ != RUNNING && state_ != DONE) {
        error_ = "subproblem: the last search was cancelled or failed; start() it again";
        return false;
    }
    const std::string refusal = whyNotSplittable(solver_->options());
    if (!refusal.empty()) {
        error_ = "subproblem: this search cannot be split (" + refusal + ")";
        return false;
    }
    Status st = solver_->startSubproblem(std::vector<int>(path.begin(), path.end()));
    if (!st.ok) {
        error_ = st.message;
        return false;
    }
    buffers_.solutions.clear();
    error_.clear();
    state_ = solver_->state() == Solver::State::Running ? RUNNING : DONE;  // proved impossible: nothing to search
    return true;
}

bool Session::checkResume(const std::string& checkpointJson) {
    if (!solver_ || !solver_->ready()) {
        error_ = "checkResume: start() the search and let its setup finish first";
        return false;
    }
    const Status st = checkPieceBookJson(checkpointJson, *solver_, "the kept search");
    error_ = st.ok ? std::string() : st.message;
    return st.ok;
}

std::string Session::donateJson(int maxPaths) {
    std::string out = "{\"share\":";
    std::vector<std::vector<int>> paths;
    double share = 0;
    if (maxPaths < 1) maxPaths = std::numeric_limits<int>::max();
    if (solver_ && solver_->ready() && state_ == RUNNING) solver_->donate(paths, &share, maxPaths);
    char number[32];
    std::snprintf(number, sizeof number, "%.17g", paths.empty() ? 0.0 : share);
    out += number;
    out += ",\"paths\":[";
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

std::string Session::statsJson() const {
    if (!solver_) return std::string("{\"state\":\"") + stateName(state_) + "\"}";
    return polycube::statsJson(*solver_, windowStats_ ? *windowStats_ : solver_->stats(), stateName(state_));
}

void Session::setTraceLimit(double events) {
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

bool Session::ready() const { return solver_ && solver_->ready(); }

std::vector<int32_t> Session::imageCells(int imageIndex) const {
    std::vector<int32_t> out;
    if (!solver_) return out;
    const Model& m = solver_->model();
    if (imageIndex < 0 || imageIndex >= static_cast<int>(m.images.size())) return out;
    for (int c : m.images[imageIndex].cells) out.push_back(m.boxOfOpenCell[c]);
    return out;
}

std::vector<int32_t> Session::imageShapes() const {
    std::vector<int32_t> out;
    if (!solver_) return out;
    for (const Image& image : solver_->model().images) out.push_back(image.shape);
    return out;
}

std::vector<int32_t> Session::instanceShapes() const {
    std::vector<int32_t> out;
    if (!solver_) return out;
    for (const PieceInstance& inst : solver_->model().instances) out.push_back(inst.shape);
    return out;
}

}  // namespace polycube
