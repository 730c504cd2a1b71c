// Quoting user input inside messages: at most `max` characters, so an error about a
// megabyte-long option or name is one readable line (the rest is elided with "...").
#pragma once
#include <string>
#include <string_view>

namespace polycube {

// `s` as one line of valid UTF-8 text for a terminal: control bytes (tab aside) and bytes that
// are not part of a well-formed UTF-8 sequence become '?', so a quoted piece of a binary file
// can neither drive the terminal (ESC, BEL) nor make a message invalid text (a JSON line or a
// browser shows U+FFFD, a terminal garbage).
inline std::string printableText(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            out += (c < 0x20 && c != '\t') || c == 0x7f ? '?' : static_cast<char>(c);
            ++i;
            continue;
        }
        // A lead byte and its continuation bytes (no overlong forms, nothing past U+10FFFF).
        const size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        bool ok = n > 0 && i + n <= s.size();
        for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
        if (ok && n >= 3) {
            const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
            ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0) &&  // overlong, surrogates
                 !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);   // overlong, past U+10FFFF
        }
        if (!ok) {
            out += '?';
            ++i;
            continue;
        }
        out.append(s.substr(i, n));
        i += n;
    }
    return out;
}

inline std::string quoteText(std::string_view s, size_t max = 40) {
    if (s.size() <= max) return printableText(s);
    // Cut on a UTF-8 character boundary so the message stays valid text.
    size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return printableText(s.substr(0, cut)) + "... (" + std::to_string(s.size()) + " characters)";
}

// A file's path as every message quotes it (the CLI's, the checkpoint's, parse errors'
// source names): printable, and cut after 200 characters.
inline std::string shownPath(std::string_view path) { return quoteText(path, 200); }

}  // namespace polycube
