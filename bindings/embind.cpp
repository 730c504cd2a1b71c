// Thin embind layer over polycube::Session (engine/session/session.hpp). Type conversion only:
// no logic lives here. The engine reports errors as values (bool / StepState + lastError()),
// so no C++ exception ever crosses into JavaScript.
//
// Flat int vectors are returned as fresh JS Int32Arrays copied out of wasm memory, so the
// caller owns them (they survive memory growth and can be transferred to another thread).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include "session/engine_rules.hpp"
#include "session/session.hpp"

namespace {

using emscripten::val;
using polycube::Session;

val toInt32Array(const std::vector<int32_t>& v) {
    // typed_memory_view aliases wasm memory; `new Int32Array(view)` copies it out.
    return val::global("Int32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}

bool load(Session& s, const std::string& text, const std::string& source) { return s.load(text, source); }
int puzzleCount(const Session& s) { return s.puzzleCount(); }
std::string puzzleJson(const Session& s, int i) { return s.puzzleJson(i); }
bool start(Session& s, int i, const std::string& options) { return s.start(i, options); }
int step(Session& s, double budget) { return static_cast<int>(s.step(budget)); }
void cancel(Session& s) { s.cancel(); }
int state(const Session& s) { return static_cast<int>(s.state()); }
bool ready(const Session& s) { return s.ready(); }
val takeSolutions(Session& s, int max) { return toInt32Array(s.takeSolutions(max)); }
int pendingSolutions(const Session& s) { return s.pendingSolutions(); }
int cellCount(const Session& s) { return s.cellCount(); }
std::string statsJson(const Session& s) { return s.statsJson(); }
val takeTrace(Session& s, int maxEvents) { return toInt32Array(s.takeTrace(maxEvents)); }
void setTraceLimit(Session& s, double events) { s.setTraceLimit(events); }
bool traceLimitReached(const Session& s) { return s.traceLimitReached(); }
val imageCells(const Session& s, int image) { return toInt32Array(s.imageCells(image)); }
val imageShapes(const Session& s) { return toInt32Array(s.imageShapes()); }
val instanceShapes(const Session& s) { return toInt32Array(s.instanceShapes()); }
std::string splitRefusal(const Session& s) { return s.splitRefusal(); }
std::string fingerprint(const Session& s) { return s.fingerprint(); }
// path: a JS array or Int32Array of image ids.
bool startSubproblem(Session& s, const val& path) {
    return s.startSubproblem(emscripten::convertJSArrayToNumberVector<int32_t>(path));
}
std::string donateJson(Session& s, int maxPaths) { return s.donateJson(maxPaths); }
bool checkResume(Session& s, const std::string& json) { return s.checkResume(json); }
std::string lastError(const Session& s) { return s.lastError(); }
std::string version() { return Session::version(); }
std::string draftJson(const std::string& text, const std::string& source) { return Session::draftJson(text, source); }
// grid: a JS array or Int32Array (a solution, as takeSolutions gives it).
std::string buildOrderJson(const Session& s, int index, const val& grid) {
    return s.buildOrderJson(index, emscripten::convertJSArrayToNumberVector<int32_t>(grid));
}
// grids: an Int32Array of flat grids; numbers: a JS array of the solutions' numbers.
std::string solutionsTextJson(const Session& s, int index, const val& grids, const val& numbers) {
    return s.solutionsTextJson(index, emscripten::convertJSArrayToNumberVector<int32_t>(grids),
                               emscripten::convertJSArrayToNumberVector<double>(numbers));
}

}  // namespace

EMSCRIPTEN_BINDINGS(polycube) {
    emscripten::class_<Session>("Session")
        .constructor<>()
        .function("load", &load)
        .function("puzzleCount", &puzzleCount)
        .function("puzzleJson", &puzzleJson)
        .function("start", &start)
        .function("step", &step)
        .function("cancel", &cancel)
        .function("state", &state)
        .function("ready", &ready)
        .function("takeSolutions", &takeSolutions)
        .function("pendingSolutions", &pendingSolutions)
        .function("cellCount", &cellCount)
        .function("statsJson", &statsJson)
        .function("takeTrace", &takeTrace)
        .function("setTraceLimit", &setTraceLimit)
        .function("traceLimitReached", &traceLimitReached)
        .function("imageCells", &imageCells)
        .function("imageShapes", &imageShapes)
        .function("instanceShapes", &instanceShapes)
        .function("splitRefusal", &splitRefusal)
        .function("fingerprint", &fingerprint)
        .function("startSubproblem", &startSubproblem)
        .function("donateJson", &donateJson)
        .function("buildOrderJson", &buildOrderJson)
        .function("checkResume", &checkResume)
        .function("lastError", &lastError)
        .class_function("version", &version)
        .class_function("draftJson", &draftJson)
        .function("solutionsTextJson", &solutionsTextJson);

    // Session::StepState values, for readable JS (Module.RUNNING === 0, Module.CANCELLED === 2 ...).
    emscripten::constant("RUNNING", static_cast<int>(Session::RUNNING));
    emscripten::constant("DONE", static_cast<int>(Session::DONE));
    emscripten::constant("CANCELLED", static_cast<int>(Session::CANCELLED));
    emscripten::constant("FAILED", static_cast<int>(Session::FAILED));
    emscripten::constant("IDLE", static_cast<int>(Session::IDLE));

    // The engine's rules for the page (session/engine_rules.hpp): the option parser the page's
    // form and text box use, and the rules table web/src/generated/engine-rules.js holds.
    emscripten::function("parseOptionsJson", &polycube::searchOptionsJson);
    emscripten::function("engineRulesJson", &polycube::engineRulesJson);
}
