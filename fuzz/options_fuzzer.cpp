// libFuzzer target: option strings through Session::start on a small puzzle (the Soma cube),
// then a few short slices of the search they configure, with a trace drained as the page does.
// Built by scripts/fuzz.sh (clang, ASan + UBSan).
#include <cstddef>
#include <cstdint>
#include <string>

#include "session/session.hpp"
#include "soma.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static polycube::Session* s = [] {
        auto* session = new polycube::Session();
        session->load(polycube_fuzz::kSoma, "soma.txt");
        return session;
    }();
    const std::string options(reinterpret_cast<const char*>(data), size);
    if (!s->start(0, options)) {
        if (s->lastError().size() > 1000) __builtin_trap();  // quoted input is capped
        return 0;
    }
    for (int k = 0; k < 6 && s->step(2000) == polycube::Session::RUNNING; ++k) {
        s->takeSolutions(100);
        s->takeTrace(1000);
    }
    s->statsJson();
    s->cancel();
    return 0;
}
