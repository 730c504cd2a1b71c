#include "session/draft.hpp"

#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "constraints/parity.hpp"
#include "constraints/weighting.hpp"
#include "output/format.hpp"
#include "puzzle/model.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

namespace {

using json = nlohmann::json;

// Drafts are analysed on every edit: keep the image build well below the search's limits so a
// check answers in a fraction of a second (a 10x6 board has ~2,000 images, Bedlam ~13,000).
ModelLimits draftModelLimits() {
    ModelLimits limits;
    limits.maxImages = 400000;
    limits.maxImageCells = 8000000;
    return limits;
}

json draftChecks(const PuzzleDef& def) {
    json checks;
    long long freeCells = def.boxVolume() - def.stationaryVolume();
    long long pieceCells = def.mobileVolume();
    checks["freeCells"] = freeCells;
    checks["pieceCells"] = pieceCells;
    checks["parity"] = "";
    checks["impossible"] = "";
    checks["limit"] = "";
    json images = json::array();
    json sameShapes = json::array();
    bool anyMobile = false;
    for (const PieceDef& p : def.pieces) anyMobile = anyMobile || !p.stationary;
    if (!anyMobile) {
        for (size_t i = 0; i < def.pieces.size(); ++i) images.push_back(nullptr);
        checks["images"] = images;
        checks["sameShapes"] = sameShapes;
        return checks;
    }
    Result<Model> built = Model::build(def, draftModelLimits());
    if (!built.ok()) {
        checks["limit"] = built.status.message;
        checks["images"] = json::array();
        checks["sameShapes"] = sameShapes;
        return checks;
    }
    const Model& m = built.value;
    std::vector<int> shapeOfDef(def.pieces.size(), -1);
    for (const PieceInstance& inst : m.instances)
        if (!inst.stationary) shapeOfDef[inst.defIndex] = inst.shape;
    std::map<int, std::vector<int>> defsOfShape;
    for (size_t i = 0; i < def.pieces.size(); ++i) {
        int s = shapeOfDef[i];
        if (s < 0) {
            images.push_back(nullptr);
            continue;
        }
        images.push_back(m.shapeImageBegin[s + 1] - m.shapeImageBegin[s]);
        defsOfShape[s].push_back(static_cast<int>(i));
    }
    for (const auto& [shape, defs] : defsOfShape)
        if (defs.size() > 1) sameShapes.push_back(defs);
    checks["images"] = images;
    checks["sameShapes"] = sameShapes;
    if (freeCells == pieceCells) {
        checks["parity"] = parityImpossibility(m);
        // The other weightings (bounded, a few milliseconds) when parity said nothing.
        if (checks["parity"].get<std::string>().empty()) checks["impossible"] = weightingImpossibility(m).reason;
    }
    return checks;
}

}  // namespace

std::string draftJson(const std::string& text, const std::string& sourceName) {
    ParseLimits limits;
    limits.requireExactCover = false;
    ParseResult r = parseDefinitions(text, sourceName.empty() ? "<input>" : sourceName, limits);
    json out;
    if (!r.ok()) {
        out["ok"] = false;
        out["error"] = r.error.format();
        return out.dump(-1, ' ', false, json::error_handler_t::replace);
    }
    out["ok"] = true;
    json puzzles = json::array();
    for (const PuzzleDef& def : r.puzzles) {
        json p = json::parse(puzzleJson(def));
        p["checks"] = draftChecks(def);
        puzzles.push_back(std::move(p));
    }
    out["puzzles"] = std::move(puzzles);
    return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace polycube
