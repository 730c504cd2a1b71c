#include "resume.hpp"

#include <algorithm>
#include <iostream>
#include <vector>

#include "files.hpp"

namespace polycube {

int readResume(const std::string& path, std::string& text) {
    // Said before the puzzle is set up: a FIFO or device, an empty file (not a fresh start: the
    // run would begin again silently), a file of another kind, one too large.
    OwnFile f;
    std::string why;
    if (!f.open(path, kCheckpointKind, why) || !f.readAll(kMaxCheckpointBytes, text, why)) {
        std::cerr << "polycube: --resume " << why << "\n";
        return 1;
    }
    return 0;
}

int adoptOrigin(OptionParse& p, const std::string& text, std::optional<CheckpointOrigin>& origin) {
    const std::string name = shownPath(p.options.resume);
    Result<Checkpoint> ck = readCheckpoint(text, name);
    if (!ck.ok()) {
        std::cerr << "polycube: " << ck.status.message << "\n";
        return 1;
    }
    if (!ck.value.origin) return 0;
    const CheckpointOrigin& held = *ck.value.origin;
    const std::vector<OptionRule> rules = optionRules();
    for (const std::string& given : p.given) {
        const auto rule = std::find_if(rules.begin(), rules.end(), [&](const OptionRule& r) { return r.longName == given; });
        // --no-orbits picks the tree, not the solutions: it may be given, so that a file of an
        // all-solutions search made before the orbit listing (its options say nothing of it)
        // can be resumed on the enumerating search it was (the fingerprint then decides).
        if (given == "no-orbits") continue;
        if (rule != rules.end() && rule->scope == OptionScope::Search) {
            std::cerr << "polycube: --resume " << name << " holds its puzzle and its search options ('" << quoteText(held.options)
                      << "'): --" << given << " cannot be given with it (give the puzzle file too to resume with options of your own: "
                      << "they must make the same search)\n";
            return 2;
        }
    }
    // The file's search options, then every option of the command line that is not a search
    // option (output, threads, files of its own), read as one command line: what the file and
    // the command line each decide is taken by scope, so an option added later is carried too.
    std::string splitError;
    std::vector<std::string> args = splitWords(held.options, &splitError);
    const std::vector<std::string> own = optionArguments(p, [](OptionScope scope) { return scope != OptionScope::Search; });
    args.insert(args.end(), own.begin(), own.end());
    if (!p.options.orbits) args.push_back("--no-orbits");
    const OptionParse combined = parseOptions(args, [](const std::string&) { return false; });
    if (!splitError.empty() || !combined.ok()) {  // (readCheckpoint refuses options that do not parse)
        std::cerr << "polycube: " << name << ": its options with the command line's: " << (splitError.empty() ? combined.error : splitError) << "\n";
        return 1;
    }
    p.options = combined.options;
    origin = held;
    return 0;
}

}  // namespace polycube
