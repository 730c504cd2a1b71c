// The files the command line reads whole (definitions, checkpoints, job and result files) and
// the ones it writes for itself (checkpoints, job and result files: written beside, then
// renamed over, by writeFileAtomically).
//
//   std::string text, error;
//   if (!readWholeFile("run.ck", 1 << 30, text, error)) ...          // error names the file
//   polycubeFileKind(text)                                          // "checkpoint", "job file", ...
//   std::string why;
//   int status = checkReplaceable("run.ck", "--checkpoint", kCheckpointKind, false, why);
//
// checkReplaceable runs before any search, so that a run never ends, minutes later, unable to
// keep what it found, and never replaces what is not its own: a device (/dev/null), a FIFO,
// a symbolic link, a directory, or a file of another kind (a puzzle definition given by
// mistake).
#pragma once
#include <string>

namespace polycube {

inline constexpr const char* kCheckpointKind = "checkpoint";
inline constexpr const char* kJobKind = "job file";
inline constexpr const char* kResultKind = "result file";

// Reads a whole file ("-": standard input) in 64 KB chunks, stopping as soon as it passes
// `limit` bytes: /dev/zero or an endless pipe is refused at once instead of being read
// without bound. Directories and read errors are messages, never exceptions.
bool readWholeFile(const std::string& file, size_t limit, std::string& text, std::string& error);

// Which of the command line's own files `text` is, from its first line (kCheckpointKind,
// kJobKind, kResultKind), or "" for none of them.
std::string polycubeFileKind(const std::string& text);

// May `path` become a file of `kind`? Yes when it does not exist or is an empty regular file,
// or (`mayHoldKind`) a regular file of that kind already; and a file can be written beside it
// (path.tmp). Returns 0, or the exit status with `why` filled: 2 when the path is not one to
// write over (refused), 1 when it cannot be written (the directory is missing or read-only).
// `option` starts the message ("--checkpoint").
int checkReplaceable(const std::string& path, const std::string& option, const char* kind, bool mayHoldKind,
                     std::string& why);

}  // namespace polycube
