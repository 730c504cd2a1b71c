# The C++ tests that take longest, with their seconds on a fresh checkout beside a 2-thread CPU
# load (the cli_* scripts have theirs beside their add_test in CMakeLists.txt). ctest starts a
# parallel run with the highest COST first; after a run it keeps its own figures in
# build/Testing/Temporary/CTestCostData.txt and uses those. Only the order matters: a figure
# that has drifted costs nothing but a later start; a name no test has any more is passed over
# silently, so a renamed long test must be renamed here too.
set_tests_properties(
  Corpus/Golden.CountMatchesAndEverySolutionChecks/bedlam__r
  PROPERTIES COST 21)
set_tests_properties(
  Corpus/Golden.CountMatchesAndEverySolutionChecks/tetriscube__r
  PROPERTIES COST 17)
set_tests_properties(
  SessionSplit.TwoSessionsAddUpToOneGivingTwoPathsAtATime
  Hostile.UniqueFilterMemoryIsBoundedAndItsLimitNamed
  Trace.AWindowKeepsItsEventsSolutionsAndStatisticsExactly
  PROPERTIES COST 8)
set_tests_properties(
  Orbits.GoldenCorpusSameCountsAndSolutionsAsTheEnumeratingSearch
  Hostile.SessionSlicesStayShortAndCancelIsHonouredInEveryPhase
  Hostile.FilaFallsBackToDlxWhenItsTablesWouldPassTheLimit
  Trace.LevelFilterAndSlicesAtFilaLevels
  SessionMemo.CountsInSlicesAndReportsTheCountAndTheTable
  Solver.WideOccupancyFields
  PROPERTIES COST 5)
set_tests_properties(
  Metamorphic.LongThreeDSearchesChooseTheRootByProbes
  Hostile.SolverCancelFromASignalHandlerIsSeenInEveryPhase
  Parallel.OrderedPrintsTheOneThreadSequence
  Trace.FilaLevelsAreTracedAndReplayTheSolutions
  Metamorphic.RewritingAPuzzleKeepsItsCountsAndConfiguration
  Memo.SlicesAndCancel
  Trace.EveryAlgorithmExplainsItsSteps
  Parser.HostileInputsGiveErrorsWithoutCrashing
  Metamorphic.ProbeChosenRootDoesNotDependOnTheWriting
  PROPERTIES COST 3)
