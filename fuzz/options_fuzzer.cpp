// libFuzzer target: option strings through Session::start on a small puzzle (the Soma cube),
// then a few short slices of the search they configure, with a trace drained as the page does.
// Built by scripts/fuzz.sh (clang, ASan + UBSan).
#include <cstddef>
#include <cstdint>
#include <string>

#include "session/session.hpp"

namespace {

const char* kSoma =
    "D:xDim=3:yDim=3:zDim=3\n"
    "C:name=V:layout=0 0 0, 1 0 0, 0 1 0\n"
    "C:name=L:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
    "C:name=T:layout=0 0 0, 1 0 0, 2 0 0, 1 1 0\n"
    "C:name=Z:layout=0 0 0, 1 0 0, 1 1 0, 2 1 0\n"
    "C:name=A:layout=0 0 0, 1 0 0, 0 1 0, 0 0 1\n"
    "C:name=B:layout=0 0 0, 1 0 0, 1 1 0, 1 1 1\n"
    "C:name=P:layout=0 0 0, 1 0 0, 0 1 0, 1 0 1\n"
    "~D\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static polycube::Session* s = [] {
        auto* session = new polycube::Session();
        session->load(kSoma, "soma.txt");
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
