// The files the command line reads (definitions; its own checkpoints, job and result files)
// and the ones it writes for itself (checkpoints, job and result files: written beside, then
// renamed over, by writeFileAtomically).
//
//   std::string text, error;
//   if (!readWholeFile("puzzle.txt", 16 << 20, text, error)) ...    // error names the file
//   OwnFile f;
//   if (!f.open("run.ck", kCheckpointKind, error)) ...              // a regular file of that kind
//   if (!f.readAll(kMaxCheckpointBytes, text, error)) ...           // bounded
//   shownPath(path)                  // (common/text.hpp) a path as messages quote it
//   std::string why;
//   int status = checkReplaceable("run.ck", "--checkpoint", kCheckpointKind, false, why);
//
// checkReplaceable runs before any search, so that a run never ends, minutes later, unable to
// keep what it found, and never replaces what is not its own: a device (/dev/null), a FIFO,
// a symbolic link, a directory, or a file of another kind (a puzzle definition given by
// mistake).
#pragma once
#include <string>

#include "common/text.hpp"

namespace polycube {

inline constexpr const char* kCheckpointKind = "checkpoint";
inline constexpr const char* kJobKind = "job file";
inline constexpr const char* kResultKind = "result file";

// Reads a whole file ("-": standard input) in 64 KB chunks, stopping as soon as it passes
// `limit` bytes: /dev/zero or an endless pipe is refused at once instead of being read
// without bound. Directories, an empty name and read errors are messages, never exceptions.
bool readWholeFile(const std::string& file, size_t limit, std::string& text, std::string& error);

// Which of the command line's own files `text` is, from its first line (kCheckpointKind,
// kJobKind, kResultKind), or "" for none of them.
std::string polycubeFileKind(const std::string& text);

// One of the command line's own files, opened for reading and checked before anything is read
// whole: a regular file (opened with O_NONBLOCK, so that a FIFO never blocks the open, then
// fstat on the opened descriptor: a FIFO, device, socket or directory is refused, named), not
// empty, whose first line is its kind's (read from the first 64 bytes: another file, however
// large, is refused at once). Messages start with the path (shownPath).
class OwnFile {
public:
    OwnFile() = default;
    OwnFile(const OwnFile&) = delete;
    OwnFile& operator=(const OwnFile&) = delete;
    ~OwnFile();
    bool open(const std::string& path, const char* kind, std::string& error);
    // The whole file, refused when it is over `limit` bytes (a limit of its kind: said with
    // the size and the limit) or when its memory cannot be had.
    bool readAll(long long limit, std::string& text, std::string& error);
    // Exactly `n` bytes at `offset` (false at a read error or the end of the file).
    bool readAt(long long offset, size_t n, char* out) const;
    long long size() const { return size_; }
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    long long size_ = 0;
    std::string path_;
};

// May `path` become a file of `kind`? Yes when it does not exist or is an empty regular file,
// or (`mayHoldKind`) a regular file of that kind already; and a file can be written beside it
// (path.tmp). Returns 0, or the exit status with `why` filled: 2 when the path is not one to
// write over (refused), 1 when it cannot be written (the directory is missing or read-only).
// `option` starts the message ("--checkpoint").
int checkReplaceable(const std::string& path, const std::string& option, const char* kind, bool mayHoldKind,
                     std::string& why);

}  // namespace polycube
