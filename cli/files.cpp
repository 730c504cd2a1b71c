#include "files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "puzzle/model.hpp"

namespace polycube {

bool readWholeFile(const std::string& file, size_t limit, std::string& text, std::string& error) {
    const bool isStdin = file == "-";
    const std::string name = isStdin ? "standard input" : file;
    const int fd = isStdin ? STDIN_FILENO : open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = file + ": cannot open (" + std::string(std::strerror(errno)) + ")";
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

int checkReplaceable(const std::string& path, const std::string& option, const char* kind, bool mayHoldKind,
                     std::string& why) {
    const std::string what = option + " " + path + ": ";
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
                      (std::string(kind) == kCheckpointKind ? ": go on with --resume " + path + ", or delete it to start over"
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
        why = what + tmp + " (where it is written first) is " + typeOf(st.st_mode);
        return 2;
    }
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    const bool created = fd >= 0;
    if (fd < 0 && errno == EEXIST) fd = open(tmp.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        why = what + "cannot write beside it (" + tmp + ": " + std::strerror(errno) + ")";
        return 1;
    }
    close(fd);
    if (created) unlink(tmp.c_str());
    return 0;
}

}  // namespace polycube
