// The command line's words read (cli/main.cpp's first step): the options parsed, --help and
// --version answered, the options that cannot go together refused (exit 2) with the reason.
//
//   OptionParse p;
//   if (const int ended = readCommandLine(args, p); ended >= 0) return ended;   // else go on
#pragma once
#include <string>
#include <vector>

#include "solver/options.hpp"

namespace polycube {

// The options, or the exit status when the run ends here (a usage error, --help, --version):
// -1 to go on.
int readCommandLine(const std::vector<std::string>& args, OptionParse& p);

// Writes that failed (a full disk, a closed pipe with SIGPIPE ignored) are an error: the
// output is the result. errno of the failing write, when known.
bool outputFailed(std::string& why);

}  // namespace polycube
