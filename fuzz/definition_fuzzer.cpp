// libFuzzer target: definition text through Session::load, the editor's draft check, and a
// short search of each puzzle (setup, filters and the first placements run in bounded slices,
// so every input finishes quickly). Built by scripts/fuzz.sh (clang, ASan + UBSan).
#include <cstddef>
#include <cstdint>
#include <string>

#include "session/session.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    polycube::Session::draftJson(text, "fuzz.txt");
    polycube::Session s;
    if (!s.load(text, "fuzz.txt")) {
        if (s.lastError().size() > 2000) __builtin_trap();  // messages quote at most a line's 200 characters
        return 0;
    }
    for (int i = 0; i < s.puzzleCount() && i < 2; ++i) {
        s.puzzleJson(i);
        if (!s.start(i, i == 0 ? "" : "-r -u")) continue;
        for (int k = 0; k < 4 && s.step(500) == polycube::Session::RUNNING; ++k) {
            s.takeSolutions(10);
        }
        s.statsJson();
        s.cancel();
        if (s.step(1) == polycube::Session::RUNNING) __builtin_trap();  // cancel must be final
    }
    return 0;
}
