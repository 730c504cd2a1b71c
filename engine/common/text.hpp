// Quoting user input inside messages: at most `max` characters, so an error about a
// megabyte-long option or name is one readable line (the rest is elided with "...").
#pragma once
#include <string>
#include <string_view>

namespace polycube {

inline std::string quoteText(std::string_view s, size_t max = 40) {
    if (s.size() <= max) return std::string(s);
    // Cut on a UTF-8 character boundary so the message stays valid text.
    size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return std::string(s.substr(0, cut)) + "... (" + std::to_string(s.size()) + " characters)";
}

}  // namespace polycube
