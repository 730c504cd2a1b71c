// The definition-file parser (the format: README.md "Definition files", the reference
// solver's format with this solver's extensions).
//
// Written without exceptions: every failure is recorded in the ParseResult and parsing
// stops at the first error. Input is scanned line by line through string_views into the
// caller's text; nothing is materialised per token, so hostile input (very long lines, many
// separators, huge numbers) costs at most linear time and memory bounded by ParseLimits.
//
// Over 600 lines for a reason: one grammar (the D:, C:, L: lines, their fields and the layout
// blocks), whose checks share the line scanner and the error's position; split, each part
// would need the whole scanner's state.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/text.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

std::string ParseError::format() const {
    std::string out = shownPath(source);
    if (line > 0) out += ":" + std::to_string(line);
    out += ": " + message;
    if (!lineText.empty()) out += "\n    " + lineText;
    return out;
}

namespace {

constexpr long kIntMagnitudeLimit = kMaxDefInteger;
constexpr size_t kMaxQuotedChars = kMaxTitleChars;  // lineText is truncated beyond this too
constexpr size_t kMaxQuotedToken = 40;        // tokens quoted inside messages

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && isSpace(s[b])) ++b;
    while (e > b && isSpace(s[e - 1])) --e;
    return s.substr(b, e - b);
}

// Printable, bounded copy of some input text for messages.
std::string quote(std::string_view s, size_t maxChars) {
    if (s.size() <= maxChars) return printableText(s);
    size_t cut = maxChars;  // on a character boundary: a cut sequence would read as '?'
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return printableText(s.substr(0, cut)) + " ...";
}

std::string q(std::string_view s) { return "'" + quote(s, kMaxQuotedToken) + "'"; }

// Iterates over the pieces of `s` separated by `sep`, without allocating.
class Splitter {
public:
    Splitter(std::string_view s, char sep) : s_(s), sep_(sep) {}
    bool next(std::string_view& out) {
        if (done_) return false;
        size_t p = s_.find(sep_, pos_);
        if (p == std::string_view::npos) {
            out = s_.substr(pos_);
            done_ = true;
        } else {
            out = s_.substr(pos_, p - pos_);
            pos_ = p + 1;
        }
        return true;
    }

private:
    std::string_view s_;
    char sep_;
    size_t pos_ = 0;
    bool done_ = false;
};

// Iterates over whitespace-separated tokens.
class Tokens {
public:
    explicit Tokens(std::string_view s) : s_(s) {}
    bool next(std::string_view& out) {
        while (pos_ < s_.size() && isSpace(s_[pos_])) ++pos_;
        if (pos_ >= s_.size()) return false;
        size_t b = pos_;
        while (pos_ < s_.size() && !isSpace(s_[pos_])) ++pos_;
        out = s_.substr(b, pos_ - b);
        return true;
    }

private:
    std::string_view s_;
    size_t pos_ = 0;
};

enum class IntParse { Ok, NotInteger, OutOfRange };

// Optional sign, then decimal digits. Magnitude above 1e6 is OutOfRange (checked on the
// digit count first, so no overflow is possible).
IntParse parseInt(std::string_view s, int& out) {
    size_t i = 0;
    bool neg = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i >= s.size()) return IntParse::NotInteger;
    for (size_t k = i; k < s.size(); ++k)
        if (s[k] < '0' || s[k] > '9') return IntParse::NotInteger;
    while (i + 1 < s.size() && s[i] == '0') ++i;  // leading zeros
    if (s.size() - i > 7) return IntParse::OutOfRange;
    long v = 0;
    for (; i < s.size(); ++i) v = v * 10 + (s[i] - '0');
    if (v > kIntMagnitudeLimit) return IntParse::OutOfRange;
    out = static_cast<int>(neg ? -v : v);
    return IntParse::Ok;
}

std::string cellText(const Vec3& c) {
    return std::to_string(c.x) + " " + std::to_string(c.y) + " " + std::to_string(c.z);
}

struct Setting {
    std::string_view tag;
    std::string_view value;
    bool hasValue = false;
};

// A piece being drawn in the current L block.
struct BlockPiece {
    std::string name;
    Cells cells;
    int owner = -1;  // stationary: index into the parser's stationaryNames_
};

class Parser {
public:
    Parser(const std::string& text, const std::string& source, const ParseLimits& limits)
        : text_(text), source_(source), limits_(limits) {}

    ParseResult run() {
        if (text_.size() > limits_.maxInputBytes) {
            fail(0, {}, "input is " + std::to_string(text_.size()) + " bytes, more than the limit of " +
                            std::to_string(limits_.maxInputBytes));
            return std::move(result_);
        }
        std::string_view all(text_);
        if (all.size() >= 3 && all.substr(0, 3) == "\xEF\xBB\xBF") all.remove_prefix(3);  // UTF-8 BOM
        size_t pos = 0;
        int lineNo = 0;
        while (pos < all.size() && !result_.failed) {
            // Lines end with \n, \r\n or a lone \r (old Macintosh files).
            size_t nl = all.find_first_of("\r\n", pos);
            std::string_view raw = nl == std::string_view::npos ? all.substr(pos) : all.substr(pos, nl - pos);
            if (nl == std::string_view::npos)
                pos = all.size();
            else if (all[nl] == '\r' && nl + 1 < all.size() && all[nl + 1] == '\n')
                pos = nl + 2;
            else
                pos = nl + 1;
            ++lineNo;
            processLine(lineNo, raw);
        }
        if (!result_.failed) finishInput();
        if (result_.failed) result_.puzzles.clear();
        return std::move(result_);
    }

private:
    const std::string& text_;
    const std::string& source_;
    const ParseLimits& limits_;
    ParseResult result_;

    // Title tracking: the first non-empty text of the nearest block of comment lines.
    std::string commentTitle_;
    bool lastWasComment_ = false;

    // The open D block.
    bool inD_ = false;
    int dLine_ = 0;
    std::string_view dText_;
    PuzzleDef cur_;
    std::unordered_map<std::string, int> nameLine_;  // piece name -> line where it was defined
    std::vector<int> occupant_;                      // stationary occupancy: 0 or 1 + index into stationaryNames_
    std::vector<std::string> stationaryNames_;
    long long totalCells_ = 0;  // cells of all pieces (mobile times count), checked against limits
    long long instances_ = 0;

    // The open L block.
    bool inL_ = false;
    int lLine_ = 0;
    std::string_view lText_;
    int lRow_ = 0;
    std::vector<std::string> lStationary_;
    std::vector<BlockPiece> lPieces_;
    std::unordered_map<std::string, int> lIndex_;

    bool fail(int line, std::string_view lineText, std::string message) {
        if (result_.failed) return false;
        result_.failed = true;
        result_.error.source = source_;
        result_.error.line = line;
        result_.error.lineText = quote(lineText, kMaxQuotedChars);
        result_.error.message = std::move(message);
        return false;
    }

    void processLine(int lineNo, std::string_view raw) {
        size_t hash = raw.find('#');
        std::string_view content = trim(hash == std::string_view::npos ? raw : raw.substr(0, hash));
        if (content.empty()) {
            if (hash == std::string_view::npos) {  // blank line: ends a comment block
                lastWasComment_ = false;
                return;
            }
            std::string_view c = raw.substr(hash);
            while (!c.empty() && c.front() == '#') c.remove_prefix(1);
            c = trim(c);
            if (!lastWasComment_) commentTitle_.clear();  // a new comment block starts
            if (commentTitle_.empty() && !c.empty()) commentTitle_ = quote(c, kMaxQuotedChars);
            lastWasComment_ = true;
            return;
        }
        lastWasComment_ = false;
        std::string title = std::move(commentTitle_);
        commentTitle_.clear();

        if (inL_) {
            if (content == "~L") {
                endL(lineNo, raw);
            } else if (content == "~D") {
                fail(lineNo, raw, "~D inside an L block: missing ~L for the L block at line " + std::to_string(lLine_));
            } else if (std::string_view d = directiveInRow(content); !d.empty()) {
                fail(lineNo, raw, std::string(d) + " directive inside an L block: missing ~L for the L block at line " +
                                      std::to_string(lLine_));
            } else {
                addRow(lineNo, raw, content);
            }
            return;
        }

        Splitter fields(content, ':');
        std::string_view first;
        fields.next(first);
        std::string_view tag = trim(first);
        if (tag == "D") {
            startD(lineNo, raw, fields, std::move(title));
        } else if (tag == "~D") {
            if (!noSettings(lineNo, raw, fields, "~D")) return;
            endD(lineNo, raw);
        } else if (tag == "C") {
            directiveC(lineNo, raw, fields);
        } else if (tag == "L") {
            startL(lineNo, raw, fields);
        } else if (tag == "~L") {
            fail(lineNo, raw, "~L without an open L block");
        } else {
            fail(lineNo, raw, "unknown directive " + q(tag) + " (expected D, C, L, ~L or ~D)");
        }
    }

    // A row of an L block that is really a D, C or L directive (a forgotten ~L).
    static std::string_view directiveInRow(std::string_view content) {
        size_t colon = content.find(':');
        if (colon == std::string_view::npos) return {};
        std::string_view tag = trim(content.substr(0, colon));
        if (tag == "D" || tag == "C" || tag == "L") return tag;
        return {};
    }

    bool noSettings(int lineNo, std::string_view raw, Splitter& fields, const char* what) {
        std::string_view f;
        while (fields.next(f))
            if (!trim(f).empty()) return fail(lineNo, raw, std::string(what) + " takes no settings");
        return true;
    }

    // Reads the settings of a directive; rejects unknown and repeated tags.
    bool readSettings(int lineNo, std::string_view raw, Splitter& fields, const char* what,
                      const std::vector<std::string_view>& allowed, std::vector<Setting>& out) {
        std::string_view f;
        while (fields.next(f)) {
            f = trim(f);
            if (f.empty()) continue;
            Setting s;
            size_t eq = f.find('=');
            if (eq == std::string_view::npos) {
                s.tag = f;
            } else {
                s.tag = trim(f.substr(0, eq));
                s.value = trim(f.substr(eq + 1));
                s.hasValue = true;
            }
            if (std::find(allowed.begin(), allowed.end(), s.tag) == allowed.end())
                return fail(lineNo, raw, std::string(what) + ": unknown setting " + q(s.tag));
            for (const Setting& o : out)
                if (o.tag == s.tag)
                    return fail(lineNo, raw, std::string(what) + ": setting " + q(s.tag) + " given twice");
            out.push_back(s);
        }
        return true;
    }

    static const Setting* find(const std::vector<Setting>& settings, std::string_view tag) {
        for (const Setting& s : settings)
            if (s.tag == tag) return &s;
        return nullptr;
    }

    // An integer setting; `minimum` and `maximum` bound it.
    bool intSetting(int lineNo, std::string_view raw, const char* what, const Setting& s, int minimum,
                    long maximum, const char* limitName, int& out) {
        std::string prefix = std::string(what) + ": ";
        std::string tag(s.tag);
        if (!s.hasValue || s.value.empty()) return fail(lineNo, raw, prefix + tag + " needs a value");
        IntParse r = parseInt(s.value, out);
        if (r == IntParse::NotInteger)
            return fail(lineNo, raw, prefix + tag + " must be an integer, got " + q(s.value));
        if (r == IntParse::OutOfRange || out > maximum) {
            if (r == IntParse::OutOfRange && s.value[0] == '-')
                return fail(lineNo, raw, prefix + tag + " must be at least " + std::to_string(minimum) + ", got " + q(s.value));
            return fail(lineNo, raw, prefix + tag + "=" + quote(s.value, kMaxQuotedToken) + " is larger than the " +
                                         limitName + " of " + std::to_string(maximum));
        }
        if (out < minimum)
            return fail(lineNo, raw, prefix + tag + " must be at least " + std::to_string(minimum) + ", got " + std::to_string(out));
        return true;
    }

    void startD(int lineNo, std::string_view raw, Splitter& fields, std::string title) {
        if (inD_) {
            fail(lineNo, raw, "D directive inside the puzzle started at line " + std::to_string(dLine_) + " (missing ~D?)");
            return;
        }
        std::vector<Setting> settings;
        if (!readSettings(lineNo, raw, fields, "D directive", {"xDim", "yDim", "zDim", "oneSide"}, settings)) return;
        int dims[3] = {0, 0, 0};
        const char* names[3] = {"xDim", "yDim", "zDim"};
        for (int i = 0; i < 3; ++i) {
            const Setting* s = find(settings, names[i]);
            if (!s) {
                fail(lineNo, raw, std::string("D directive: missing ") + names[i]);
                return;
            }
            if (!intSetting(lineNo, raw, "D directive", *s, 1, limits_.maxDimension, "dimension limit", dims[i])) return;
        }
        bool oneSide = false;
        if (const Setting* s = find(settings, "oneSide")) {
            std::string v(s->value);
            for (char& c : v) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            if (!s->hasValue || v == "true" || v == "1") {
                oneSide = true;
            } else if (v == "false" || v == "0") {
                oneSide = false;
            } else {
                fail(lineNo, raw, "D directive: oneSide must be true, false, 1 or 0, got " + q(s->value));
                return;
            }
        }
        if (oneSide && dims[2] != 1) {
            fail(lineNo, raw, "D directive: oneSide requires zDim=1 (got zDim=" + std::to_string(dims[2]) + ")");
            return;
        }
        long long volume = static_cast<long long>(dims[0]) * dims[1] * dims[2];
        if (volume > limits_.maxBoxVolume) {
            fail(lineNo, raw, "D directive: the box has " + std::to_string(volume) + " cells, more than the limit of " +
                                  std::to_string(limits_.maxBoxVolume));
            return;
        }
        inD_ = true;
        dLine_ = lineNo;
        dText_ = raw;
        cur_ = PuzzleDef{};
        cur_.source = source_;
        cur_.line = lineNo;
        cur_.title = std::move(title);
        cur_.xDim = dims[0];
        cur_.yDim = dims[1];
        cur_.zDim = dims[2];
        cur_.oneSide = oneSide;
        nameLine_.clear();
        occupant_.clear();
        stationaryNames_.clear();
        totalCells_ = 0;
        instances_ = 0;
    }

    void endD(int lineNo, std::string_view raw) {
        if (!inD_) {
            fail(lineNo, raw, "~D without an open D directive");
            return;
        }
        inD_ = false;
        bool anyMobile = false;
        for (const PieceDef& p : cur_.pieces) anyMobile = anyMobile || !p.stationary;
        if (!anyMobile && limits_.requireExactCover) {
            fail(dLine_, dText_, "the puzzle has no pieces to place (only fixed ones, or none)");
            return;
        }
        long long box = cur_.boxVolume();
        long long stationary = 0, mobile = 0;
        for (const PieceDef& p : cur_.pieces)
            (p.stationary ? stationary : mobile) += static_cast<long long>(p.cells.size()) * p.count;
        if (mobile != box - stationary && limits_.requireExactCover) {
            fail(dLine_, dText_,
                 "pieces cover " + std::to_string(mobile) + " cells but the box has " + std::to_string(box - stationary) +
                     " free cells (" + std::to_string(box) + " cells, " + std::to_string(stationary) + " stationary)");
            return;
        }
        result_.puzzles.push_back(std::move(cur_));
        cur_ = PuzzleDef{};
    }

    bool checkName(int lineNo, std::string_view raw, const char* what, std::string_view name) {
        auto it = nameLine_.find(std::string(name));
        if (it != nameLine_.end())
            return fail(lineNo, raw, std::string(what) + ": piece " + q(name) + " is already defined at line " +
                                         std::to_string(it->second));
        return true;
    }

    // Counts piece instances and cells against the limits.
    bool addInstances(int lineNo, std::string_view raw, long long count) {
        instances_ += count;
        if (instances_ > limits_.maxInstances)
            return fail(lineNo, raw, "too many piece instances: more than the limit of " +
                                         std::to_string(limits_.maxInstances));
        return true;
    }
    bool addCells(int lineNo, std::string_view raw, long long cells) {
        totalCells_ += cells;
        if (totalCells_ > limits_.maxBoxVolume)
            return fail(lineNo, raw, "the pieces have more than " + std::to_string(limits_.maxBoxVolume) +
                                         " cells in total (the box volume limit)");
        return true;
    }

    // Places one stationary cell, checking the box and the other stationary pieces.
    bool placeStationary(int lineNo, std::string_view raw, const char* what, int owner, const Vec3& c) {
        const std::string& name = stationaryNames_[owner];
        if (c.x < 0 || c.y < 0 || c.z < 0 || c.x >= cur_.xDim || c.y >= cur_.yDim || c.z >= cur_.zDim)
            return fail(lineNo, raw, std::string(what) + ": stationary piece " + q(name) + " has cell " + cellText(c) +
                                         " outside the box (" + std::to_string(cur_.xDim) + "x" +
                                         std::to_string(cur_.yDim) + "x" + std::to_string(cur_.zDim) + ")");
        if (occupant_.empty()) occupant_.assign(static_cast<size_t>(cur_.boxVolume()), 0);
        int& slot = occupant_[static_cast<size_t>(c.x + cur_.xDim * (c.y + cur_.yDim * c.z))];
        if (slot != 0 && slot != owner + 1)
            return fail(lineNo, raw, std::string(what) + ": stationary piece " + q(name) + " overlaps stationary piece " +
                                         q(stationaryNames_[slot - 1]) + " at cell " + cellText(c));
        slot = owner + 1;
        return true;
    }

    bool validName(int lineNo, std::string_view raw, const char* what, std::string_view name) {
        if (name.empty()) return fail(lineNo, raw, std::string(what) + ": name is empty");
        if (name == ".") return fail(lineNo, raw, std::string(what) + ": '.' is not a valid piece name (it marks an empty cell)");
        for (char c : name) {
            if (isSpace(c) || c == ',')
                return fail(lineNo, raw, std::string(what) + ": piece name " + q(name) +
                                             " must be a single token (no spaces or commas)");
            // Names are printed in solutions, legends and share links: a control byte (NUL,
            // ESC, BEL...) would reach a terminal raw or make the puzzle impossible to share.
            const unsigned char u = static_cast<unsigned char>(c);
            if (u < 0x20 || u == 0x7f) {
                char code[8];
                std::snprintf(code, sizeof code, "0x%02X", u);
                return fail(lineNo, raw, std::string(what) + ": piece name " + q(name) + " contains the control character " +
                                             code + " (names are printed; use visible characters)");
            }
        }
        return true;
    }

    void directiveC(int lineNo, std::string_view raw, Splitter& fields) {
        const char* what = "C directive";
        if (!inD_) {
            fail(lineNo, raw, "C directive outside a puzzle (no open D directive)");
            return;
        }
        std::vector<Setting> settings;
        if (!readSettings(lineNo, raw, fields, what, {"name", "type", "layout", "count"}, settings)) return;
        const Setting* name = find(settings, "name");
        const Setting* type = find(settings, "type");
        const Setting* layout = find(settings, "layout");
        const Setting* count = find(settings, "count");
        if (!name) {
            fail(lineNo, raw, "C directive: missing name");
            return;
        }
        if (!validName(lineNo, raw, what, name->value)) return;
        if (!checkName(lineNo, raw, what, name->value)) return;
        bool stationary = false;
        if (type) {
            if (type->value == "M" || type->value == "m") {
                stationary = false;
            } else if (type->value == "S" || type->value == "s") {
                stationary = true;
            } else {
                fail(lineNo, raw, "C directive: type must be M or S, got " + q(type->value));
                return;
            }
        }
        int copies = 1;
        if (count) {
            if (!intSetting(lineNo, raw, what, *count, 1, limits_.maxInstances, "instance limit", copies)) return;
            if (stationary && copies != 1) {
                fail(lineNo, raw, "C directive: count is not allowed for a stationary piece (type=S)");
                return;
            }
        }
        if (!layout) {
            fail(lineNo, raw, "C directive: missing layout");
            return;
        }
        if (!layout->hasValue || layout->value.empty()) {
            fail(lineNo, raw, "C directive: layout is empty (a piece needs at least one cell)");
            return;
        }
        Cells cells;
        Splitter triplets(layout->value, ',');
        std::string_view t;
        int entry = 0;
        while (triplets.next(t)) {
            ++entry;
            if (static_cast<long>(cells.size()) >= limits_.maxPieceCells) {
                fail(lineNo, raw, "C directive: the piece has more than " + std::to_string(limits_.maxPieceCells) +
                                      " cells (the piece size limit)");
                return;
            }
            Tokens tokens(t);
            std::string_view tok;
            int v[3] = {0, 0, 0};
            int n = 0;
            while (tokens.next(tok)) {
                if (n == 3) {
                    n = 4;
                    break;
                }
                IntParse r = parseInt(tok, v[n]);
                if (r == IntParse::NotInteger) {
                    fail(lineNo, raw, "C directive: layout must be a list of x y z triplets; " + q(tok) + " is not an integer");
                    return;
                }
                if (r == IntParse::OutOfRange) {
                    fail(lineNo, raw, "C directive: layout coordinate " + q(tok) + " is out of range (at most " +
                                          std::to_string(kIntMagnitudeLimit) + " in magnitude)");
                    return;
                }
                ++n;
            }
            if (n != 3) {
                fail(lineNo, raw, "C directive: layout must be a list of x y z triplets; entry " + std::to_string(entry) +
                                      " is " + q(trim(t)));
                return;
            }
            cells.push_back({v[0], v[1], v[2]});
        }
        Cells sorted = cells;
        std::sort(sorted.begin(), sorted.end());
        for (size_t i = 1; i < sorted.size(); ++i)
            if (sorted[i] == sorted[i - 1]) {
                fail(lineNo, raw, "C directive: cell " + cellText(sorted[i]) + " appears twice in piece " + q(name->value));
                return;
            }
        if (!addInstances(lineNo, raw, copies)) return;
        if (!addCells(lineNo, raw, static_cast<long long>(cells.size()) * copies)) return;
        std::string pieceName(name->value);
        if (stationary) {
            stationaryNames_.push_back(pieceName);
            int owner = static_cast<int>(stationaryNames_.size()) - 1;
            for (const Vec3& c : cells)
                if (!placeStationary(lineNo, raw, what, owner, c)) return;
        }
        nameLine_[pieceName] = lineNo;
        PieceDef p;
        p.name = std::move(pieceName);
        p.stationary = stationary;
        p.cells = std::move(cells);
        p.count = copies;
        p.line = lineNo;
        cur_.pieces.push_back(std::move(p));
    }

    void startL(int lineNo, std::string_view raw, Splitter& fields) {
        if (!inD_) {
            fail(lineNo, raw, "L block outside a puzzle (no open D directive)");
            return;
        }
        std::vector<Setting> settings;
        if (!readSettings(lineNo, raw, fields, "L block", {"stationary"}, settings)) return;
        lStationary_.clear();
        if (const Setting* s = find(settings, "stationary")) {
            Tokens tokens(s->value);
            std::string_view tok;
            while (tokens.next(tok)) {
                if (!validName(lineNo, raw, "L block", tok) || !checkName(lineNo, raw, "L block", tok)) return;
                if (lStationary_.size() >= static_cast<size_t>(limits_.maxInstances)) {
                    fail(lineNo, raw, "too many piece instances: more than the limit of " +
                                          std::to_string(limits_.maxInstances));
                    return;
                }
                if (std::find(lStationary_.begin(), lStationary_.end(), tok) == lStationary_.end())
                    lStationary_.emplace_back(tok);
            }
            if (lStationary_.empty()) {
                fail(lineNo, raw, "L block: stationary= lists no piece name");
                return;
            }
        }
        inL_ = true;
        lLine_ = lineNo;
        lText_ = raw;
        lRow_ = 0;
        lPieces_.clear();
        lIndex_.clear();
    }

    void addRow(int lineNo, std::string_view raw, std::string_view content) {
        const char* what = "L block";
        int y = cur_.yDim - 1 - lRow_;
        ++lRow_;
        Splitter layers(content, ',');
        std::string_view layer;
        int z = 0;
        while (layers.next(layer)) {
            Tokens tokens(layer);
            std::string_view tok;
            int x = 0;
            while (tokens.next(tok)) {
                if (tok != ".") {
                    if (!addCell(lineNo, raw, what, tok, {x, y, z})) return;
                }
                ++x;
            }
            ++z;
        }
    }

    bool addCell(int lineNo, std::string_view raw, const char* what, std::string_view name, const Vec3& c) {
        std::string key(name);
        auto it = lIndex_.find(key);
        int idx;
        if (it == lIndex_.end()) {
            // The same rules as a C directive's names: a NUL or ESC inside a drawn name would
            // make a piece of its own and reach the terminal raw.
            if (!validName(lineNo, raw, what, name) || !checkName(lineNo, raw, what, name)) return false;
            if (!addInstances(lineNo, raw, 1)) return false;
            BlockPiece bp;
            bp.name = key;
            if (std::find(lStationary_.begin(), lStationary_.end(), key) != lStationary_.end()) {
                stationaryNames_.push_back(key);
                bp.owner = static_cast<int>(stationaryNames_.size()) - 1;
            }
            idx = static_cast<int>(lPieces_.size());
            lIndex_.emplace(std::move(key), idx);
            lPieces_.push_back(std::move(bp));
        } else {
            idx = it->second;
        }
        BlockPiece& p = lPieces_[idx];
        if (static_cast<long>(p.cells.size()) >= limits_.maxPieceCells)
            return fail(lineNo, raw, "L block: piece " + q(name) + " has more than " +
                                         std::to_string(limits_.maxPieceCells) + " cells (the piece size limit)");
        if (!addCells(lineNo, raw, 1)) return false;
        if (p.owner >= 0 && !placeStationary(lineNo, raw, what, p.owner, c)) return false;
        p.cells.push_back(c);
        return true;
    }

    void endL(int /*lineNo*/, std::string_view /*raw*/) {
        inL_ = false;
        for (const std::string& s : lStationary_)
            if (lIndex_.find(s) == lIndex_.end()) {
                fail(lLine_, lText_, "L block: stationary piece " + q(s) + " is not drawn in this block");
                return;
            }
        for (BlockPiece& bp : lPieces_) {
            PieceDef p;
            p.name = bp.name;
            p.stationary = bp.owner >= 0;
            p.cells = std::move(bp.cells);
            p.count = 1;
            p.line = lLine_;
            nameLine_[bp.name] = lLine_;
            cur_.pieces.push_back(std::move(p));
        }
        lPieces_.clear();
        lIndex_.clear();
    }

    void finishInput() {
        if (inL_) {
            fail(lLine_, lText_, "missing ~L: the L block started at line " + std::to_string(lLine_) + " is never closed");
            return;
        }
        if (inD_) {
            fail(dLine_, dText_, "missing ~D: the puzzle started at line " + std::to_string(dLine_) + " is never closed");
            return;
        }
        if (result_.puzzles.empty()) fail(0, {}, "no puzzle definition (D directive) found");
    }
};

}  // namespace

ParseResult parseDefinitions(const std::string& text, const std::string& sourceName, const ParseLimits& limits) {
    Parser parser(text, sourceName, limits);
    return parser.run();
}

}  // namespace polycube
