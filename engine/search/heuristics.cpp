#include "search/heuristics.hpp"

#include "common/text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace polycube {

namespace {

bool parseNumbers(const std::string& text, std::vector<double>& out) {
    std::stringstream ss(text);
    std::string part;
    while (std::getline(ss, part, ',')) {
        char* end = nullptr;
        double v = std::strtod(part.c_str(), &end);
        if (part.empty() || *end != '\0' || !std::isfinite(v)) return false;
        out.push_back(v);
    }
    return true;
}

}  // namespace

const Heuristic& HeuristicSchedule::at(int remaining) const {
    const Heuristic* h = &entries.front().heuristic;
    for (const Entry& e : entries)
        if (remaining <= e.threshold) h = &e.heuristic;
    return *h;
}

std::string HeuristicSchedule::describe() const {
    std::string s;
    for (const Entry& e : entries) {
        if (!s.empty()) s += ":";
        s += e.heuristic.text + "=" + std::to_string(e.threshold);
    }
    return s;
}

Result<Heuristic> parseHeuristic(const std::string& text) {
    Heuristic h;
    h.text = text;
    std::string name = text, args;
    if (auto at = text.find('@'); at != std::string::npos) {
        name = text.substr(0, at);
        args = text.substr(at + 1);
    }
    std::vector<double> nums;
    if (!args.empty() && !parseNumbers(args, nums))
        return Result<Heuristic>::error("bad numbers after '@' in heuristic '" + quoteText(text) + "'");
    auto noArgs = [&]() { return args.empty(); };
    if ((name == "s" || name == "S") && noArgs()) h.kind = HeuristicKind::Size;
    else if ((name == "f" || name == "F") && noArgs()) h.kind = HeuristicKind::First;
    else if ((name == "e" || name == "E") && noArgs()) h.kind = HeuristicKind::Estimate;
    else if ((name == "c" || name == "C") && noArgs()) h.kind = HeuristicKind::Cornered;
    else if (name == "l") {
        if (nums.size() != 3) return Result<Heuristic>::error("heuristic l needs l@a,b,c, got '" + quoteText(text) + "'");
        h.kind = HeuristicKind::Linear;
        h.a = nums[0], h.b = nums[1], h.c = nums[2];
    } else if (noArgs() && (name == "x" || name == "y" || name == "z" || name == "X" || name == "Y" || name == "Z" || name == "xyz")) {
        h.kind = HeuristicKind::Linear;
        double sign = (name == "X" || name == "Y" || name == "Z") ? -1 : 1;
        if (name == "xyz") h.a = h.b = h.c = 1;
        else if (name == "x" || name == "X") h.a = sign;
        else if (name == "y" || name == "Y") h.b = sign;
        else h.c = sign;
    } else if (name == "a" || name == "A") {
        if (nums.size() != 0 && nums.size() != 1 && nums.size() != 3)
            return Result<Heuristic>::error("heuristic " + name + " takes @deg or @deg,xc,yc, got '" + quoteText(text) + "'");
        h.kind = HeuristicKind::Angular;
        h.clockwise = name == "A";
        if (!nums.empty()) h.degrees = nums[0];
        if (nums.size() == 3) h.hasCenter = true, h.xc = nums[1], h.yc = nums[2];
    } else if (name == "R") {
        if (nums.size() != 0 && nums.size() != 3)
            return Result<Heuristic>::error("heuristic R takes @xc,yc,zc, got '" + quoteText(text) + "'");
        h.kind = HeuristicKind::Radial;
        if (nums.size() == 3) h.hasCenter = true, h.xc = nums[0], h.yc = nums[1], h.zc = nums[2];
    } else {
        return Result<Heuristic>::error("unknown heuristic '" + quoteText(text) +
                                        "' (known: s f e c l@a,b,c x y z X Y Z xyz a[@deg[,xc,yc]] A R[@xc,yc,zc])");
    }
    return Result<Heuristic>::success(h);
}

Result<std::vector<HeuristicSchedule::Entry>> parseScheduleEntries(const std::string& text, int pieceCount) {
    using Entries = std::vector<HeuristicSchedule::Entry>;
    Entries entries;
    if (text.empty()) return Result<Entries>::success(entries);
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ':')) {
        if (item.empty()) return Result<Entries>::error("-o: empty entry in '" + quoteText(text) + "'");
        int threshold = pieceCount;
        std::string name = item;
        if (auto eq = item.find('='); eq != std::string::npos) {
            name = item.substr(0, eq);
            std::string n = item.substr(eq + 1);
            long long v = 0;
            auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
            if (ec != std::errc() || p != n.data() + n.size() || v < 1 || v > 1000000)
                return Result<Entries>::error("-o: '" + quoteText(item) + "' needs a positive piece count after '='");
            threshold = static_cast<int>(std::min<long long>(v, pieceCount));
        }
        Result<Heuristic> h = parseHeuristic(name);
        if (!h.ok()) return Result<Entries>::error("-o: " + h.status.message);
        entries.push_back({threshold, h.value});
    }
    return Result<Entries>::success(entries);
}

HeuristicSchedule makeSchedule(std::vector<HeuristicSchedule::Entry> entries, int pieceCount) {
    HeuristicSchedule sched;
    if (entries.empty()) {
        sched.entries.push_back({pieceCount, parseHeuristic("s").value});
        return sched;
    }
    sched.entries = std::move(entries);
    std::stable_sort(sched.entries.begin(), sched.entries.end(),
                     [](const auto& x, const auto& y) { return x.threshold > y.threshold; });
    // The largest entry covers the start of the search whatever its threshold.
    sched.entries.front().threshold = std::max(sched.entries.front().threshold, pieceCount);
    return sched;
}

Result<HeuristicSchedule> parseSchedule(const std::string& text, int pieceCount) {
    Result<std::vector<HeuristicSchedule::Entry>> entries = parseScheduleEntries(text, pieceCount);
    if (!entries.ok()) return Result<HeuristicSchedule>::error(entries.status);
    return Result<HeuristicSchedule>::success(makeSchedule(std::move(entries.value), pieceCount));
}

std::vector<double> cellKeys(const Heuristic& h, const Model& m) {
    const int n = m.openCellCount();
    std::vector<double> keys(n, 0.0);
    const double cx = h.hasCenter ? h.xc : (m.xDim - 1) / 2.0;
    const double cy = h.hasCenter ? h.yc : (m.yDim - 1) / 2.0;
    const double cz = h.hasCenter ? h.zc : (m.zDim - 1) / 2.0;
    // Axes ordered shortest first: "first open cell" scans the shortest dimension fastest.
    int axes[3] = {0, 1, 2};
    const int dims[3] = {m.xDim, m.yDim, m.zDim};
    std::stable_sort(axes, axes + 3, [&](int a, int b) { return dims[a] < dims[b]; });
    for (int i = 0; i < n; ++i) {
        const Vec3& p = m.openCellPos[i];
        const int c[3] = {p.x, p.y, p.z};
        switch (h.kind) {
            case HeuristicKind::Size:
            case HeuristicKind::Estimate:
            case HeuristicKind::Cornered: keys[i] = 0; break;
            case HeuristicKind::First:
                keys[i] = c[axes[0]] + static_cast<double>(dims[axes[0]]) * (c[axes[1]] + static_cast<double>(dims[axes[1]]) * c[axes[2]]);
                break;
            case HeuristicKind::Linear: keys[i] = h.a * p.x + h.b * p.y + h.c * p.z; break;
            case HeuristicKind::Angular: {
                double deg = std::atan2(p.y - cy, p.x - cx) * 180.0 / M_PI;
                double sweep = h.clockwise ? h.degrees - deg : deg - h.degrees;
                sweep = std::fmod(sweep, 360.0);
                if (sweep < 0) sweep += 360.0;
                keys[i] = sweep;
                break;
            }
            case HeuristicKind::Radial: {
                double dx = p.x - cx, dy = p.y - cy, dz = p.z - cz;
                keys[i] = -(dx * dx + dy * dy + dz * dz);
                break;
            }
        }
    }
    return keys;
}

}  // namespace polycube
