#include "session/checkpoint_file.hpp"

#include <nlohmann/json.hpp>

#include "common/text.hpp"
#include "parallel/checkpoint.hpp"
#include "parallel/piece_check.hpp"
#include "session/session.hpp"

namespace polycube {

namespace {

using json = nlohmann::json;

// Text from a file may hold any byte: invalid UTF-8 is replaced, never thrown at (the
// WebAssembly build has no exceptions), and the definition's parser names what is wrong.
std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The Session's one error shape across the WebAssembly boundary ({ok, error: {code, message}}).
std::string failure(const std::string& message) {
    return dumped(json{{"ok", false},
                       {"error", {{"code", Session::errorCodeName(Session::ErrorCode::kBadArgument)}, {"message", message}}}});
}

// A string field of `j`, or false when it is missing or not a string.
bool text(const json& j, const char* key, std::string& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return false;
    out = it->get<std::string>();
    return true;
}

}  // namespace

std::string checkpointFileJson(const std::string& keptJson) {
    const std::string source = "the kept search";
    // (bounded as a file is: what the page keeps fits in one)
    if (static_cast<long long>(keptJson.size()) > 2 * kMaxCheckpointBytes) return failure(source + ": too large for a checkpoint file");
    const json j = json::parse(keptJson, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return failure(source + ": not a kept search (not a JSON object)");
    CheckpointOrigin origin;
    if (!text(j, "definition", origin.definition) || origin.definition.empty()) return failure(source + ": the puzzle's definition is missing");
    if (!text(j, "source", origin.source)) return failure(source + ": the definition's file name is missing");
    if (!text(j, "options", origin.options)) return failure(source + ": the options are missing");
    auto puzzle = j.find("puzzle");
    if (puzzle == j.end() || !puzzle->is_number_integer() || puzzle->get<long long>() < 0 || puzzle->get<long long>() > kMaxCheckpointPuzzle)
        return failure(source + ": the puzzle number is not a whole number from 0 to " + std::to_string(kMaxCheckpointPuzzle));
    origin.puzzle = static_cast<int>(puzzle->get<long long>());
    auto book = j.find("checkpoint");
    if (book == j.end() || !book->is_object()) return failure(source + ": the checkpoint is missing");
    Result<Checkpoint> ck = pieceBookCheckpoint(book->dump(), source);
    if (!ck.ok()) return failure(ck.status.message);
    ck.value.origin = std::move(origin);
    std::string file = encodeCheckpoint(ck.value);
    // What the file says is checked as a file (the origin's limits and options): the command
    // line and the page read it back with these checks.
    if (Result<Checkpoint> back = readCheckpoint(file, source); !back.ok()) return failure(back.status.message);
    return dumped(json{{"ok", true}, {"text", std::move(file)}});
}

std::string openCheckpointJson(const std::string& text, const std::string& fileName) {
    const std::string source = quoteText(fileName.empty() ? std::string("the checkpoint") : fileName, 200);
    Result<Checkpoint> ck = readCheckpoint(text, source);
    if (!ck.ok()) return failure(ck.status.message);
    if (!ck.value.origin)
        return failure(source + ": a checkpoint of format 1, which does not hold its puzzle: finish it on the command line, with "
                                "its puzzle file and options (polycube OPTIONS --resume " + source + " PUZZLE-FILE)");
    const CheckpointOrigin& o = *ck.value.origin;
    json out = {{"ok", true},           {"format", 2},          {"definition", o.definition}, {"source", o.source},
                {"puzzle", o.puzzle},   {"options", o.options}, {"checkpoint", json::parse(pieceBookJson(ck.value))}};
    return dumped(out);
}

}  // namespace polycube
