#include "assembly/build_order.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "assembly/box_turns.hpp"
#include "check/checker.hpp"

namespace polycube {

namespace {

using json = nlohmann::ordered_json;  // keys in the order written: "ok" and "class" first

constexpr int kAir = -1;    // a cell of '*': not part of the puzzle
constexpr int kSolid = -2;  // a cell of another stationary piece: a fixed block

// A way out for one piece, as the disassembly moves it: slid sideways (distance 0: not at all),
// then lifted straight up until it clears the box. Built in reverse it is the piece's way in.
struct Escape {
    int dx = 0, dy = 0, distance = 0;
    std::vector<int> blockers;  // mobile pieces in the way (sorted, unique): it is open when all are gone
};

struct Piece {
    int instance = -1;
    std::vector<int> cells;
    int minZ = 0;
    std::vector<Escape> escapes;   // the preferred first; none whose blockers include an earlier one's
    bool grounded = false;         // a cell on the floor or on a stationary block
    std::vector<int> supporters;   // mobile pieces directly under one of its cells (unique)
    std::vector<int> supportees;   // mobile pieces it is directly under
    int rank = 0;                  // place in the preferred build order: lower first
};

// One removal of the disassembly: the piece and the escape it took.
struct Removal {
    int piece;
    int escape;
    bool rests;
};

bool isSideways(const Escape& e) { return e.distance > 0; }

void addUnique(std::vector<int>& v, int x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

bool subsetOf(const std::vector<int>& a, const std::vector<int>& b) {  // both sorted
    return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

// The solution as a set of pieces that can leave the box, and the search for an order.
class Disassembly {
public:
    Disassembly(const PuzzleDef& def, const std::vector<int>& grid) : X_(def.xDim), Y_(def.yDim), Z_(def.zDim) {
        const std::vector<PieceInstanceRef> instances = expandInstances(def);
        std::vector<int> pieceOf(instances.size(), -1);
        for (size_t i = 0; i < instances.size(); ++i) {
            const PieceDef& d = def.pieces[instances[i].defIndex];
            if (d.stationary) continue;
            pieceOf[i] = static_cast<int>(pieces_.size());
            pieces_.push_back(Piece{});
            pieces_.back().instance = static_cast<int>(i);
        }
        owner_.assign(grid.size(), kAir);
        for (size_t c = 0; c < grid.size(); ++c) {
            const int inst = grid[c];
            const PieceDef& d = def.pieces[instances[inst].defIndex];
            if (d.stationary) owner_[c] = d.name == "*" ? kAir : kSolid;
            else {
                owner_[c] = pieceOf[inst];
                pieces_[pieceOf[inst]].cells.push_back(static_cast<int>(c));
            }
        }
        for (size_t p = 0; p < pieces_.size(); ++p) describe(static_cast<int>(p));
        rankPieces();
    }

    int pieceCount() const { return static_cast<int>(pieces_.size()); }
    const Piece& piece(int p) const { return pieces_[p]; }
    int zDim() const { return Z_; }
    long long statesSearched() const { return states_; }
    bool exhausted() const { return exhausted_; }

    // The first escape of `p` open with the pieces `present` (up only unless `sideways`), or -1.
    int openEscape(int p, const std::vector<char>& present, bool sideways) const {
        const std::vector<Escape>& es = pieces_[p].escapes;
        for (size_t e = 0; e < es.size(); ++e) {
            if (!sideways && isSideways(es[e])) continue;
            bool open = true;
            for (int b : es[e].blockers)
                if (present[b]) {
                    open = false;
                    break;
                }
            if (open) return static_cast<int>(e);
        }
        return -1;
    }

    // Whether `p` rests on something when the pieces `present` (p not among them) are placed.
    bool rests(int p, const std::vector<char>& present) const {
        if (pieces_[p].grounded) return true;
        for (int s : pieces_[p].supporters)
            if (present[s]) return true;
        return false;
    }

    // Greedy disassembly ignoring support: removes every piece of `movable` that can leave, until
    // none can. Leaving never closes another piece's escape, so what is left (returned, in
    // `present`) does not depend on the order: the pieces that cannot come out one at a time.
    std::vector<Removal> greedy(std::vector<char>& present, const std::vector<char>& movable, bool sideways) const {
        std::vector<Removal> out;
        for (bool moved = true; moved;) {
            moved = false;
            for (int p : byRemovalPreference_) {
                if (!present[p] || !movable[p]) continue;
                const int e = openEscape(p, present, sideways);
                if (e < 0) continue;
                present[p] = 0;
                out.push_back({p, e, rests(p, present)});
                moved = true;
            }
        }
        return out;
    }

    // An order taking out every piece of `movable` in which each piece rests on what stays (so,
    // reversed, rests on what was placed before it), or false. Depth first over the sets of
    // pieces present, dead sets remembered; at most kMaxChecks pieces looked at per call.
    bool search(std::vector<char>& present, const std::vector<char>& movable, bool sideways, std::vector<Removal>& out) {
        dead_.clear();
        budget_ = kMaxChecks;
        int left = 0;
        for (int p = 0; p < pieceCount(); ++p) {
            if (!present[p] || !movable[p]) continue;
            ++left;
            // a piece with nothing that could ever be under it: no order rests (and no search)
            if (!pieces_[p].grounded && pieces_[p].supporters.empty()) return false;
        }
        return descend(present, movable, sideways, left, out);
    }

private:
    int cellOf(int x, int y, int z) const { return x + X_ * (y + Y_ * z); }

    // The piece's escapes, supports and place in the preferred order (from the solution alone).
    void describe(int p) {
        Piece& pc = pieces_[p];
        pc.minZ = Z_;
        for (int c : pc.cells) pc.minZ = std::min(pc.minZ, c / (X_ * Y_));
        // supports: what is directly under each cell
        for (int c : pc.cells) {
            const int z = c / (X_ * Y_);
            if (z == 0) {
                pc.grounded = true;
                continue;
            }
            const int below = owner_[c - X_ * Y_];
            if (below == kSolid) pc.grounded = true;
            else if (below >= 0 && below != p) addUnique(pc.supporters, below);
        }
        for (int s : pc.supporters) addUnique(pieces_[s].supportees, p);
        // straight up
        Escape up;
        if (columnsClear(p, 0, 0, up.blockers)) keep(pc, std::move(up));
        // slid sideways by d along a horizontal axis, then up; walls and blocks close a direction
        // for good, a piece in the way only until it has gone
        const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        std::array<bool, 4> alive{true, true, true, true};
        std::array<std::vector<int>, 4> swept;
        for (int d = 1; d <= std::max(X_, Y_); ++d) {
            for (int k = 0; k < 4; ++k) {
                if (!alive[k]) continue;
                const int dx = dirs[k][0] * d, dy = dirs[k][1] * d;
                for (int c : pc.cells) {
                    const int x = c % X_ + dx, y = (c / X_) % Y_ + dy, z = c / (X_ * Y_);
                    if (x < 0 || x >= X_ || y < 0 || y >= Y_) {
                        alive[k] = false;  // a wall
                        break;
                    }
                    const int o = owner_[cellOf(x, y, z)];
                    if (o == kSolid) {
                        alive[k] = false;
                        break;
                    }
                    if (o >= 0 && o != p) addUnique(swept[k], o);
                }
                if (!alive[k]) continue;
                Escape e{dirs[k][0], dirs[k][1], d, swept[k]};
                if (columnsClear(p, dx, dy, e.blockers)) keep(pc, std::move(e));
            }
        }
    }

    // The columns above the piece's cells moved by (dx, dy) up to the top: false when a block
    // stands there, else the pieces there are added to `blockers` (sorted on return).
    bool columnsClear(int p, int dx, int dy, std::vector<int>& blockers) const {
        for (int c : pieces_[p].cells) {
            const int x = c % X_ + dx, y = (c / X_) % Y_ + dy;
            for (int z = c / (X_ * Y_) + 1; z < Z_; ++z) {
                const int o = owner_[cellOf(x, y, z)];
                if (o == kSolid) return false;
                if (o >= 0 && o != p) addUnique(blockers, o);
            }
        }
        std::sort(blockers.begin(), blockers.end());
        return true;
    }

    // An escape is kept unless an earlier (preferred) one is open whenever it is.
    static void keep(Piece& pc, Escape e) {
        std::sort(e.blockers.begin(), e.blockers.end());
        for (const Escape& k : pc.escapes)
            if (subsetOf(k.blockers, e.blockers)) return;
        pc.escapes.push_back(std::move(e));
    }

    // Build preference: lower pieces first; at equal height the back (high y) before the front,
    // where the default view looks from, then left to right. The disassembly prefers the reverse.
    void rankPieces() {
        std::vector<std::array<int, 3>> key(pieces_.size());
        for (size_t p = 0; p < pieces_.size(); ++p) {
            std::array<int, 3> best{Z_, 0, X_};
            for (int c : pieces_[p].cells) {
                const std::array<int, 3> k{c / (X_ * Y_), -((c / X_) % Y_), c % X_};
                best = std::min(best, k);
            }
            key[p] = best;
        }
        std::vector<int> order(pieces_.size());
        for (size_t p = 0; p < order.size(); ++p) order[p] = static_cast<int>(p);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] < key[b]; });
        for (size_t r = 0; r < order.size(); ++r) pieces_[order[r]].rank = static_cast<int>(r);
        byRemovalPreference_.assign(order.rbegin(), order.rend());
    }

    // True when taking `q` out would leave a present piece with nothing under it.
    bool soleSupport(int q, const std::vector<char>& present) const {
        for (int r : pieces_[q].supportees) {
            if (!present[r] || pieces_[r].grounded) continue;
            bool other = false;
            for (int s : pieces_[r].supporters)
                if (s != q && present[s]) {
                    other = true;
                    break;
                }
            if (!other) return true;
        }
        return false;
    }

    bool descend(std::vector<char>& present, const std::vector<char>& movable, bool sideways, int left,
                 std::vector<Removal>& out) {
        if (left == 0) return true;
        std::string key(present.begin(), present.end());
        if (dead_.count(key)) return false;
        if (budget_ <= 0) {
            exhausted_ = true;
            return false;
        }
        ++states_;
        struct Candidate {
            int piece, escape;
            bool sideways, sole;
        };
        std::vector<Candidate> candidates;
        for (int p : byRemovalPreference_) {
            if (!present[p] || !movable[p]) continue;
            --budget_;
            const int e = openEscape(p, present, sideways);
            if (e < 0) continue;
            present[p] = 0;
            const bool ok = rests(p, present);
            present[p] = 1;
            if (ok) candidates.push_back({p, e, isSideways(pieces_[p].escapes[e]), soleSupport(p, present)});
        }
        // straight lifts first, then pieces nothing present rests on alone; the preference order within
        std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
            return std::make_pair(a.sideways, a.sole) < std::make_pair(b.sideways, b.sole);
        });
        for (const Candidate& c : candidates) {
            present[c.piece] = 0;
            out.push_back({c.piece, c.escape, true});
            if (descend(present, movable, sideways, left - 1, out)) return true;
            out.pop_back();
            present[c.piece] = 1;
            if (exhausted_) return false;
        }
        dead_.insert(std::move(key));
        return false;
    }

    int X_, Y_, Z_;
    std::vector<int> owner_;  // per box cell: a mobile piece, kAir or kSolid
    std::vector<Piece> pieces_;
    std::vector<int> byRemovalPreference_;  // pieces, the last to place first
    std::unordered_set<std::string> dead_;
    long long budget_ = 0;
    long long states_ = 0;
    bool exhausted_ = false;
};

// The removals reversed: the steps of the build.
std::vector<BuildStep> stepsFrom(const Disassembly& d, const std::vector<Removal>& removals) {
    std::vector<BuildStep> steps;
    for (auto it = removals.rbegin(); it != removals.rend(); ++it) {
        const Piece& pc = d.piece(it->piece);
        const Escape& e = pc.escapes[it->escape];
        BuildStep s;
        s.instance = pc.instance;
        s.slides.push_back({0, 0, -1, d.zDim() - pc.minZ});
        if (isSideways(e)) s.slides.push_back({-e.dx, -e.dy, 0, e.distance});
        s.rests = it->rests;
        steps.push_back(std::move(s));
    }
    return steps;
}

BuildOrder flatOrder(const PuzzleDef& def, const std::vector<int>& grid) {
    const std::vector<PieceInstanceRef> instances = expandInstances(def);
    std::vector<std::pair<int, int>> first(instances.size(), {def.yDim, def.xDim});  // (y, x) of the lowest-left cell
    for (size_t c = 0; c < grid.size(); ++c) {
        const int x = static_cast<int>(c) % def.xDim, y = static_cast<int>(c) / def.xDim;
        first[grid[c]] = std::min(first[grid[c]], std::make_pair(y, x));
    }
    std::vector<int> order;
    for (size_t i = 0; i < instances.size(); ++i)
        if (!def.pieces[instances[i].defIndex].stationary) order.push_back(static_cast<int>(i));
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return first[a] < first[b]; });
    BuildOrder out;
    out.flat = true;
    for (int i : order) out.steps.push_back(BuildStep{i, {Slide{0, 0, -1, 1}}, true});
    return out;
}

bool anySideways(const std::vector<BuildStep>& steps) {
    for (const BuildStep& s : steps)
        if (s.slides.size() > 1) return true;
    return false;
}

const char* directionWords(const Slide& s) {
    if (s.dx > 0) return "+x (right)";
    if (s.dx < 0) return "-x (left)";
    if (s.dy > 0) return "+y (back)";
    if (s.dy < 0) return "-y (front)";
    return s.dz > 0 ? "+z (up)" : "-z (down)";
}

std::string namesList(const PuzzleDef& def, const std::vector<int>& instances) {
    std::string out;
    for (size_t k = 0; k < instances.size(); ++k) {
        if (k > 0) out += k + 1 == instances.size() ? " and " : ", ";
        out += instanceLabel(def, instances[k]);
    }
    return out;
}

}  // namespace

std::string instanceLabel(const PuzzleDef& def, int instance) {
    int i = 0;
    for (const PieceDef& p : def.pieces) {
        if (instance < i + p.count) return p.count > 1 ? p.name + " (copy " + std::to_string(instance - i + 1) + ")" : p.name;
        i += p.count;
    }
    return "#" + std::to_string(instance);
}

const char* buildClassName(BuildClass kind) {
    switch (kind) {
        case BuildClass::FromAbove: return "above";
        case BuildClass::Sideways: return "sideways";
        case BuildClass::Interlocked: return "interlocked";
        case BuildClass::Unsupported: return "unsupported";
    }
    return "above";
}

namespace {

// The order of a 3-D solution (checked) as it lies in the box.
BuildOrder orderAsItIs(const PuzzleDef& def, const std::vector<int>& grid) {
    Disassembly d(def, grid);
    const int n = d.pieceCount();
    const std::vector<char> all(n, 1);
    BuildOrder out;
    auto finish = [&](BuildClass kind, const std::vector<Removal>& removals) {
        out.kind = kind;
        out.steps = stepsFrom(d, removals);
        out.statesSearched = d.statesSearched();
        out.searchExhausted = d.exhausted();
        return std::move(out);
    };
    // Lifted straight up only. (In a box with no '*' cells such an order never leaves a piece
    // without support: under a piece's lowest cell is the floor, a block, or a piece that could
    // not have dropped in after it, through it; so there the search never backs up.)
    std::vector<char> present = all;
    std::vector<Removal> removals;
    if (d.greedy(present, all, false).size() == static_cast<size_t>(n)) {
        present = all;
        if (d.search(present, all, false, removals)) return finish(BuildClass::FromAbove, removals);
    }
    // With sideways slides.
    present = all;
    const std::vector<Removal> loose = d.greedy(present, all, true);
    if (loose.size() == static_cast<size_t>(n)) {
        present = all;
        removals.clear();
        if (d.search(present, all, true, removals))
            return finish(anySideways(stepsFrom(d, removals)) ? BuildClass::Sideways : BuildClass::FromAbove, removals);
        return finish(BuildClass::Unsupported, loose);  // (its steps say which pieces do not rest)
    }
    // Stuck: `present` holds the pieces that cannot come out one at a time. They go in together
    // first; the others are ordered around them.
    for (int p = 0; p < n; ++p)
        if (present[p]) out.interlocked.push_back(d.piece(p).instance);
    std::vector<char> movable(n);
    for (int p = 0; p < n; ++p) movable[p] = !present[p];
    std::vector<char> state = all;
    removals.clear();
    if (d.search(state, movable, true, removals)) return finish(BuildClass::Interlocked, removals);
    return finish(BuildClass::Interlocked, loose);
}

// How hard an order is to follow, lower first: its class, then the sideways slides, the pieces
// held, the size of the interlocked group.
std::pair<int, int> difficulty(const BuildOrder& o) {
    int sideways = 0, held = 0;
    for (const BuildStep& s : o.steps) {
        sideways += s.slides.size() > 1;
        held += !s.rests;
    }
    switch (o.kind) {
        case BuildClass::FromAbove: return {0, 0};
        case BuildClass::Sideways: return {1, sideways};
        case BuildClass::Unsupported: return {2, held};
        case BuildClass::Interlocked: return {3, static_cast<int>(o.interlocked.size())};
    }
    return {3, 0};
}

}  // namespace

BuildClass bestClass(const BuildOrder& order) { return order.turned ? order.turned->order.kind : order.kind; }

Result<BuildOrder> computeBuildOrder(const PuzzleDef& def, const std::vector<int>& grid) {
    const CheckResult check = checkSolution(def, grid);
    if (!check.ok) return Result<BuildOrder>::error("not a solution of this puzzle: " + check.message);
    if (def.zDim == 1) return Result<BuildOrder>::success(flatOrder(def, grid));
    BuildOrder out = orderAsItIs(def, grid);
    // Another face down: the best turn, when it goes in more easily than the solution as it is.
    if (out.kind != BuildClass::FromAbove) {
        const std::vector<BoxTurn> turns = boxTurns(def);
        for (size_t k = 1; k < turns.size(); ++k) {
            std::vector<int> turnedGrid = turnGrid(def, grid, turns[k]);
            BuildOrder o = orderAsItIs(def, turnedGrid);
            out.statesSearched += o.statesSearched;
            const BuildOrder& best = out.turned ? out.turned->order : out;
            if (difficulty(o) < difficulty(best))
                out.turned = std::make_shared<const TurnedBuild>(TurnedBuild{turns[k].face, turns[k].words, std::move(turnedGrid), std::move(o)});
            if (out.turned && out.turned->order.kind == BuildClass::FromAbove) break;
        }
    }
    return Result<BuildOrder>::success(std::move(out));
}

namespace {

json orderJson(const PuzzleDef& def, const BuildOrder& order) {
    json steps = json::array();
    int sideways = 0;
    for (const BuildStep& s : order.steps) {
        json slides = json::array();
        for (const Slide& m : s.slides) slides.push_back({{"dir", {m.dx, m.dy, m.dz}}, {"distance", m.distance}});
        sideways += s.slides.size() > 1;
        steps.push_back({{"instance", s.instance}, {"name", instanceLabel(def, s.instance)}, {"slides", slides}, {"rests", s.rests}});
    }
    json j;
    j["ok"] = true;
    j["class"] = buildClassName(order.kind);
    j["flat"] = order.flat;
    j["sideways"] = sideways;
    j["interlocked"] = order.interlocked;
    j["steps"] = steps;
    j["states"] = order.statesSearched;
    if (order.searchExhausted) j["searchExhausted"] = true;
    if (order.turned) {
        const TurnedBuild& t = *order.turned;
        j["turned"] = {{"face", t.face}, {"words", t.words}, {"grid", t.grid}, {"order", orderJson(def, t.order)}};
    }
    return j;
}

}  // namespace

std::string buildOrderJson(const PuzzleDef& def, const BuildOrder& order) {
    return orderJson(def, order).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string buildOrderErrorJson(const std::string& message) {
    return json{{"ok", false}, {"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string formatBuildOrder(const PuzzleDef& def, const BuildOrder& order) {
    std::string out = "# build order: ";
    int sideways = 0, held = 0;
    for (const BuildStep& s : order.steps) {
        sideways += s.slides.size() > 1;
        held += !s.rests;
    }
    switch (order.kind) {
        case BuildClass::FromAbove:
            out += order.flat ? "a flat board: every piece is laid in from above, in any order (here bottom-left first)\n"
                              : "from above (every piece is lowered straight into place)\n";
            break;
        case BuildClass::Sideways:
            out += "with sideways slides (" + std::to_string(sideways) + (sideways == 1 ? " piece is" : " pieces are") +
                   " lowered, then slid sideways into place)\n";
            break;
        case BuildClass::Interlocked:
            if (order.interlocked.size() == 1)  // held in by stationary blocks alone
                out += "not by straight slides: " + namesList(def, order.interlocked) +
                       " is locked in by the stationary pieces; put it in first some other way" +
                       (order.steps.empty() ? std::string("\n") : std::string(", then\n"));
            else
                out += "not one piece at a time: " + namesList(def, order.interlocked) +
                       " interlock (none of them can slide in or out while the others are there): put them in together "
                       "first" + (order.steps.empty() ? std::string("\n") : std::string(", then\n"));
            break;
        case BuildClass::Unsupported:
            out += std::string("no order found") + (order.searchExhausted ? " (the search stopped at its limit)" : "") +
                   " in which every piece rests on the floor or on pieces already placed: " + std::to_string(held) +
                   (held == 1 ? " piece" : " pieces") + " must be held until a later piece is under it\n";
            break;
    }
    size_t width = 0;
    for (const BuildStep& s : order.steps) width = std::max(width, instanceLabel(def, s.instance).size());
    const size_t digits = std::to_string(order.steps.size()).size();
    int k = 0;
    for (const BuildStep& s : order.steps) {
        std::string label = instanceLabel(def, s.instance);
        label.resize(width, ' ');
        const std::string number = std::to_string(++k);
        out += "#   " + std::string(digits - number.size(), ' ') + number + ". " + label + "  down " + std::to_string(s.slides[0].distance);
        for (size_t m = 1; m < s.slides.size(); ++m)
            out += ", then " + std::to_string(s.slides[m].distance) + " along " + directionWords(s.slides[m]);
        if (!s.rests) out += " (hold it: nothing under it yet)";
        out += "\n";
    }
    if (order.turned) {
        const BuildOrder& t = order.turned->order;
        const int count = difficulty(t).second;
        const std::string n = std::to_string(count);
        out += "# turned " + order.turned->words + ", ";
        switch (t.kind) {
            case BuildClass::FromAbove: out += "it goes in from above\n"; break;
            case BuildClass::Sideways: out += "it goes in with " + n + " sideways slide" + (count == 1 ? "\n" : "s\n"); break;
            case BuildClass::Unsupported: out += "it goes in with " + n + (count == 1 ? " piece" : " pieces") + " to hold\n"; break;
            case BuildClass::Interlocked: out += "only " + n + " pieces interlock\n"; break;
        }
    }
    return out;
}

}  // namespace polycube
