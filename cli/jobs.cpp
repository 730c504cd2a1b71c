#include "jobs.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include <iomanip>
#include <nlohmann/json.hpp>

#include "common/hash.hpp"
#include "files.hpp"
#include "progress.hpp"
#include "output/format.hpp"
#include "parallel/checkpoint.hpp"
#include "parallel/parallel_search.hpp"
#include "puzzle/puzzle.hpp"
#include "solver/solver.hpp"

namespace polycube {

namespace fs = std::filesystem;

namespace {

constexpr const char* kJobMagic = "polycube-job 1";
constexpr const char* kResultMagic = "polycube-result 1";

std::string sumOf(const std::string& body) { return hex16(hashWords(body.data(), body.size(), 0x6a6f6273ULL)); }

// "<body>sum <hex>\n": the files of a split end with a checksum of everything before it.
std::string sealed(const std::string& body) { return body + "sum " + sumOf(body) + "\n"; }
bool unseal(const std::string& text, std::string& body, std::string& error) {
    const size_t at = text.rfind("sum ");
    if (at == std::string::npos || (at > 0 && text[at - 1] != '\n')) {
        error = "not complete (no checksum line: cut short?)";
        return false;
    }
    body = text.substr(0, at);
    std::istringstream tail(text.substr(at + 4));
    std::string sum, extra;
    tail >> sum;
    if (sum != sumOf(body) || (tail >> extra)) {
        error = "damaged (its checksum does not match its contents)";
        return false;
    }
    return true;
}

// A job, result or definition file, whole (up to 1 GiB; a directory or device is refused).
bool readFile(const std::string& path, std::string& text, std::string& error) {
    text.clear();
    return readWholeFile(path, size_t{1} << 30, text, error);
}

// The file's kind first, so that a checkpoint or a result given as a job (or a job as a result)
// is named as such rather than reported damaged.
bool isKind(const std::string& text, const char* kind, std::string& error) {
    const std::string there = polycubeFileKind(text);
    if (there == kind) return true;
    error = there.empty() ? std::string("not a polycube ") + kind : std::string("a ") + there + ", not a " + kind;
    return false;
}

// A length-prefixed block: "<key> <bytes>\n<bytes of text>\n".
void putBlock(std::ostringstream& os, const char* key, const std::string& text) { os << key << " " << text.size() << "\n" << text << "\n"; }
bool getBlock(std::istringstream& in, const char* key, std::string& text) {
    std::string line, k;
    long long n = -1;
    if (!std::getline(in, line)) return false;
    std::istringstream words(line);
    if (!(words >> k >> n) || k != key || n < 0 || n > (1LL << 30)) return false;
    text.assign(static_cast<size_t>(n), '\0');
    if (!in.read(&text[0], n)) return false;
    return in.get() == '\n';
}
bool getLine(std::istringstream& in, const char* key, std::string& rest) {
    std::string line;
    if (!std::getline(in, line)) return false;
    const std::string prefix = std::string(key) + " ";
    if (line.compare(0, prefix.size(), prefix) != 0) return false;
    rest = line.substr(prefix.size());
    return true;
}

struct Job {
    std::string run;      // id of the split
    std::string source;   // the puzzle file's name at split time
    int index = 0;        // puzzle in it
    std::vector<std::string> words;  // the split's command line
    std::string definition;
    std::string work;     // parallel/checkpoint.hpp text: the pieces
    std::string sum;      // the job file's checksum
};

std::string encodeJob(const Job& job) {
    std::ostringstream os;
    os << kJobMagic << "\nrun " << job.run << "\nsource " << job.source << "\nindex " << job.index << "\nwords "
       << job.words.size() << "\n";
    for (const std::string& w : job.words) putBlock(os, "word", w);
    putBlock(os, "definition", job.definition);
    putBlock(os, "work", job.work);
    return sealed(os.str());
}

bool decodeJob(const std::string& text, Job& job, std::string& error) {
    std::string body;
    if (!isKind(text, kJobKind, error) || !unseal(text, body, error)) return false;
    job.sum = sumOf(body);
    std::istringstream in(body);
    std::string line, rest;
    long long words = -1;
    if (!std::getline(in, line) || line != kJobMagic) return error = "not a polycube job file", false;
    if (!getLine(in, "run", job.run) || !getLine(in, "source", job.source)) return error = "bad header", false;
    if (!getLine(in, "index", rest) || !(std::istringstream(rest) >> job.index)) return error = "bad puzzle index", false;
    if (!getLine(in, "words", rest) || !(std::istringstream(rest) >> words) || words < 0 || words > 10000)
        return error = "bad option count", false;
    job.words.resize(static_cast<size_t>(words));
    for (std::string& w : job.words)
        if (!getBlock(in, "word", w)) return error = "bad option word", false;
    if (!getBlock(in, "definition", job.definition) || !getBlock(in, "work", job.work)) return error = "bad definition or work", false;
    return true;
}

struct JobResult {
    std::string run, job, jobSum;  // which job of which split it answers
    std::string totals;            // parallel/checkpoint.hpp text, nothing pending
    std::string solutions;         // the solutions as printed (numbered within the job)
    double seconds = 0;            // the job's own time, setup and search (the split's: its splitting)
};

std::string encodeResult(const JobResult& r) {
    std::ostringstream os;
    os << kResultMagic << "\nrun " << r.run << "\njob " << r.job << " " << r.jobSum << "\n";
    os << "seconds " << std::setprecision(9) << r.seconds << "\n";
    putBlock(os, "totals", r.totals);
    putBlock(os, "solutions", r.solutions);
    return sealed(os.str());
}

bool decodeResult(const std::string& text, JobResult& r, std::string& error) {
    std::string body, line, rest;
    if (!isKind(text, kResultKind, error) || !unseal(text, body, error)) return false;
    std::istringstream in(body);
    if (!std::getline(in, line) || line != kResultMagic) return error = "not a polycube result file", false;
    if (!getLine(in, "run", r.run) || !getLine(in, "job", rest)) return error = "bad header", false;
    std::istringstream words(rest);
    if (!(words >> r.job >> r.jobSum)) return error = "bad job line", false;
    if (!getLine(in, "seconds", rest) || !(std::istringstream(rest) >> r.seconds) || !(r.seconds >= 0 && r.seconds < 1e12))
        return error = "bad seconds line", false;
    if (!getBlock(in, "totals", r.totals) || !getBlock(in, "solutions", r.solutions)) return error = "bad totals or solutions", false;
    return true;
}

// Set up the solver for a definition and options in bounded slices.
std::unique_ptr<Solver> setUp(const PuzzleDef& def, const SolverOptions& options, std::string& error) {
    std::unique_ptr<Solver> s = Solver::begin(def, options);
    while (!s->ready() && s->step(1LL << 40) == Solver::State::Running) {
    }
    if (s->state() == Solver::State::Failed) error = s->error();
    return s;
}

// The puzzle of a job, and the options of the split with this command line's output and
// thread options (-q, -i, --json, -j, --progress) instead of the split's.
bool jobPuzzle(const Job& job, const SolverOptions& here, PuzzleDef& def, SolverOptions& options, std::string& error) {
    ParseResult parsed = parseDefinitions(job.definition, job.source);
    if (!parsed.ok() || job.index < 0 || job.index >= static_cast<int>(parsed.puzzles.size()))
        return error = "its puzzle does not parse: " + (parsed.ok() ? std::string("no puzzle ") + std::to_string(job.index) : parsed.error.format()), false;
    def = parsed.puzzles[job.index];
    const std::string source = job.source;
    OptionParse p = parseOptions(job.words, [&](const std::string& w) { return w == source; });
    if (!p.ok()) return error = "its options: " + p.error, false;
    options = p.options;
    options.quiet = here.quiet;
    options.info = here.info;
    options.json = here.json;
    options.threads = here.threads;
    options.progress = here.progress;
    options.splitJobs = 0;
    options.jobsOut.clear();
    options.checkpoint.clear();
    options.resume.clear();
    return true;
}

int threadsFor(const SolverOptions& o) {
    return o.threads > 0 ? o.threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::string stem(const fs::path& p) { return p.stem().string(); }

}  // namespace

// A split's staging directory inside DIR: .split-<run id>.tmp
const std::string kStagePrefix = ".split-";
const std::string kStageSuffix = ".tmp";

int splitIntoJobs(const OptionParse& p, const std::vector<std::string>& args) {
    if (p.options.jobsOut.empty()) return std::cerr << "polycube: --split needs --jobs-out DIR\n", 2;
    if (const std::string why = whyNotSplittable(p.options); !why.empty())
        return std::cerr << "polycube: --split: this search cannot be split (" << why << ")\n", 2;
    if (p.files.size() != 1 || p.files[0] == "-") return std::cerr << "polycube: --split takes one puzzle file\n", 2;
    std::string text, error;
    if (!readFile(p.files[0], text, error)) return std::cerr << "polycube: " << error << "\n", 1;
    ParseResult parsed = parseDefinitions(text, p.files[0]);
    if (!parsed.ok()) return std::cerr << "polycube: " << parsed.error.format() << "\n", 1;
    if (parsed.puzzles.size() != 1)
        return std::cerr << "polycube: --split takes one puzzle; " << p.files[0] << " has " << parsed.puzzles.size() << "\n", 2;
    const PuzzleDef& def = parsed.puzzles[0];
    // The directory first: a split that cannot be written is said before the splitting search.
    std::error_code ec;
    fs::create_directories(p.options.jobsOut, ec);
    if (ec) return std::cerr << "polycube: --jobs-out " << p.options.jobsOut << ": " << ec.message() << "\n", 1;
    std::vector<fs::path> stale;  // staging directories of splits stopped while writing
    for (const auto& entry : fs::directory_iterator(p.options.jobsOut, ec)) {
        const std::string name = entry.path().filename().string(), ext = entry.path().extension().string();
        if (ext == ".job" || ext == ".result")
            return std::cerr << "polycube: --jobs-out " << p.options.jobsOut << " already holds job or result files; use an empty directory\n", 2;
        if (entry.is_directory() && name.rfind(kStagePrefix, 0) == 0 && name.size() > kStageSuffix.size() &&
            name.compare(name.size() - kStageSuffix.size(), kStageSuffix.size(), kStageSuffix) == 0)
            stale.push_back(entry.path());
    }
    for (const fs::path& old : stale) fs::remove_all(old, ec);
    if (ec) return std::cerr << "polycube: --jobs-out " << p.options.jobsOut << ": " << ec.message() << "\n", 1;
    if (const int refused = checkReplaceable((fs::path(p.options.jobsOut) / "0.result").string(), "--jobs-out", kResultKind, false, error))
        return std::cerr << "polycube: " << error << "\n", refused;
    std::unique_ptr<Solver> solver = setUp(def, p.options, error);
    if (!error.empty()) return std::cerr << "polycube: " << p.files[0] << ":" << def.line << ": " << error << "\n", 1;
    auto made = ParallelSearch::create(def, p.options, 1, std::move(solver));
    if (!made.ok()) return std::cerr << "polycube: " << made.status.message << "\n", 1;
    ParallelSearch& search = *made.value;
    std::string splitSolutions;
    long long found = 0;
    search.setSolutionHandler([&](const Solution& s, long long number) {
        found = number;
        if (!p.options.quiet) splitSolutions += formatSolution(def, s.grid, number);
    });
    // Pieces: about 4 per job (each costs a FILA start), grouped into the jobs largest first
    // (each piece to the lightest job).
    std::vector<CheckpointPiece> pieces;
    double doneShare = 0;
    if (!search.splitOnly(4LL * p.options.splitJobs, pieces, doneShare))
        return std::cerr << "polycube: --split: " << (search.error().empty() ? "interrupted" : search.error()) << "\n", 1;
    const int jobs = std::max(1, std::min<int>(p.options.splitJobs, static_cast<int>(pieces.size())));
    std::vector<Checkpoint> work(static_cast<size_t>(jobs));
    std::vector<double> load(static_cast<size_t>(jobs), 0);
    for (CheckpointPiece& piece : pieces) {  // largest first already
        const size_t k = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        load[k] += piece.share;
        work[k].pending.push_back(std::move(piece));
    }
    std::vector<size_t> order(static_cast<size_t>(jobs));
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return load[a] > load[b]; });

    const std::string run = hex16(mix64(static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) ^
                                        (static_cast<uint64_t>(getpid()) << 32) ^ hashWords(text.data(), text.size(), 1)));
    std::vector<std::string> words;  // the command line without the split's own options
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--split" || a == "--jobs-out") { ++i; continue; }
        if (a.rfind("--split=", 0) == 0 || a.rfind("--jobs-out=", 0) == 0) continue;
        words.push_back(a);
    }
    const std::string fp = search.fingerprint();
    // The files are written in a staging directory inside DIR, then moved into DIR, 0.result
    // last, with Ctrl-C and SIGTERM held back meanwhile (QA: a split stopped while writing left
    // 12,541 of its jobs in DIR, which a scheduler watching it could already run, and a DIR
    // that refused the split run again). Stopped while writing, a split leaves only the staging
    // directory, which the next split into DIR removes.
    const fs::path dir(p.options.jobsOut);
    const fs::path stage = dir / (kStagePrefix + run + kStageSuffix);
    fs::create_directory(stage, ec);
    if (ec) return std::cerr << "polycube: --jobs-out " << p.options.jobsOut << ": " << ec.message() << "\n", 1;
    auto fail = [&](const std::string& message) {
        fs::remove_all(stage, ec);
        return std::cerr << "polycube: " << message << "\n", 1;
    };
    std::vector<std::string> names;
    for (size_t n = 0; n < order.size(); ++n) {
        Checkpoint& w = work[order[n]];
        w.fingerprint = fp;
        Job job{run, p.files[0], 0, words, text, encodeCheckpoint(w), ""};
        names.push_back(std::to_string(n + 1) + ".job");
        if (Status st = writeFileAtomically((stage / names.back()).string(), encodeJob(job)); !st.ok) return fail(st.message);
    }
    // What the splitting searched itself: result 0.
    Checkpoint own;
    own.fingerprint = fp;
    own.finished = search.stats();
    own.doneShare = doneShare;
    const JobResult r0{run, "0", "split", encodeCheckpoint(own), splitSolutions, own.finished.setupSeconds + own.finished.searchSeconds};
    names.push_back("0.result");
    if (Status st = writeFileAtomically((stage / names.back()).string(), encodeResult(r0)); !st.ok) return fail(st.message);
    sigset_t hold, before;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &hold, &before);
    for (const std::string& name : names) {
        fs::rename(stage / name, dir / name, ec);
        if (ec) {
            pthread_sigmask(SIG_SETMASK, &before, nullptr);
            return std::cerr << "polycube: --jobs-out " << p.options.jobsOut << ": moving " << name << " in: " << ec.message() << "\n", 1;
        }
    }
    fs::remove(stage, ec);
    if (pieces.empty())  // (a small or impossible puzzle: the steps that follow work the same)
        std::cerr << "polycube: the whole search ended while splitting (" << found << " solution" << (found == 1 ? "" : "s")
                  << ": 0.result); " << p.options.jobsOut << "/1.job has nothing left to search\n";
    else
        std::cerr << "polycube: " << jobs << " job file" << (jobs == 1 ? "" : "s") << " in " << p.options.jobsOut << " (" << pieces.size()
                  << " pieces; splitting found " << found << " solution" << (found == 1 ? "" : "s") << ": 0.result)\n";
    std::cerr.flush();
    pthread_sigmask(SIG_SETMASK, &before, nullptr);  // (a signal held back ends the process now: the split is whole)
    return 0;
}

// Where a job's result goes: beside it, NAME.job -> NAME.result; any other name gets
// ".result" added, so that the result can never be written over the job itself.
std::string resultPathOf(const std::string& jobPath) {
    const std::string ext = ".job";
    if (jobPath.size() > ext.size() && jobPath.compare(jobPath.size() - ext.size(), ext.size(), ext) == 0)
        return jobPath.substr(0, jobPath.size() - ext.size()) + ".result";
    return jobPath + ".result";
}

int runJob(const OptionParse& p) {
    const auto began = std::chrono::steady_clock::now();
    std::string text, error;
    Job job;
    if (!readFile(p.options.job, text, error) || !decodeJob(text, job, error))
        return std::cerr << "polycube: --job " << p.options.job << ": " << error << "\n", 1;
    const std::string out = resultPathOf(p.options.job);
    if (const int refused = checkReplaceable(out, "--job " + p.options.job + ": its result", kResultKind, true, error))
        return std::cerr << "polycube: " << error << "\n", refused;
    PuzzleDef def;
    SolverOptions options;
    if (!jobPuzzle(job, p.options, def, options, error)) return std::cerr << "polycube: --job " << p.options.job << ": " << error << "\n", 1;
    std::unique_ptr<Solver> solver = setUp(def, options, error);
    if (!error.empty()) return std::cerr << "polycube: --job " << p.options.job << ": " << error << "\n", 1;
    Result<Checkpoint> work = decodeCheckpoint(job.work, searchFingerprint(*solver), p.options.job);
    if (!work.ok())
        return std::cerr << "polycube: --job: " << work.status.message << "\n", 1;  // another build or configuration
    auto made = ParallelSearch::create(def, options, threadsFor(options), std::move(solver), &work.value);
    if (!made.ok()) return std::cerr << "polycube: " << made.status.message << "\n", 1;
    ParallelSearch& search = *made.value;
    if (!search.threadCapNote().empty()) std::cerr << "polycube: --job " << p.options.job << ": " << search.threadCapNote() << "\n";
    std::string solutions;
    search.setSolutionHandler([&](const Solution& s, long long number) {
        if (!options.quiet) solutions += formatSolution(def, s.grid, number);
    });
    Checkpoint last;
    bool checkpointed = false;
    search.setCheckpointHandler([&](const Checkpoint& ck) { last = ck, checkpointed = true; }, 3600);
    // --progress (or standard error a terminal): how far this job's pieces are (QA: listed
    // among a job's options, it showed nothing)
    ProgressReporter reporter(isatty(STDERR_FILENO) != 0, "polycube: --job " + p.options.job + ": ", work.value.doneShare, true);
    if (options.progress || isatty(STDERR_FILENO))
        search.setProgressHandler([&](double f, long long n) { reporter.report(f, n); }, progressSeconds());
    const Solver::State ended = search.run();
    reporter.finish();
    if (ended != Solver::State::Done || !search.error().empty())
        return std::cerr << "polycube: --job " << p.options.job << ": " << (search.error().empty() ? "interrupted" : search.error()) << "\n", 1;
    if (!checkpointed) {
        // A puzzle proved impossible in the setup is not searched in pieces (ParallelSearch: no
        // checkpoints): its pieces are done, with nothing found. (QA: the result had an empty
        // fingerprint, which --merge refused.)
        last.fingerprint = search.fingerprint();
        last.finished = search.stats();
        last.doneShare = work.value.doneShare;
        for (const CheckpointPiece& piece : work.value.pending) last.doneShare += piece.share;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    const JobResult r{job.run, stem(p.options.job), job.sum, encodeCheckpoint(last), solutions, seconds};
    if (Status st = writeFileAtomically(out, encodeResult(r)); !st.ok) return std::cerr << "polycube: " << st.message << "\n", 1;
    return 0;
}

int mergeJobs(const OptionParse& p) {
    const std::string dir = p.options.merge;
    std::map<long long, Job> jobs;
    std::map<long long, std::vector<std::string>> resultFiles;  // job -> files answering it
    std::map<long long, JobResult> results;
    std::vector<std::string> problems;
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec)) files.push_back(entry.path());
    if (ec) return std::cerr << "polycube: --merge " << dir << ": " << ec.message() << "\n", 1;
    std::sort(files.begin(), files.end());
    std::string run, error, text;
    for (const fs::path& f : files) {
        if (f.extension() != ".job") continue;
        Job job;
        if (!readFile(f.string(), text, error) || !decodeJob(text, job, error)) {
            problems.push_back(f.string() + ": " + error);
            continue;
        }
        long long id = -1;
        if (!(std::istringstream(stem(f)) >> id) || id < 1) {
            problems.push_back(f.string() + ": not named <number>.job");
            continue;
        }
        if (run.empty()) run = job.run;
        if (job.run != run) problems.push_back(f.string() + ": a job of another split (run " + job.run + ", not " + run + ")");
        else jobs[id] = std::move(job);
    }
    if (jobs.empty()) return std::cerr << "polycube: --merge " << dir << ": no job files (*.job)\n", 1;
    for (const fs::path& f : files) {
        if (f.extension() != ".result") continue;
        JobResult r;
        if (!readFile(f.string(), text, error) || !decodeResult(text, r, error)) {
            problems.push_back(f.string() + ": " + error);
            continue;
        }
        long long id = -1;
        std::istringstream(r.job) >> id;
        if (r.run != run) {
            problems.push_back(f.string() + ": a result of another split (run " + r.run + ")");
            continue;
        }
        if (id != 0 && (!jobs.count(id) || jobs[id].sum != r.jobSum)) {
            problems.push_back(f.string() + ": answers job " + r.job + ", which is not in " + dir + " as it was searched");
            continue;
        }
        resultFiles[id].push_back(f.filename().string());
        results[id] = std::move(r);
    }
    for (auto& [id, names] : resultFiles)
        if (names.size() > 1) {
            std::string list;
            for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
            problems.push_back("job " + std::to_string(id) + " has " + std::to_string(names.size()) + " results: " + list);
        }
    if (!results.count(0)) problems.push_back("0.result (what the splitting searched) is missing");
    for (const auto& [id, job] : jobs)
        if (!results.count(id)) problems.push_back("job " + std::to_string(id) + " (" + std::to_string(id) + ".job) has no result: run polycube --job on it");
    if (!problems.empty()) {
        for (const std::string& m : problems) std::cerr << "polycube: --merge: " << m << "\n";
        return 1;
    }
    // One search's output: its solutions numbered on, the statistics summed.
    const Job& first = jobs.begin()->second;
    PuzzleDef def;
    SolverOptions options;
    if (!jobPuzzle(first, p.options, def, options, error)) return std::cerr << "polycube: --merge: " << error << "\n", 1;
    std::unique_ptr<Solver> solver = setUp(def, options, error);
    if (!error.empty()) return std::cerr << "polycube: --merge: " << error << "\n", 1;
    const std::string fp = searchFingerprint(*solver);
    SolverStats total;
    double jobSeconds = 0;                      // the jobs' own times, summed (machine time, not a wall time)
    std::vector<std::string> withoutSolutions;  // results made with -q
    for (const auto& [id, r] : results) {
        Result<Checkpoint> ck = decodeCheckpoint(r.totals, fp, dir + "/" + std::to_string(id) + ".result");
        if (!ck.ok()) return std::cerr << "polycube: --merge: " << ck.status.message << "\n", 1;
        total.add(ck.value.finished);
        jobSeconds += r.seconds;
        if (ck.value.finished.solutions > 0 && r.solutions.empty()) withoutSolutions.push_back(std::to_string(id) + ".result");
    }
    // Printing the solutions of some jobs under the total of all would pass a part for the
    // whole: without -q every result must hold its solutions.
    if (!options.quiet && !withoutSolutions.empty()) {
        std::string list;
        for (size_t k = 0; k < withoutSolutions.size() && k < 5; ++k) list += (k ? ", " : "") + withoutSolutions[k];
        if (withoutSolutions.size() > 5) list += " and " + std::to_string(withoutSolutions.size() - 5) + " more";
        return std::cerr << "polycube: --merge " << dir << ": " << list << (withoutSolutions.size() == 1 ? " was" : " were")
                         << " made with -q (solutions counted, not kept): merge with -q for the totals, or run "
                         << (withoutSolutions.size() == 1 ? "that job" : "those jobs") << " again without -q\n",
               1;
    }
    long long number = 0;
    for (const auto& [id, r] : results) {
        if (!options.quiet) {  // renumber "# --- SOLUTION n ---" in merge order
            std::istringstream in(r.solutions);
            std::string line;
            while (std::getline(in, line)) {
                if (line.rfind("# --- SOLUTION ", 0) == 0) line = "# --- SOLUTION " + std::to_string(++number) + " ---";
                std::cout << line << "\n";
            }
        }
    }
    // Times (QA: they read 0, as if measured): the jobs ran apart, so there is no wall time of
    // the whole; what the results record is each job's own, summed here as the search's seconds.
    total.setupSeconds = 0;
    total.searchSeconds = jobSeconds;
    if (options.info)
        std::cout << formatInfo(*solver) << formatStatistics(*solver, total) << "\n# --merge: the seconds are the "
                  << results.size() << " results' own (the split and each job), summed: machine time, not the wall time of a run\n"
                  << "JOBS=" << jobs.size() << "\n";
    if (options.json) {
        nlohmann::json j = nlohmann::json::parse(summaryJson(*solver, total, first.source, first.index, "done"));
        j["seconds"] = nullptr;  // no wall time of the whole
        j["searchSeconds"] = nullptr;
        j["setupSeconds"] = nullptr;
        j["jobSeconds"] = jobSeconds;
        j["jobs"] = jobs.size();
        std::cout << j.dump() << "\n";
    }
    std::cout.flush();
    return std::cout.good() ? 0 : 1;
}

}  // namespace polycube
