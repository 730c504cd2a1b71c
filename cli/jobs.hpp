// polycube --split / --job / --merge: one search over many cores or machines, run by an
// existing scheduler (GNU parallel, a Slurm job array), not a home-made one.
//
//   polycube -q -r --split 64 --jobs-out jobs/ puzzle.txt    # jobs/1.job ... jobs/64.job, jobs/0.result
//   parallel polycube -q --job ::: jobs/*.job                 # each writes jobs/k.result
//   polycube --merge jobs/ --json                              # the summary one run would print
//
// A job file is self-contained (the puzzle's definition text, the options, the pieces of the
// search tree to search: parallel/checkpoint.hpp's format), so it runs wherever the polycube
// binary of the same build is. Every file of one split carries its run id, the split's job
// count and its own job number (cli/split_files.hpp): --merge names the jobs whose files or
// results are missing, refuses duplicated ones and those of another split or of an edited
// job, and prints no total unless every job's result is there.
#pragma once
#include <string>

#include "solver/options.hpp"

namespace polycube {

// Each returns the process's exit status (0, 1: a file or the search failed, 2: bad usage).
int splitIntoJobs(const OptionParse& p, const std::vector<std::string>& args);
int runJob(const OptionParse& p);
int mergeJobs(const OptionParse& p);

}  // namespace polycube
