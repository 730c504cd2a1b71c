#include "jobs.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include <iomanip>
#include <nlohmann/json.hpp>

#include "common/hash.hpp"
#include "files.hpp"
#include "split_files.hpp"
#include "progress.hpp"
#include "resume.hpp"
#include "stopping.hpp"
#include "output/format.hpp"
#include "parallel/checkpoint.hpp"
#include "parallel/parallel_search.hpp"
#include "puzzle/puzzle.hpp"
#include "solver/solver.hpp"

namespace polycube {

namespace fs = std::filesystem;

namespace {

// A job file, read whole (a regular file of its kind, bounded: cli/files.hpp).
Result<JobFile> readJob(const std::string& path) {
    OwnFile f;
    std::string text, error;
    if (!f.open(path, kJobKind, error) || !f.readAll(kMaxJobFileBytes, text, error)) return Result<JobFile>::error(error);
    return decodeJob(text, shownPath(path));
}

// A result file's header and totals; its solutions stay in the file (copySolutions).
Result<ResultFile> readResultFile(const OwnFile& f) {
    return readResult(f.size(), [&](long long at, size_t n, char* out) { return f.readAt(at, n, out); }, shownPath(f.path()));
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
bool jobPuzzle(const JobFile& job, const SolverOptions& here, PuzzleDef& def, SolverOptions& options, std::string& error) {
    ParseResult parsed = parseDefinitions(job.definition, job.source);
    if (!parsed.ok() || job.puzzle < 0 || job.puzzle >= static_cast<int>(parsed.puzzles.size()))
        return error = "its puzzle does not parse: " + (parsed.ok() ? std::string("no puzzle ") + std::to_string(job.puzzle) : parsed.error.format()), false;
    def = parsed.puzzles[static_cast<size_t>(job.puzzle)];
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

}  // namespace

// A split's staging directory inside DIR: .split-<run id>.tmp
const std::string kStagePrefix = ".split-";
const std::string kStageSuffix = ".tmp";

int splitIntoJobs(const OptionParse& given, const std::vector<std::string>& args) {
    OptionParse p = given;
    if (p.options.jobsOut.empty()) return std::cerr << "polycube: --split needs --jobs-out DIR\n", 2;
    // --resume FILE: the pieces a checkpoint has left, split among the jobs (its puzzle and
    // search options, or the puzzle file's and this command line's).
    std::string resumeText;
    std::optional<CheckpointOrigin> origin;
    if (!p.options.resume.empty()) {
        if (const int refused = readResume(p.options.resume, resumeText)) return refused;
        if (p.files.empty())
            if (const int refused = adoptOrigin(p, resumeText, origin)) return refused;
    }
    if (const std::string why = whyNotSplittable(p.options); !why.empty())
        return std::cerr << "polycube: --split: this search cannot be split (" << why << ")\n", 2;
    if (!origin && (p.files.size() != 1 || p.files[0] == "-"))
        return std::cerr << "polycube: --split takes one puzzle file (or --resume FILE, a checkpoint that holds its puzzle)\n", 2;
    const std::string source = origin ? origin->source : p.files[0];
    std::string text = origin ? origin->definition : std::string(), error;
    if (!origin && !readWholeFile(p.files[0], ParseLimits{}.maxInputBytes, text, error)) return std::cerr << "polycube: " << error << "\n", 1;
    ParseResult parsed = parseDefinitions(text, source);
    if (!parsed.ok()) return std::cerr << "polycube: " << parsed.error.format() << "\n", 1;
    const size_t index = origin ? static_cast<size_t>(origin->puzzle) : 0;
    if (origin ? index >= parsed.puzzles.size() : parsed.puzzles.size() != 1)
        return std::cerr << "polycube: --split takes one puzzle; " << shownPath(source) << " has " << parsed.puzzles.size() << "\n", 2;
    const PuzzleDef& def = parsed.puzzles[index];
    // The directory first: a split that cannot be written is said before the splitting search.
    std::error_code ec;
    fs::create_directories(p.options.jobsOut, ec);
    if (ec) return std::cerr << "polycube: --jobs-out " << shownPath(p.options.jobsOut) << ": " << ec.message() << "\n", 1;
    std::vector<fs::path> stale;  // staging directories of splits stopped while writing
    for (const auto& entry : fs::directory_iterator(p.options.jobsOut, ec)) {
        const std::string name = entry.path().filename().string(), ext = entry.path().extension().string();
        if (ext == ".job" || ext == ".result")
            return std::cerr << "polycube: --jobs-out " << shownPath(p.options.jobsOut) << " already holds job or result files; use an empty directory\n", 2;
        if (entry.is_directory() && name.rfind(kStagePrefix, 0) == 0 && name.size() > kStageSuffix.size() &&
            name.compare(name.size() - kStageSuffix.size(), kStageSuffix.size(), kStageSuffix) == 0)
            stale.push_back(entry.path());
    }
    for (const fs::path& old : stale) fs::remove_all(old, ec);
    if (ec) return std::cerr << "polycube: --jobs-out " << shownPath(p.options.jobsOut) << ": " << ec.message() << "\n", 1;
    if (const int refused = checkReplaceable((fs::path(p.options.jobsOut) / "0.result").string(), "--jobs-out", kResultKind, false, error))
        return std::cerr << "polycube: " << error << "\n", refused;
    std::unique_ptr<Solver> solver = setUp(def, p.options, error);
    if (!error.empty()) return std::cerr << "polycube: " << shownPath(source) << ":" << def.line << ": " << error << "\n", 1;
    // What the split itself has searched (result 0): the splitting search's, or the checkpoint's.
    Checkpoint own;
    own.fingerprint = searchFingerprint(*solver);
    std::string splitSolutions;
    // Pieces: about 4 per job (each costs a FILA start), grouped into the jobs largest first
    // (each piece to the lightest job).
    std::vector<CheckpointPiece> pieces;
    if (!resumeText.empty()) {
        Result<Checkpoint> ck = decodeCheckpoint(resumeText, own.fingerprint, shownPath(p.options.resume));
        Status fits = ck.ok() ? checkResume(ck.value, *solver, true) : ck.status;
        if (!fits.ok) return std::cerr << "polycube: " << fits.message << "\n", 1;
        if (ck.value.pending.empty())
            return std::cerr << "polycube: --split: " << shownPath(p.options.resume) << " has nothing left to search (its search is finished)\n", 1;
        own.finished = ck.value.finished;  // (its solutions were printed by the runs that found them)
        own.doneShare = ck.value.doneShare;
        pieces = std::move(ck.value.pending);
        std::stable_sort(pieces.begin(), pieces.end(), [](const CheckpointPiece& a, const CheckpointPiece& b) { return a.share > b.share; });
    } else {
        auto made = ParallelSearch::create(def, p.options, 1, std::move(solver));
        if (!made.ok()) return std::cerr << "polycube: " << made.status.message << "\n", 1;
        ParallelSearch& search = *made.value;
        search.setSolutionHandler([&](const Solution& s, long long number) {
            if (!p.options.quiet) splitSolutions += formatSolution(def, s.grid, number);
        });
        if (!search.splitOnly(4LL * p.options.splitJobs, pieces, own.doneShare))
            return std::cerr << "polycube: --split: " << (search.error().empty() ? "interrupted" : search.error()) << "\n", 1;
        own.finished = search.stats();
    }
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
    // The command line without the split's own options (or the search options a checkpoint holds).
    std::vector<std::string> words = origin ? splitWords(origin->options) : std::vector<std::string>();
    for (size_t i = 0; !origin && i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--split" || a == "--jobs-out" || a == "--resume") { ++i; continue; }
        if (a.rfind("--split=", 0) == 0 || a.rfind("--jobs-out=", 0) == 0 || a.rfind("--resume=", 0) == 0) continue;
        words.push_back(a);
    }
    const std::string& fp = own.fingerprint;
    // The files are written in a staging directory inside DIR, then moved into DIR, 0.result
    // last, with Ctrl-C and SIGTERM held back meanwhile: a split stopped while writing straight
    // into DIR would leave part of its jobs there, which a scheduler watching DIR could already
    // run, and a DIR that refuses the split run again. Stopped while writing, a split leaves
    // only the staging directory, which the next split into DIR removes.
    const fs::path dir(p.options.jobsOut);
    const fs::path stage = dir / (kStagePrefix + run + kStageSuffix);
    fs::create_directory(stage, ec);
    if (ec) return std::cerr << "polycube: --jobs-out " << shownPath(p.options.jobsOut) << ": " << ec.message() << "\n", 1;
    auto fail = [&](const std::string& message) {
        fs::remove_all(stage, ec);
        return std::cerr << "polycube: " << message << "\n", 1;
    };
    std::vector<std::string> names;
    for (size_t n = 0; n < order.size(); ++n) {
        Checkpoint& w = work[order[n]];
        w.fingerprint = fp;
        const JobFile job{run, static_cast<long long>(n + 1), static_cast<long long>(jobs), source, static_cast<int>(index), words, text,
                          encodeCheckpoint(w), ""};
        names.push_back(std::to_string(n + 1) + ".job");
        if (Status st = writeFileAtomically((stage / names.back()).string(), encodeJob(job)); !st.ok) return fail(st.message);
        if (n == 0) raiseAt("split-writing");
    }
    // What the splitting searched itself: result 0.
    const ResultFile r0{run, 0, jobs, "split", own.finished.setupSeconds + own.finished.searchSeconds, encodeCheckpoint(own), 0, 0};
    names.push_back("0.result");
    if (Status st = writeFileAtomically((stage / names.back()).string(), encodeResult(r0, splitSolutions).parts()); !st.ok)
        return fail(st.message);
    sigset_t hold, before;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &hold, &before);
    for (const std::string& name : names) {
        fs::rename(stage / name, dir / name, ec);
        if (ec) {
            pthread_sigmask(SIG_SETMASK, &before, nullptr);
            return std::cerr << "polycube: --jobs-out " << shownPath(p.options.jobsOut) << ": moving " << name << " in: " << ec.message() << "\n", 1;
        }
    }
    fs::remove(stage, ec);
    const long long found = own.finished.solutions;
    const std::string solutions = std::to_string(found) + (found == 1 ? " solution" : " solutions");
    if (pieces.empty())  // (a small or impossible puzzle: the steps that follow work the same)
        std::cerr << "polycube: the whole search ended while splitting (" << solutions << ": 0.result); " << shownPath(p.options.jobsOut)
                  << "/1.job has nothing left to search\n";
    else
        std::cerr << "polycube: " << jobs << " job file" << (jobs == 1 ? "" : "s") << " in " << shownPath(p.options.jobsOut) << " (" << pieces.size()
                  << " pieces; " << (resumeText.empty() ? "splitting found " + solutions : "the checkpoint's finished part: " + solutions +
                                                                                        ", counted, not printed again")
                  << ": 0.result)\n";
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
    std::string error;
    Result<JobFile> read = readJob(p.options.job);
    if (!read.ok()) return std::cerr << "polycube: --job " << read.status.message << "\n", 1;
    const JobFile& job = read.value;
    const std::string name = shownPath(p.options.job);
    const std::string out = resultPathOf(p.options.job);
    if (const int refused = checkReplaceable(out, "--job " + name + ": its result", kResultKind, true, error))
        return std::cerr << "polycube: " << error << "\n", refused;
    PuzzleDef def;
    SolverOptions options;
    if (!jobPuzzle(job, p.options, def, options, error)) return std::cerr << "polycube: --job " << name << ": " << error << "\n", 1;
    std::unique_ptr<Solver> solver = setUp(def, options, error);
    if (!error.empty()) return std::cerr << "polycube: --job " << name << ": " << error << "\n", 1;
    Result<Checkpoint> work = decodeCheckpoint(job.work, searchFingerprint(*solver), name);
    if (!work.ok())
        return std::cerr << "polycube: --job: " << work.status.message << "\n", 1;  // another build or configuration
    auto made = ParallelSearch::create(def, options, threadsFor(options), std::move(solver), &work.value);
    if (!made.ok()) return std::cerr << "polycube: " << made.status.message << "\n", 1;
    ParallelSearch& search = *made.value;
    if (!search.threadCapNote().empty()) std::cerr << "polycube: --job " << name << ": " << search.threadCapNote() << "\n";
    std::string solutions;
    search.setSolutionHandler([&](const Solution& s, long long number) {
        if (!options.quiet) solutions += formatSolution(def, s.grid, number);
    });
    Checkpoint last;
    bool checkpointed = false;
    search.setCheckpointHandler([&](const Checkpoint& ck) { last = ck, checkpointed = true; }, 3600);
    // --progress (or standard error a terminal): how far this job's pieces are; --progress is
    // among a job's options, so it must show something here.
    ProgressReporter reporter(isatty(STDERR_FILENO) != 0, "polycube: --job " + name + ": ", work.value.doneShare, true);
    if (options.progress || isatty(STDERR_FILENO))
        search.setProgressHandler([&](double f, long long n) { reporter.report(f, n); }, progressSeconds());
    const Solver::State ended = search.run();
    reporter.finish();
    if (ended != Solver::State::Done || !search.error().empty())
        return std::cerr << "polycube: --job " << name << ": " << (search.error().empty() ? "interrupted" : search.error()) << "\n", 1;
    if (!checkpointed) {
        // A puzzle proved impossible in the setup is not searched in pieces (ParallelSearch: no
        // checkpoints): its pieces are done, with nothing found. The result still carries the
        // search's fingerprint: --merge refuses an empty one.
        last.fingerprint = search.fingerprint();
        last.finished = search.stats();
        last.doneShare = work.value.doneShare;
        for (const CheckpointPiece& piece : work.value.pending) last.doneShare += piece.share;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    const ResultFile r{job.run, job.job, job.jobs, job.sum, seconds, encodeCheckpoint(last), 0, 0};
    if (Status st = writeFileAtomically(out, encodeResult(r, solutions).parts()); !st.ok)
        return std::cerr << "polycube: " << st.message << "\n", 1;
    return 0;
}

namespace {

// What --merge knows of one job file or result file.
struct MergeJob {
    std::string file;  // its name in DIR
    std::string run, sum;
    long long job = 0, jobs = 0;
};
struct MergeResult {
    std::string file;
    ResultFile head;
    Checkpoint totals;
};

// "2, 5, 7 to 9": job numbers for a message, at most `max` runs of them.
std::string numberList(const std::vector<long long>& ids, size_t max = 20) {
    std::string out;
    size_t runs = 0;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        if (runs == max) return out + " and " + std::to_string(ids.size() - i) + " more";
        out += (runs++ ? ", " : "") + std::to_string(ids[i]) + (j == i ? "" : (j == i + 1 ? ", " : " to ") + std::to_string(ids[j]));
        i = j + 1;
    }
    return out;
}

// The solutions of one result, copied from its file to standard output in chunks, each
// "# --- SOLUTION n ---" line renumbered in merge order.
bool copySolutions(const OwnFile& f, const ResultFile& r, long long& number) {
    std::string line, chunk;
    auto put = [&](const std::string& l) {
        if (l.rfind("# --- SOLUTION ", 0) == 0) std::cout << "# --- SOLUTION " << ++number << " ---\n";
        else std::cout << l << "\n";
    };
    for (long long at = 0; at < r.solutionsBytes; at += 1 << 16) {
        chunk.resize(static_cast<size_t>(std::min<long long>(1 << 16, r.solutionsBytes - at)));
        if (!f.readAt(r.solutionsAt + at, chunk.size(), &chunk[0])) return false;
        for (char c : chunk) {
            if (c != '\n') line += c;
            else put(line), line.clear();
        }
    }
    if (!line.empty()) put(line);
    return true;
}

}  // namespace

int mergeJobs(const OptionParse& p) {
    const std::string dir = p.options.merge, shownDir = shownPath(dir);
    std::vector<std::string> problems;
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec)) files.push_back(entry.path());
    if (ec) return std::cerr << "polycube: --merge " << shownDir << ": " << ec.message() << "\n", 1;
    std::sort(files.begin(), files.end());
    // Every job and result file: which split, which job, how many jobs (their contents say;
    // their names only name them in messages).
    std::vector<MergeJob> jobFiles;
    std::vector<std::string> resultPaths;
    std::map<std::string, long long> filesOfRun;  // run id -> job and result files of it
    std::map<std::string, JobFile> firstOfRun;    // a job's puzzle and options, for each split seen
    for (const fs::path& f : files) {
        if (f.extension() == ".result") resultPaths.push_back(f.string());
        if (f.extension() != ".job") continue;
        Result<JobFile> job = readJob(f.string());
        if (!job.ok()) {
            problems.push_back(job.status.message);
            continue;
        }
        jobFiles.push_back({f.filename().string(), job.value.run, job.value.sum, job.value.job, job.value.jobs});
        if (filesOfRun[job.value.run]++ == 0) firstOfRun[job.value.run] = std::move(job.value);
    }
    std::vector<std::unique_ptr<OwnFile>> opened;
    std::vector<MergeResult> resultFiles;
    for (const std::string& path : resultPaths) {
        auto f = std::make_unique<OwnFile>();
        std::string error;
        if (!f->open(path, kResultKind, error)) {
            problems.push_back(error);
            continue;
        }
        Result<ResultFile> r = readResultFile(*f);
        if (!r.ok()) {
            problems.push_back(r.status.message);
            continue;
        }
        resultFiles.push_back({fs::path(path).filename().string(), std::move(r.value), {}});
        ++filesOfRun[resultFiles.back().head.run];
        opened.push_back(std::move(f));
    }
    // The split: the one most of the files belong to (the others are refused by name).
    std::string run;
    long long most = 0;
    for (const auto& [id, count] : filesOfRun)
        if (count > most) run = id, most = count;
    long long jobCount = 0;  // as the split's files say
    for (const MergeJob& j : jobFiles)
        if (j.run == run && jobCount == 0) jobCount = j.jobs;
    for (const MergeResult& r : resultFiles)
        if (r.head.run == run && jobCount == 0) jobCount = r.head.jobs;
    std::map<long long, std::vector<const MergeJob*>> jobOf;
    for (const MergeJob& j : jobFiles) {
        if (j.run != run) problems.push_back(j.file + ": a job of another split (run " + j.run + ", not " + run + ")");
        else if (j.jobs != jobCount)
            problems.push_back(j.file + ": says its split has " + std::to_string(j.jobs) + " jobs, where the others say " + std::to_string(jobCount));
        else jobOf[j.job].push_back(&j);
    }
    std::map<long long, std::vector<const MergeResult*>> resultOf;
    for (const MergeResult& r : resultFiles) {
        const ResultFile& h = r.head;
        if (h.run != run) problems.push_back(r.file + ": a result of another split (run " + h.run + ", not " + run + ")");
        else if (h.jobs != jobCount)
            problems.push_back(r.file + ": says its split has " + std::to_string(h.jobs) + " jobs, where the others say " + std::to_string(jobCount));
        else resultOf[h.job].push_back(&r);
    }
    auto names = [](const auto& list) {
        std::string out;
        for (const auto* x : list) out += (out.empty() ? "" : ", ") + x->file;
        return out;
    };
    std::vector<long long> missingJobs, missingResults;
    for (long long k = 0; jobCount > 0 && k <= jobCount; ++k) {
        const auto js = jobOf.find(k);
        const auto rs = resultOf.find(k);
        const size_t nj = js == jobOf.end() ? 0 : js->second.size(), nr = rs == resultOf.end() ? 0 : rs->second.size();
        if (nj > 1) problems.push_back("job " + std::to_string(k) + " is in " + std::to_string(nj) + " job files: " + names(js->second));
        if (nr > 1) problems.push_back("job " + std::to_string(k) + " has " + std::to_string(nr) + " results: " + names(rs->second));
        if (k > 0 && nj == 0) missingJobs.push_back(k);
        if (nr == 0) {
            if (k == 0) problems.push_back("0.result (what the splitting searched) is missing");
            else if (nj == 1) problems.push_back("job " + std::to_string(k) + " (" + js->second[0]->file + ") has no result: run polycube --job on it");
            else missingResults.push_back(k);
        }
        // A result answers its job as it was searched: an edited or replaced job file differs.
        if (k > 0 && nj == 1 && nr == 1 && rs->second[0]->head.jobSum != js->second[0]->sum)
            problems.push_back(rs->second[0]->file + ": answers job " + std::to_string(k) + " as it was before " + js->second[0]->file +
                               " changed (its checksum " + rs->second[0]->head.jobSum + ", the file's " + js->second[0]->sum + ")");
    }
    if (!missingJobs.empty()) {
        const bool one = missingJobs.size() == 1;
        problems.push_back("the split has " + std::to_string(jobCount) + " jobs; " + shownDir + " lacks the job file" + (one ? "" : "s") +
                           " of job" + (one ? " " : "s ") + numberList(missingJobs) +
                           (missingResults.empty() ? std::string()
                            : missingResults.size() == missingJobs.size()
                                ? (one ? " and its result" : " and their results")
                                : ", and the results of job" + std::string(missingResults.size() == 1 ? " " : "s ") + numberList(missingResults)));
    }
    if (!problems.empty() || jobCount == 0) {
        for (const std::string& m : problems) std::cerr << "polycube: --merge: " << m << "\n";
        if (jobCount == 0) std::cerr << "polycube: --merge " << shownDir << ": no job file (*.job) or result (*.result) of a split in it\n";
        else std::cerr << "polycube: --merge: nothing merged (a total of some of the jobs would pass for the whole search)\n";
        return 1;
    }
    // One search's output: its solutions numbered on, the statistics summed.
    const JobFile& first = firstOfRun[run];
    PuzzleDef def;
    SolverOptions options;
    std::string error;
    if (!jobPuzzle(first, p.options, def, options, error)) return std::cerr << "polycube: --merge: " << error << "\n", 1;
    std::unique_ptr<Solver> solver = setUp(def, options, error);
    if (!error.empty()) return std::cerr << "polycube: --merge: " << error << "\n", 1;
    const std::string fp = searchFingerprint(*solver);
    SolverStats total;
    double jobSeconds = 0;                      // the jobs' own times, summed (machine time, not a wall time)
    double share = 0;                           // of the whole tree, the results' finished shares
    std::vector<std::string> withoutSolutions;  // results made with -q
    std::vector<size_t> order;                  // resultFiles in job order
    for (const auto& [id, list] : resultOf) order.push_back(static_cast<size_t>(list[0] - resultFiles.data()));
    for (size_t i : order) {
        MergeResult& r = resultFiles[i];
        Result<Checkpoint> ck = decodeCheckpoint(r.head.totals, fp, shownPath((fs::path(dir) / r.file).string()));
        if (!ck.ok()) return std::cerr << "polycube: --merge: " << ck.status.message << "\n", 1;
        total.add(ck.value.finished);
        share += ck.value.doneShare;
        jobSeconds += r.head.seconds;
        if (ck.value.finished.solutions > 0 && r.head.solutionsBytes == 0) withoutSolutions.push_back(r.file);
    }
    // Every job's result is here: together they are the whole tree, or something is wrong.
    if (std::abs(share - 1) > kShareTolerance) {
        std::ostringstream why;
        why << std::setprecision(12) << "polycube: --merge " << shownDir << ": the results cover " << share
            << " of the search, not all of it (results of an interrupted job?): nothing merged\n";
        return std::cerr << why.str(), 1;
    }
    // Printing the solutions of some jobs under the total of all would pass a part for the
    // whole: without -q every result must hold its solutions.
    if (!options.quiet && !withoutSolutions.empty()) {
        std::string list;
        for (size_t k = 0; k < withoutSolutions.size() && k < 5; ++k) list += (k ? ", " : "") + withoutSolutions[k];
        if (withoutSolutions.size() > 5) list += " and " + std::to_string(withoutSolutions.size() - 5) + " more";
        return std::cerr << "polycube: --merge " << shownDir << ": " << list << (withoutSolutions.size() == 1 ? " was" : " were")
                         << " made with -q (solutions counted, not kept; so is the 0.result of a split of a checkpoint): merge with -q for the totals, or run "
                         << (withoutSolutions.size() == 1 ? "that job" : "those jobs") << " again without -q\n",
               1;
    }
    long long number = 0;
    if (!options.quiet)
        for (size_t i : order)
            if (!copySolutions(*opened[i], resultFiles[i].head, number))
                return std::cerr << "polycube: --merge: " << shownPath((fs::path(dir) / resultFiles[i].file).string())
                                 << ": cannot read its solutions (changed while merged?)\n",
                       1;
    // Times: the jobs ran apart, so there is no wall time of the whole; what the results
    // record is each job's own, summed here as the search's seconds.
    total.setupSeconds = 0;
    total.searchSeconds = jobSeconds;
    if (options.info)
        std::cout << formatInfo(*solver) << formatStatistics(*solver, total) << "\n# --merge: the seconds are the "
                  << resultFiles.size() << " results' own (the split and each job), summed: machine time, not the wall time of a run\n"
                  << "JOBS=" << jobCount << "\n";
    if (options.json) {
        nlohmann::json j = nlohmann::json::parse(summaryJson(*solver, total, first.source, first.puzzle, "done"));
        j["seconds"] = nullptr;  // no wall time of the whole
        j["searchSeconds"] = nullptr;
        j["setupSeconds"] = nullptr;
        j["jobSeconds"] = jobSeconds;
        j["jobs"] = jobCount;
        std::cout << j.dump() << "\n";
    }
    std::cout.flush();
    return std::cout.good() ? 0 : 1;
}

}  // namespace polycube
