#include "files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "puzzle/model.hpp"

namespace polycube {

bool readWholeFile(const std::string& file, size_t limit, std::string& text, std::string& error) {
    if (file.empty()) {
        error = "'': the file name is empty";
        return false;
    }
    const bool isStdin = file == "-";
    const std::string name = isStdin ? "standard input" : shownPath(file);
    const int fd = isStdin ? STDIN_FILENO : open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = name + ": cannot open (" + std::string(std::strerror(errno)) + ")";
        return false;
    }
    struct stat st {};
    bool ok = true;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        error = name + " is a directory, not a file";
        ok = false;
    }
    char buf[1 << 16];
    while (ok) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;  // a signal: the CLI's handler has exited if it was its own
            error = name + ": cannot read (" + std::string(std::strerror(errno)) + ")";
            ok = false;
            break;
        }
        if (text.size() + static_cast<size_t>(n) > limit) {
            error = name + ": input is more than the limit of " + std::to_string(limit) + " bytes (" +
                    formatBytes(static_cast<long long>(limit)) + ")";
            ok = false;
            break;
        }
        text.append(buf, static_cast<size_t>(n));
    }
    if (!isStdin) close(fd);
    return ok;
}

std::string polycubeFileKind(const std::string& text) {
    // The first lines written by parallel/checkpoint.cpp and cli/jobs.cpp.
    auto startsWith = [&](const char* magic) { return text.compare(0, std::strlen(magic), magic) == 0; };
    if (startsWith("polycube-checkpoint ")) return kCheckpointKind;
    if (startsWith("polycube-job ")) return kJobKind;
    if (startsWith("polycube-result ")) return kResultKind;
    return "";
}

namespace {

// "a job file of --split, not a checkpoint: run it with --job": what a file of one kind given
// for another is, and what to do with it.
std::string wrongKind(const std::string& there, const char* kind) {
    const std::string what = there == kCheckpointKind ? "a checkpoint"
                             : there == kJobKind      ? "a job file of --split"
                                                      : "a result file of --job";
    const char* use = there == kCheckpointKind ? "go on with it with --resume"
                      : there == kJobKind      ? "run it with --job"
                                               : "merge it with --merge";
    return what + ", not a " + kind + ": " + use;
}

const char* typeOf(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// The first bytes of a regular file (enough for its first line's magic).
std::string headOf(const std::string& path) {
    std::string head;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return head;
    char buf[64];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) head.assign(buf, static_cast<size_t>(n));
    close(fd);
    return head;
}

}  // namespace

OwnFile::~OwnFile() {
    if (fd_ >= 0) close(fd_);
}

bool OwnFile::open(const std::string& path, const char* kind, std::string& error) {
    path_ = path;
    const std::string name = shownPath(path);
    if (path.empty()) return error = "'': the file name is empty", false;
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) return error = name + ": cannot open (" + std::strerror(errno) + ")", false;
    struct stat st {};
    if (fstat(fd_, &st) != 0) return error = name + ": " + std::strerror(errno), false;
    if (!S_ISREG(st.st_mode))
        return error = name + ": it is " + typeOf(st.st_mode) + ", not a regular file (a " + kind + " is one)", false;
    const int flags = fcntl(fd_, F_GETFL);  // (reads of a regular file never block: tidiness only)
    if (flags >= 0) fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    size_ = static_cast<long long>(st.st_size);
    if (size_ == 0) return error = name + ": the file is empty (no " + kind + " in it)", false;
    char head[64];
    const size_t n = static_cast<size_t>(std::min<long long>(size_, sizeof head));
    if (!readAt(0, n, head)) return error = name + ": cannot read (" + std::strerror(errno ? errno : EIO) + ")", false;
    const std::string there = polycubeFileKind(std::string(head, n));
    if (there != kind) return error = name + ": " + (there.empty() ? std::string("not a polycube ") + kind : wrongKind(there, kind)), false;
    return true;
}

bool OwnFile::readAll(long long limit, std::string& text, std::string& error) {
    const std::string name = shownPath(path_);
    if (size_ > limit)
        return error = name + ": " + formatBytes(size_) + " (" + std::to_string(size_) + " bytes), more than the limit of " +
                       formatBytes(limit) + " for a file of its kind",
               false;
    try {
        text.assign(static_cast<size_t>(size_), '\0');
    } catch (const std::bad_alloc&) {
        text = std::string();
        return error = name + ": not enough memory to read its " + formatBytes(size_), false;
    }
    if (!readAt(0, text.size(), &text[0])) {
        text = std::string();
        return error = name + ": cannot read it whole (" + std::strerror(errno ? errno : EIO) + "; cut short while read?)", false;
    }
    return true;
}

bool OwnFile::readAt(long long offset, size_t n, char* out) const {
    errno = 0;
    while (n > 0) {
        const ssize_t got = pread(fd_, out, n, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        out += got, n -= static_cast<size_t>(got), offset += got;
    }
    return true;
}

int checkReplaceable(const std::string& path, const std::string& option, const char* kind, bool mayHoldKind,
                     std::string& why) {
    const std::string what = option + " " + shownPath(path) + ": ";
    if (path.empty()) return why = option + " '': the file name is empty", 2;
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            why = what + "it is " + typeOf(st.st_mode) + ", which the " + kind +
                  " would replace (it is written beside it, then renamed over it): give the name of a regular file";
            return 2;
        }
        if (st.st_size > 0) {
            const std::string there = polycubeFileKind(headOf(path));
            if (there != kind) {
                why = what + "the file exists and is not a " + kind +
                      (there.empty() ? std::string() : " (it is a " + there + ")") + ": not overwritten";
                return 2;
            }
            if (!mayHoldKind) {
                why = what + "the file holds a " + kind + " already" +
                      (std::string(kind) == kCheckpointKind ? ": go on with --resume " + shownPath(path) + ", or delete it to start over"
                                                            : ": delete it first");
                return 2;
            }
        }
    } else if (errno != ENOENT) {
        why = what + std::strerror(errno);
        return 1;
    }
    // Can it be written beside? (writeFileAtomically's path.tmp; a stale one from a run that
    // was killed is reused.)
    const std::string tmp = path + ".tmp";
    if (lstat(tmp.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        why = what + shownPath(tmp) + " (where it is written first) is " + typeOf(st.st_mode);
        return 2;
    }
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    const bool created = fd >= 0;
    if (fd < 0 && errno == EEXIST) fd = open(tmp.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        why = what + "cannot write beside it (" + shownPath(tmp) + ": " + std::strerror(errno) + ")";
        return 1;
    }
    close(fd);
    if (created) unlink(tmp.c_str());
    return 0;
}

}  // namespace polycube
