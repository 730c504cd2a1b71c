// --resume FILE: the checkpoint read (bounded, a regular file of its kind: cli/files.hpp) and,
// without a puzzle file, the puzzle and search options it holds (format 2) made the run's.
// Shared by a resumed search (main.cpp) and a split of a checkpoint's pieces (jobs.cpp).
//
//   std::string text;
//   std::optional<CheckpointOrigin> origin;
//   if (int st = readResume(p.options.resume, text)) return st;          // said on stderr
//   if (p.files.empty()) if (int st = adoptOrigin(p, text, origin)) return st;
#pragma once
#include <optional>
#include <string>

#include "parallel/checkpoint.hpp"
#include "solver/options.hpp"

namespace polycube {

// The checkpoint's text: 0, or the exit status (1) with the reason said.
int readResume(const std::string& path, std::string& text);

// A format 2 checkpoint's origin made the run's: its search options with the command line's
// output, thread and file options (a search option given as well is refused, exit 2: it could
// only make another search). `origin` stays empty for a format 1 file (no puzzle in it). 0, or
// the exit status with the reason said.
int adoptOrigin(OptionParse& p, const std::string& text, std::optional<CheckpointOrigin>& origin);

}  // namespace polycube
