#include "progress.hpp"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "puzzle/model.hpp"  // formatCount

namespace polycube {

namespace {

std::string seconds(double s) {
    std::ostringstream o;
    if (s < 90) o << static_cast<long long>(s + 0.5) << " s";
    else if (s < 5400) o << static_cast<long long>(s / 60 + 0.5) << " min";
    else o << std::fixed << std::setprecision(1) << s / 3600 << " h";
    return o.str();
}

// As the page writes it (web/src/app/format.js percentText): whole percents from 1%, one
// significant digit below, so that a search of hours moves ("about 0.03% done").
std::string percentText(double f) {
    if (!(f > 0)) return "0%";
    if (f >= 0.01) return std::to_string(static_cast<int>(f * 100)) + "%";
    if (f < 1e-6) return "under 0.0001%";
    std::ostringstream o;
    o << std::setprecision(1) << f * 100 << "%";
    return o.str();
}

}  // namespace

double secondsFromEnv(const char* name, double lo, double hi, double fallback) {
    const char* env = std::getenv(name);
    const double v = env ? std::atof(env) : 0;
    return v >= lo && v <= hi ? v : fallback;
}

double progressSeconds() { return secondsFromEnv("POLYCUBE_PROGRESS_SECONDS", 0.05, 60, 1.0); }

double partDone(double startShare, double fraction) {
    const double part = 1 - std::clamp(startShare, 0.0, 1.0);
    return part > 0 ? std::clamp((fraction - (1 - part)) / part, 0.0, 1.0) : 1.0;
}

double projectedSeconds(double startShare, double fraction, double elapsed) {
    const double gained = partDone(startShare, fraction);
    return gained > 0.001 ? elapsed / gained : -1;
}

ProgressReporter::ProgressReporter(bool terminal, std::string label, double startShare, bool partOnly)
    : terminal_(terminal), label_(std::move(label)), startShare_(std::clamp(startShare, 0.0, 1.0)), partOnly_(partOnly) {}

void ProgressReporter::reportAtMost(double seconds, double fraction, long long solutions) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - lastSaid_).count() >= seconds) report(fraction, solutions);
}

void ProgressReporter::report(double fraction, long long solutions) {
    lastSaid_ = std::chrono::steady_clock::now();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::ostringstream line;
    const std::string shown = percentText(partOnly_ ? partDone(startShare_, fraction) : fraction);
    line << label_ << (shown.rfind("under", 0) == 0 ? "" : "about ") << shown << " done";
    if (partOnly_) line << " (of this job)";
    if (const double total = projectedSeconds(startShare_, fraction, t); total >= 0) {
        projections_.push_back(total);
        if (projections_.size() > 10) projections_.erase(projections_.begin());
        const auto [lo, hi] = std::minmax_element(projections_.begin(), projections_.end());
        if (total - t < 0.5) {
            line << ", under 1 s left";  // not "~0 s left", which reads as if it were over
        } else {
            line << ", ~" << seconds(total - t) << " left";
        }
        if (total - t >= 0.5 && projections_.size() >= 3 && *hi - *lo > 0.1 * total) {
            std::string a = seconds(std::max(0.0, *lo - t)), b = seconds(std::max(0.0, *hi - t));
            const size_t unit = a.find(' ');
            if (a.substr(unit) == b.substr(b.find(' '))) a.erase(unit);  // "30-55 s"
            line << " (" << a << "-" << b << ")";
        }
    }
    if (solutions >= 0) line << ", " << formatCount(solutions) << " solution" << (solutions == 1 ? "" : "s");
    line << ", " << seconds(t) << " elapsed";
    const std::string text = line.str();
    if (terminal_) {
        std::cerr << "\r" << text << std::string(width_ > text.size() ? width_ - text.size() : 0, ' ') << std::flush;
        width_ = text.size();
    } else {
        std::cerr << text << "\n" << std::flush;
    }
}

void ProgressReporter::finish() {
    if (terminal_ && width_ > 0) std::cerr << "\r" << std::string(width_, ' ') << "\r" << std::flush;
    width_ = 0;
}

}  // namespace polycube
