#include "session/engine_rules.hpp"

#include <nlohmann/json.hpp>

#include "parallel/checkpoint.hpp"
#include "parallel/subproblem.hpp"
#include "puzzle/puzzle.hpp"
#include "search/trace.hpp"
#include "session/session.hpp"
#include "solver/options.hpp"

namespace polycube {

namespace {

using json = nlohmann::json;

const char* scopeName(OptionScope s) {
    switch (s) {
        case OptionScope::Program: return "program";
        case OptionScope::CommandLine: return "commandLine";
        case OptionScope::Output: return "output";
        case OptionScope::Search: return "search";
    }
    return "search";
}

json nullableCount(int v, int off) { return v == off ? json(nullptr) : json(v); }

json filterJson(int v) {
    if (v == kFilterOff) return nullptr;
    if (v == kFilterOnce) return "once";
    return v;
}

json optionsJson(const SolverOptions& o) {
    json j;
    j["redundancy"] = o.redundancy == Redundancy::Off ? "off" : o.redundancy == Redundancy::Auto ? "auto" : "named";
    j["redundancyPiece"] = o.redundancyPiece;
    j["unique"] = o.unique;
    j["mirror"] = o.mirror;
    j["orbits"] = o.orbits;
    j["order"] = o.order.empty() ? json(nullptr) : json(o.order);
    j["fila"] = nullableCount(o.fila, -1);
    j["nof"] = o.nof;
    j["bruijn"] = nullableCount(o.bruijn, -1);
    j["mch"] = nullableCount(o.mch, -1);
    j["emch"] = nullableCount(o.emch, -1);
    j["parityBacktrack"] = o.parityBacktrack;
    j["volumeBacktrack"] = nullableCount(o.volumeBacktrack, -1);
    j["parityFilter"] = filterJson(o.parityFilter);
    j["volumeFilter"] = filterJson(o.volumeFilter);
    j["fitFilter"] = filterJson(o.fitFilter);
    j["trace"] = o.trace;
    // 64-bit values as decimal strings: a JavaScript number holds 53 bits.
    j["monteCarlo"] = o.monteCarlo.trials > 0 ? json{{"trials", o.monteCarlo.trials},
                                                     {"range", o.monteCarlo.range},
                                                     {"seed", std::to_string(o.monteCarlo.seed)}}
                                              : json(nullptr);
    j["limit"] = o.maxSolutions > 0 ? json(std::to_string(o.maxSolutions)) : json(nullptr);
    j["info"] = o.info;
    j["quiet"] = o.quiet;
    j["json"] = o.json;
    j["threads"] = o.threads;
    j["memo"] = o.memo;
    j["memoMb"] = o.memoMb > 0 ? json(o.memoMb) : json(nullptr);
    j["solution"] = o.solutionNumber > 0 ? json(std::to_string(o.solutionNumber)) : json(nullptr);
    j["random"] = o.randomSolutions > 0
                      ? json(std::to_string(o.randomSolutions) + (o.randomSeedGiven ? "," + std::to_string(o.randomSeed) : ""))
                      : json(nullptr);  // as written: K or K,SEED
    j["automatic"] = o.autoTune;
    return j;
}

std::string exampleText(const OptionRule& r) { return "--" + r.longName + (r.arg == "none" ? "" : "=" + r.example); }

// What the option alone, with its example value, does to splitting a search ("" when such a
// search can be split, or when the option cannot be given alone; parallel/subproblem.hpp
// whyNotSplittable).
std::string splitRefusalAlone(const OptionRule& r) {
    if (r.scope != OptionScope::Search) return "";
    const OptionParse p = parseSearchOptions(exampleText(r));
    return p.ok() ? whyNotSplittable(p.options) : "";
}

// Why the option cannot be given alone in a search's options ("" when it can): a rule
// between options (-M needs -r or -u), or one of the command line's own.
std::string aloneError(const OptionRule& r) { return parseSearchOptions(exampleText(r)).error; }

json optionRulesJson() {
    json out = json::array();
    for (const OptionRule& r : optionRules()) {
        json j;
        j["short"] = r.shortName ? json(std::string(1, r.shortName)) : json(nullptr);
        j["long"] = r.longName;
        j["arg"] = r.arg;
        j["tuning"] = r.tuning;
        j["scope"] = scopeName(r.scope);
        j["valueName"] = r.valueName;
        j["min"] = r.ranged ? json(r.lo) : json(nullptr);
        j["max"] = r.ranged ? json(r.hi) : json(nullptr);
        j["example"] = r.example;
        j["help"] = r.help;
        j["splitRefusal"] = splitRefusalAlone(r);
        j["aloneError"] = aloneError(r);
        out.push_back(j);
    }
    return out;
}

json namedJson(const trace::Named* begin, const trace::Named* end) {
    json j = json::object();
    for (const trace::Named* n = begin; n != end; ++n) j[n->name] = n->value;
    return j;
}

}  // namespace

std::string engineRulesJson() {
    const ParseLimits limits;
    json j;
    j["options"] = optionRulesJson();
    j["limits"] = {
        {"maxDimension", limits.maxDimension},     {"maxBoxVolume", limits.maxBoxVolume},
        {"maxPieceCells", limits.maxPieceCells},   {"maxInstances", limits.maxInstances},
        {"maxInputBytes", limits.maxInputBytes},   {"maxCoordinate", kMaxDefInteger},
        {"maxTitleLength", kMaxTitleChars},        {"maxCheckpointBytes", kMaxCheckpointBytes},
    };
    j["files"] = {{"checkpointMagic", kCheckpointMagic}};
    j["trace"] = {
        {"recordInts", trace::kRecordInts},
        {"ops", namedJson(std::begin(trace::kOpNames), std::end(trace::kOpNames))},
        {"filters", namedJson(std::begin(trace::kFilterNames), std::end(trace::kFilterNames))},
    };
    j["stepStates"] = {{"RUNNING", Session::RUNNING}, {"DONE", Session::DONE}, {"CANCELLED", Session::CANCELLED},
                       {"FAILED", Session::FAILED},   {"IDLE", Session::IDLE}};
    return j.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string searchOptionsJson(const std::string& text) {
    const OptionParse p = parseSearchOptions(text);
    if (!p.ok()) return json{{"ok", false}, {"error", p.error}}.dump(-1, ' ', false, json::error_handler_t::replace);
    json given = json::array();
    for (size_t i = 0; i < p.given.size(); ++i)
        given.push_back({{"name", p.given[i]}, {"value", p.givenValues[i] ? json(*p.givenValues[i]) : json(nullptr)}});
    return json{{"ok", true},
                {"options", optionsJson(p.options)},
                {"given", given},
                {"splitRefusal", whyNotSplittable(p.options)}}
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace polycube
