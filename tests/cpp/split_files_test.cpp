// The job and result files of --split / --job / --merge (cli/split_files.hpp): what is
// written is read back whole; any cut or changed byte is refused with a message naming the
// file; a result's solutions are left in the file, located exactly, over any number of chunks.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "../../cli/split_files.hpp"

using namespace polycube;

namespace {

JobFile sampleJob() {
    JobFile j;
    j.run = "0123456789abcdef";
    j.job = 3;
    j.jobs = 8;
    j.source = "puzzles/soma\ncube.txt";  // a newline in a name stays inside its block
    j.puzzle = 1;
    j.words = {"-q", "-r", "", "puzzles/soma\ncube.txt"};
    j.definition = "D:xDim=1:yDim=1:zDim=1\nC:name=A:layout=0 0 0\n~D\n";
    j.work = "polycube-checkpoint 1\nsum of nothing\n";
    return j;
}

ResultFile sampleResult() {
    ResultFile r;
    r.run = "0123456789abcdef";
    r.job = 3;
    r.jobs = 8;
    r.jobSum = "fedcba9876543210";
    r.seconds = 1.25;
    r.totals = "polycube-checkpoint 1\nthe totals\n";
    return r;
}

// Both kinds say which split they are of and which of its jobs.
template <class File>
void expectJob3Of8(const File& f) {
    EXPECT_EQ(f.run, "0123456789abcdef");
    EXPECT_EQ(f.job, 3);
    EXPECT_EQ(f.jobs, 8);
}

Result<ResultFile> readText(const std::string& text) {
    return readResult(
        static_cast<long long>(text.size()),
        [&](long long at, size_t n, char* out) {
            if (at < 0 || static_cast<size_t>(at) + n > text.size()) return false;
            std::memcpy(out, text.data() + at, n);
            return true;
        },
        "jobs/3.result");
}

}  // namespace

TEST(SplitFiles, JobRoundTrip) {
    const JobFile j = sampleJob();
    const std::string text = encodeJob(j);
    ASSERT_EQ(text.rfind("polycube-job 2\n", 0), 0u);
    Result<JobFile> back = decodeJob(text, "jobs/3.job");
    ASSERT_TRUE(back.ok()) << back.status.message;
    expectJob3Of8(back.value);
    EXPECT_EQ(back.value.source, j.source);
    EXPECT_EQ(back.value.puzzle, 1);
    EXPECT_EQ(back.value.words, j.words);
    EXPECT_EQ(back.value.definition, j.definition);
    EXPECT_EQ(back.value.work, j.work);
    EXPECT_EQ(back.value.sum.size(), 16u);
}

TEST(SplitFiles, ResultRoundTripLeavesTheSolutionsInPlace) {
    // Solutions over several 64 KiB chunks, the parts' boundaries anywhere in them.
    std::string solutions;
    for (int k = 1; solutions.size() < 200000; ++k) solutions += "# --- SOLUTION " + std::to_string(k) + " ---\nA B C\n\n";
    const ResultFile r = sampleResult();
    const ResultText t = encodeResult(r, solutions);
    const std::string text = t.whole();
    Result<ResultFile> back = readText(text);
    ASSERT_TRUE(back.ok()) << back.status.message;
    expectJob3Of8(back.value);
    EXPECT_EQ(back.value.jobSum, r.jobSum);
    EXPECT_DOUBLE_EQ(back.value.seconds, 1.25);
    EXPECT_EQ(back.value.totals, r.totals);
    EXPECT_EQ(text.substr(static_cast<size_t>(back.value.solutionsAt), static_cast<size_t>(back.value.solutionsBytes)), solutions);
    // The split's own result: job 0, "split" for a job checksum; no solutions (-q).
    ResultFile own = r;
    own.job = 0;
    own.jobSum = "split";
    Result<ResultFile> zero = readText(encodeResult(own, "").whole());
    ASSERT_TRUE(zero.ok()) << zero.status.message;
    EXPECT_EQ(zero.value.job, 0);
    EXPECT_EQ(zero.value.solutionsBytes, 0);
}

TEST(SplitFiles, EveryCutOrChangedByteIsRefused) {
    const std::string job = encodeJob(sampleJob());
    const std::string result = encodeResult(sampleResult(), "# --- SOLUTION 1 ---\nA\n\n").whole();
    for (size_t n = 0; n < job.size(); ++n) {
        Result<JobFile> r = decodeJob(job.substr(0, n), "jobs/3.job");
        EXPECT_FALSE(r.ok()) << "job cut to " << n << " bytes";
        EXPECT_EQ(r.status.message.rfind("jobs/3.job: ", 0), 0u) << r.status.message;
    }
    for (size_t n = 0; n < result.size(); ++n) {
        Result<ResultFile> r = readText(result.substr(0, n));
        EXPECT_FALSE(r.ok()) << "result cut to " << n << " bytes";
        EXPECT_EQ(r.status.message.rfind("jobs/3.result: ", 0), 0u) << r.status.message;
    }
    for (size_t at = 0; at < job.size(); ++at) {
        std::string changed = job;
        changed[at] ^= 0x20;
        EXPECT_FALSE(decodeJob(changed, "j").ok()) << "job byte " << at << " changed";
    }
    for (size_t at = 0; at < result.size(); ++at) {
        std::string changed = result;
        changed[at] ^= 0x20;
        EXPECT_FALSE(readText(changed).ok()) << "result byte " << at << " changed";
    }
    EXPECT_NE(readText(result + "more").status.message.find("damaged (4 bytes after the end its header gives"), std::string::npos);
}

TEST(SplitFiles, OtherFormatsAndKindsAreNamed) {
    std::string job = encodeJob(sampleJob());
    job.replace(0, 14, "polycube-job 1");
    EXPECT_NE(decodeJob(job, "old.job").status.message.find("old.job: job file format '1', but this polycube reads format 2"),
              std::string::npos);
    EXPECT_NE(decodeJob("hello\n", "x.job").status.message.find("x.job: not a polycube job file"), std::string::npos);
    EXPECT_NE(readText("polycube-job 2\n").status.message.find("not a polycube result file"), std::string::npos);
    // A job number outside the split, a job count of none: refused before the checksum is trusted.
    ResultFile r = sampleResult();
    r.job = 9;
    EXPECT_NE(readText(encodeResult(r, "").whole()).status.message.find("expected 'job <k> of <n>"), std::string::npos);
    JobFile j = sampleJob();
    j.jobs = 0;
    EXPECT_NE(decodeJob(encodeJob(j), "j").status.message.find("expected 'job <k> of <n>'"), std::string::npos);
}
