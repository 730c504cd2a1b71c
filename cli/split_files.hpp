// The job and result files of --split / --job / --merge (cli/jobs.hpp), written and read
// (the format: docs/file-formats.md).
//
//   JobFile job;  job.run = ...; job.job = 3; job.jobs = 8; ...
//   std::string text = encodeJob(job);                       // a whole job file
//   Result<JobFile> back = decodeJob(text, "jobs/3.job");     // refused: another format, damaged
//   writeFileAtomically(path, encodeResult(head, solutions).parts());  // a result file
//   Result<ResultFile> got = readResult(size, readAt, "jobs/3.result");
//
// Every file of a split says which split it belongs to (its run id), how many jobs the split
// has and which of them it is (a result: which job it answers, and that job's checksum), so
// that a merge knows what is missing, duplicated or foreign without trusting file names.
// A result is read without holding its solutions: readResult checks its header, its totals and
// its checksum (over the whole file, read in chunks), and says where the solutions lie in the
// file; --merge copies them from there. Errors name the file and what is wrong.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace polycube {

// A split has at most this many jobs (--split's own limit).
constexpr long long kMaxSplitJobs = 100000;
// A job file is read whole: its puzzle's definition (at most 16 MiB, the input limit) and its
// pieces (a checkpoint of at most kMaxCheckpointBytes) fit well within this.
constexpr long long kMaxJobFileBytes = 128LL << 20;

struct JobFile {
    std::string run;                 // the split's id (16 hex digits)
    long long job = 0;               // which job, 1..jobs
    long long jobs = 0;              // how many the split has
    std::string source;              // the puzzle file's name at split time
    int puzzle = 0;                  // which puzzle of it
    std::vector<std::string> words;  // the split's command line, without --split and --jobs-out
    std::string definition;          // the puzzle file's text
    std::string work;                // parallel/checkpoint.hpp text: the pieces to search
    std::string sum;                 // decodeJob: the file's checksum (results name their job by it)
};

std::string encodeJob(const JobFile& job);
Result<JobFile> decodeJob(const std::string& text, const std::string& source);

struct ResultFile {
    std::string run;               // the split's id
    long long job = 0;             // which job it answers: 1..jobs, 0 for what the splitting searched
    long long jobs = 0;            // how many the split has
    std::string jobSum;            // the job file's checksum ("split" for job 0)
    double seconds = 0;            // the job's own time, setup and search (job 0: the splitting's)
    std::string totals;            // parallel/checkpoint.hpp text: finished counts, nothing pending
    long long solutionsAt = 0;     // readResult: where the solutions' text starts in the file
    long long solutionsBytes = 0;  // ... and its length
};

// A result file in parts, as written: the header of `r`, then `solutions` (as printed,
// numbered within the job; not copied: it must outlive the parts), then the checksum line.
struct ResultText {
    std::string head;
    std::string_view solutions;
    std::string tail;
    std::vector<std::string_view> parts() const { return {head, solutions, tail}; }
    std::string whole() const { return head + std::string(solutions) + tail; }
};
ResultText encodeResult(const ResultFile& r, const std::string& solutions);
// Reads a result file of `size` bytes through `readAt` (exactly n bytes at an offset; false at
// an error or the end): its header and totals into memory, its solutions left in place
// (solutionsAt, solutionsBytes), its checksum checked over every byte. `source` names it in
// messages.
using ReadAt = std::function<bool(long long offset, size_t n, char* out)>;
Result<ResultFile> readResult(long long size, const ReadAt& readAt, const std::string& source);

}  // namespace polycube
