#include <gtest/gtest.h>

#include "search/heuristics.hpp"
#include "solver/options.hpp"

using namespace polycube;

namespace {
OptionParse parse(std::vector<std::string> args, std::vector<std::string> files = {}) {
    return parseOptions(args, [files](const std::string& w) {
        return std::find(files.begin(), files.end(), w) != files.end();
    });
}
}  // namespace

TEST(Options, ReferenceSpellingsOfRedundancyFilter) {
    auto a = parse({"-r", "L", "x.txt"}, {"x.txt"});
    ASSERT_TRUE(a.ok()) << a.error;
    EXPECT_EQ(a.options.redundancy, Redundancy::Named);
    EXPECT_EQ(a.options.redundancyPiece, "L");
    EXPECT_EQ(a.files, std::vector<std::string>{"x.txt"});

    auto b = parse({"-rL"});
    EXPECT_EQ(b.options.redundancyPiece, "L");

    auto c = parse({"-r", "x.txt"}, {"x.txt"});  // an existing file is not a piece name
    EXPECT_EQ(c.options.redundancy, Redundancy::Auto);
    EXPECT_EQ(c.files, std::vector<std::string>{"x.txt"});

    auto d = parse({"--redundancyFilter=G", "-q"});
    EXPECT_EQ(d.options.redundancyPiece, "G");
    EXPECT_TRUE(d.options.quiet);

    auto e = parse({"-q", "-r", "--json", "f"}, {"f"});
    EXPECT_EQ(e.options.redundancy, Redundancy::Auto);
    EXPECT_TRUE(e.options.json);
}

TEST(Options, AttachedAndSeparateValues) {
    auto p = parse({"-f11", "-oe=11:f=3", "-n", "-V13", "-P", "-F", "4", "-qi", "--", "-weird-file"});
    ASSERT_TRUE(p.ok()) << p.error;
    EXPECT_EQ(p.options.fila, 11);
    EXPECT_EQ(p.options.order, "e=11:f=3");
    EXPECT_TRUE(p.options.nof);
    EXPECT_EQ(p.options.volumeFilter, 13);
    EXPECT_EQ(p.options.parityFilter, kFilterOnce);
    EXPECT_EQ(p.options.fitFilter, 4);
    EXPECT_TRUE(p.options.quiet && p.options.info);
    EXPECT_EQ(p.files, std::vector<std::string>{"-weird-file"});
    EXPECT_FALSE(p.options.autoTune);

    auto mc = parse({"-s", "100,16,7"});
    ASSERT_TRUE(mc.ok()) << mc.error;
    EXPECT_EQ(mc.options.monteCarlo.trials, 100);
    EXPECT_EQ(mc.options.monteCarlo.range, 16);
    EXPECT_EQ(mc.options.monteCarlo.seed, 7u);
    EXPECT_TRUE(parse({"-q", "-r"}).options.autoTune);
    EXPECT_TRUE(parse({"-p", "-V", "-F", "3", "-v", "4", "-s", "1,2"}).options.autoTune);  // constraints keep it
    EXPECT_FALSE(parse({"-o", "s"}).options.autoTune);
}

TEST(Options, ClearErrors) {
    EXPECT_NE(parse({"-Q"}).error.find("unknown option '-Q'"), std::string::npos);
    EXPECT_NE(parse({"--bogus"}).error.find("unknown option '--bogus'"), std::string::npos);
    EXPECT_NE(parse({"-f", "abc"}).error.find("-f needs a whole number"), std::string::npos);
    EXPECT_NE(parse({"-f"}).error.find("needs a value"), std::string::npos);
    EXPECT_NE(parse({"-s", "1"}).error.find("-s needs T,R"), std::string::npos);
    EXPECT_NE(parse({"--quiet=yes"}).error.find("takes no value"), std::string::npos);
    EXPECT_NE(parse({"-f", "0"}).error.find("from 1"), std::string::npos);
    // -o's syntax is an option error at once, not a failure of each puzzle's setup.
    EXPECT_NE(parse({"-o", "q"}).error.find("-o: unknown heuristic 'q'"), std::string::npos);
    EXPECT_NE(parse({"-o", "s::f"}).error.find("-o: empty entry"), std::string::npos);
    EXPECT_NE(parse({"-o", ""}).error.find("-o: empty: give one or more heuristics"), std::string::npos);
    EXPECT_TRUE(parse({"-o", "x:s=200"}).ok());  // a threshold above the pieces is clamped per puzzle
    // -M only changes what -r and -u count.
    EXPECT_NE(parse({"-M"}).error.find("give -r or -u with it"), std::string::npos);
    EXPECT_NE(parse({"-M", "-l", "5"}).error.find("give -r or -u with it"), std::string::npos);
    EXPECT_TRUE(parse({"-M", "-r"}).ok());
    EXPECT_TRUE(parse({"-u", "-M"}).ok());
    EXPECT_TRUE(parse({"-rL", "-M"}).ok());
}

// -l takes the whole 64-bit unsigned range (counts are 64-bit), and says what is past it.
TEST(Options, LimitTakesEveryUnsigned64BitCount) {
    OptionParse top = parse({"-l", "18446744073709551615"});
    ASSERT_TRUE(top.ok()) << top.error;
    EXPECT_EQ(top.options.maxSolutions, INT64_MAX);  // unreachable by a signed 64-bit count: the same
    OptionParse mid = parse({"-l", "9223372036854775808"});
    ASSERT_TRUE(mid.ok()) << mid.error;
    EXPECT_EQ(mid.options.maxSolutions, INT64_MAX);
    EXPECT_EQ(parse({"-l", "4294967297"}).options.maxSolutions, 4294967297LL);
    EXPECT_NE(parse({"-l", "18446744073709551616"}).error.find("-l: 18446744073709551616 is more than the largest count, 18446744073709551615"),
              std::string::npos);
    EXPECT_NE(parse({"-l", "0"}).error.find("-l needs a positive whole number"), std::string::npos);
    EXPECT_NE(parse({"-l", "-3"}).error.find("-l needs a positive whole number"), std::string::npos);
    EXPECT_NE(parse({"-l", "+3"}).error.find("-l needs a positive whole number"), std::string::npos);
}

TEST(Options, GivenNamesTheOptionsInOrder) {
    OptionParse p = parse({"-q", "-rL", "--json", "-j", "2", "file.txt"});
    ASSERT_TRUE(p.ok()) << p.error;
    EXPECT_EQ(p.given, (std::vector<std::string>{"quiet", "redundancyFilter", "json", "jobs"}));
}

// A resumed checkpoint's search options are joined by the command line's other options through
// optionArguments: every option, with the value its rule gives as an example, reads back to the
// same settings, so no option of any scope is dropped or changed on the way.
TEST(Options, EveryOptionReadsBackFromItsArguments) {
    for (const OptionRule& rule : optionRules()) {
        if (rule.scope == OptionScope::Program) continue;  // --help, --version: no search at all
        std::vector<std::string> args{"--" + rule.longName};
        if (rule.arg == "required") args.push_back(rule.example);
        else if (rule.arg == "optional" && !rule.example.empty()) args.back() += "=" + rule.example;
        OptionParse first = parse(args);
        if (!first.ok()) {  // an option that goes only with another (-M with -r)
            args.insert(args.begin(), "-r");
            first = parse(args);
        }
        ASSERT_TRUE(first.ok()) << rule.longName << ": " << first.error;
        const std::vector<std::string> again = optionArguments(first, [](OptionScope) { return true; });
        const OptionParse second = parse(again);
        ASSERT_TRUE(second.ok()) << rule.longName << ": " << second.error;
        EXPECT_EQ(second.given, first.given) << rule.longName;
        EXPECT_EQ(second.givenValues, first.givenValues) << rule.longName;
        EXPECT_EQ(searchOptionsText(second), searchOptionsText(first)) << rule.longName;
    }
    // Only the scopes asked for: the output and thread options of a command line, not its search.
    const OptionParse mixed = parse({"-q", "-r", "L", "-j", "2", "--checkpoint", "run ck", "-o", "s"});
    ASSERT_TRUE(mixed.ok()) << mixed.error;
    EXPECT_EQ(optionArguments(mixed, [](OptionScope s) { return s != OptionScope::Search; }),
              (std::vector<std::string>{"--quiet", "--jobs=2", "--checkpoint=run ck"}));
}

TEST(Options, HeuristicSchedule) {
    auto s = parseSchedule("x:s=20", 35);
    ASSERT_TRUE(s.ok()) << s.status.message;
    EXPECT_EQ(s.value.at(35).kind, HeuristicKind::Linear);
    EXPECT_EQ(s.value.at(21).kind, HeuristicKind::Linear);
    EXPECT_EQ(s.value.at(20).kind, HeuristicKind::Size);
    EXPECT_EQ(s.value.at(1).kind, HeuristicKind::Size);
    auto t = parseSchedule("e=11:f=3", 12);  // nothing given for 12: the largest entry covers it
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t.value.at(12).kind, HeuristicKind::Estimate);
    EXPECT_EQ(t.value.at(3).kind, HeuristicKind::First);
    EXPECT_EQ(parseSchedule("e=11:c=2", 12).value.at(2).kind, HeuristicKind::Cornered);
    for (const char* ok : {"l@1,2,3", "a@160", "a@90,3,4", "A", "R", "R@1,2,3", "xyz", "X", "Y", "Z", "S", "E", "F", "c", "C"})
        EXPECT_TRUE(parseHeuristic(ok).ok()) << ok;
    EXPECT_NE(parseSchedule("q=3", 12).status.message.find("unknown heuristic 'q'"), std::string::npos);
    EXPECT_FALSE(parseSchedule("s=0", 12).ok());
    EXPECT_FALSE(parseSchedule("l@1,2", 12).ok());
    EXPECT_FALSE(parseSchedule("s::f", 12).ok());
    EXPECT_FALSE(parseSchedule("c@1", 12).ok());
}
