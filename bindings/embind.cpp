// Thin embind layer over polycube::Session (engine/session/session.hpp). Type conversion only:
// no logic lives here, and no C++ exception ever crosses into JavaScript.
//
// One error shape: every call that the Session's table checks returns an object,
//   {ok: true, ...its result}  or  {ok: false, error: {code, message}}
// with the code one of Session::errorCodeName's ("illegal-call", "bad-argument", ...). step's
// reply carries `state` (a StepState) either way. The calls that cannot fail (queries and
// drains: state, ready, takeSolutions, statsJson, ...) return their value as it is.
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

val parseJson(const std::string& text) { return val::global("JSON").call<val>("parse", text); }

// The outcome of the checked call just made on `s`: {ok:true} or {ok:false, error:{code, message}}.
val reply(const Session& s) {
    val r = val::object();
    r.set("ok", s.ok());
    if (!s.ok()) {
        val error = val::object();
        error.set("code", std::string(Session::errorCodeName(s.errorCode())));
        error.set("message", s.lastError());
        r.set("error", error);
    }
    return r;
}

// reply(s) with `key: value` added when the call succeeded.
template <class T>
val reply(const Session& s, const char* key, const T& value) {
    val r = reply(s);
    if (s.ok()) r.set(key, value);
    return r;
}

val load(Session& s, const std::string& text, const std::string& source) {
    s.load(text, source);
    return reply(s, "puzzles", s.puzzleCount());
}
int puzzleCount(const Session& s) { return s.puzzleCount(); }
val puzzle(const Session& s, int i) {
    const std::string json = s.puzzleJson(i);
    return s.ok() ? reply(s, "puzzle", parseJson(json)) : reply(s);
}
val start(Session& s, int i, const std::string& options) {
    s.start(i, options);
    return reply(s);
}
val step(Session& s, double budget) {
    const int state = static_cast<int>(s.step(budget));
    val r = reply(s);
    r.set("state", state);
    return r;
}
void cancel(Session& s) { s.cancel(); }
int state(const Session& s) { return static_cast<int>(s.state()); }
std::string phase(const Session& s) { return Session::phaseName(s.phase()); }
bool ready(const Session& s) { return s.ready(); }
val takeSolutions(Session& s, int max) { return toInt32Array(s.takeSolutions(max)); }
int pendingSolutions(const Session& s) { return s.pendingSolutions(); }
int cellCount(const Session& s) { return s.cellCount(); }
std::string statsJson(const Session& s) { return s.statsJson(); }
val takeTrace(Session& s, int maxEvents) { return toInt32Array(s.takeTrace(maxEvents)); }
val setTraceLimit(Session& s, double events) {
    s.setTraceLimit(events);
    return reply(s);
}
bool traceLimitReached(const Session& s) { return s.traceLimitReached(); }
val imageCells(const Session& s, int image) {
    const std::vector<int32_t> cells = s.imageCells(image);
    return reply(s, "cells", toInt32Array(cells));
}
val imageShapes(const Session& s) {
    const std::vector<int32_t> shapes = s.imageShapes();
    return reply(s, "shapes", toInt32Array(shapes));
}
val instanceShapes(const Session& s) {
    const std::vector<int32_t> shapes = s.instanceShapes();
    return reply(s, "shapes", toInt32Array(shapes));
}
val splitRefusal(const Session& s) {
    const std::string refusal = s.splitRefusal();
    return reply(s, "refusal", refusal);
}
val fingerprint(const Session& s) {
    const std::string print = s.fingerprint();
    return reply(s, "fingerprint", print);
}
// path: a JS array or Int32Array of image ids.
val startSubproblem(Session& s, const val& path) {
    s.startSubproblem(emscripten::convertJSArrayToNumberVector<int32_t>(path));
    return reply(s);
}
// {ok:true, share, paths} (Session::donateJson's fields).
val donate(Session& s, int maxPaths) {
    const std::string json = s.donateJson(maxPaths);
    if (!s.ok()) return reply(s);
    val r = parseJson(json);
    r.set("ok", true);
    return r;
}
val checkResume(Session& s, const std::string& json) {
    s.checkResume(json);
    return reply(s);
}
// placements: a JS array or Int32Array, flat [instance, cellCount, cells..., ...].
val startPlay(Session& s, int i, const val& placements, const std::string& kind, double limit, int fixed, int piece) {
    s.startPlay(i, emscripten::convertJSArrayToNumberVector<int32_t>(placements), kind, limit, fixed, piece);
    return reply(s);
}
std::string playJson(const Session& s) { return s.playJson(); }
std::string version() { return Session::version(); }
std::string draftJson(const std::string& text, const std::string& source) { return Session::draftJson(text, source); }
std::string checkpointFileJson(const std::string& kept) { return Session::checkpointFileJson(kept); }
std::string openCheckpointJson(const std::string& text, const std::string& name) { return Session::openCheckpointJson(text, name); }
// grid: a JS array or Int32Array (a solution, as takeSolutions gives it). {ok:true, class, ...}
// (Session::buildOrderJson's fields).
val buildOrder(const Session& s, int index, const val& grid) {
    const std::string json = s.buildOrderJson(index, emscripten::convertJSArrayToNumberVector<int32_t>(grid));
    return s.ok() ? parseJson(json) : reply(s);
}
// grids: an Int32Array of flat grids; numbers: a JS array of the solutions' numbers.
val solutionsText(const Session& s, int index, const val& grids, const val& numbers) {
    const std::string text = s.solutionsText(index, emscripten::convertJSArrayToNumberVector<int32_t>(grids),
                                             emscripten::convertJSArrayToNumberVector<double>(numbers));
    return reply(s, "text", text);
}

}  // namespace

EMSCRIPTEN_BINDINGS(polycube) {
    emscripten::class_<Session>("Session")
        .constructor<>()
        .function("load", &load)
        .function("puzzleCount", &puzzleCount)
        .function("puzzle", &puzzle)
        .function("start", &start)
        .function("step", &step)
        .function("cancel", &cancel)
        .function("state", &state)
        .function("phase", &phase)
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
        .function("donate", &donate)
        .function("buildOrder", &buildOrder)
        .function("startPlay", &startPlay)
        .function("playJson", &playJson)
        .function("checkResume", &checkResume)
        .class_function("version", &version)
        .class_function("draftJson", &draftJson)
        .class_function("checkpointFileJson", &checkpointFileJson)
        .class_function("openCheckpointJson", &openCheckpointJson)
        .function("solutionsText", &solutionsText);

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
