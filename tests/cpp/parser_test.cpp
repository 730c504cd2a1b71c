// Tests of the definition-file parser (engine/puzzle) and of the golden corpus in def/.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/text.hpp"
#include "geometry/geometry.hpp"
#include "puzzle/puzzle.hpp"

using namespace polycube;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string defPath(const std::string& name) { return std::string(POLYCUBE_DEF_DIR) + "/" + name; }

ParseResult parseOk(const std::string& text, const std::string& source = "test.txt") {
    ParseResult r = parseDefinitions(text, source);
    EXPECT_TRUE(r.ok()) << r.error.format();
    return r;
}

const PieceDef* piece(const PuzzleDef& p, const std::string& name) {
    for (const PieceDef& d : p.pieces)
        if (d.name == name) return &d;
    return nullptr;
}

Cells sorted(Cells c) {
    std::sort(c.begin(), c.end());
    return c;
}

const char* kSoma =
    "# Soma cube\n"
    "D:xDim=3:yDim=3:zDim=3\n"
    "C:name=V:layout=0 0 0, 1 0 0, 0 1 0\n"
    "C:name=L:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
    "C:name=T:layout=0 0 0, 1 0 0, 2 0 0, 1 1 0\n"
    "C:name=Z:layout=0 0 0, 1 0 0, 1 1 0, 2 1 0\n"
    "C:name=A:layout=0 0 0, 1 0 0, 0 1 0, 0 1 1\n"
    "C:name=B:layout=0 0 0, 1 0 0, 0 1 0, 1 0 1\n"
    "C:name=P:layout=0 0 0, 1 0 0, 0 1 0, 0 0 1\n"
    "~D\n";

// The format document's second example with real pieces: 24 free cells.
const char* kBoard5x5 =
    "# A 5x5 board with the centre cell blocked, three pieces drawn in one block\n"
    "D:xDim=5:yDim=5:zDim=1\n"
    "L:stationary=*\n"
    ". . . . .\n"
    ". . . . .\n"
    ". . * . .\n"
    ". . . . .\n"
    ". . . . .\n"
    "~L\n"
    "L\n"
    "A A A . B B B B\n"
    "A . . . B . . .\n"
    "~L\n"
    "C:name=C:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0, 4 0 0\n"
    "C:name=D:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0, 4 0 0\n"
    "C:name=E:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0, 4 0 0\n"
    "~D\n";

}  // namespace

// ---------------------------------------------------------------------------------------
// Format examples and semantics

TEST(Parser, SomaExampleFromFormatDocument) {
    ParseResult r = parseOk(kSoma, "soma.txt");
    ASSERT_EQ(r.puzzles.size(), 1u);
    const PuzzleDef& p = r.puzzles[0];
    EXPECT_EQ(p.source, "soma.txt");
    EXPECT_EQ(p.line, 2);
    EXPECT_EQ(p.title, "Soma cube");
    EXPECT_EQ(p.xDim, 3);
    EXPECT_EQ(p.yDim, 3);
    EXPECT_EQ(p.zDim, 3);
    EXPECT_FALSE(p.oneSide);
    ASSERT_EQ(p.pieces.size(), 7u);
    EXPECT_EQ(p.pieces[0].name, "V");
    EXPECT_EQ(p.pieces[0].line, 3);
    EXPECT_EQ(p.pieces[6].name, "P");
    EXPECT_EQ(p.pieces[6].cells, (Cells{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}));  // as written
    EXPECT_EQ(p.mobileVolume(), 27);
    EXPECT_EQ(p.stationaryVolume(), 0);
    EXPECT_EQ(p.instanceCount(), 7);
}

TEST(Parser, StationaryBoardExampleFromFormatDocument) {
    ParseResult r = parseOk(kBoard5x5);
    ASSERT_EQ(r.puzzles.size(), 1u);
    const PuzzleDef& p = r.puzzles[0];
    ASSERT_EQ(p.pieces.size(), 6u);
    EXPECT_EQ(p.pieces[0].name, "*");
    EXPECT_TRUE(p.pieces[0].stationary);
    EXPECT_EQ(p.pieces[0].cells, (Cells{{2, 2, 0}}));
    EXPECT_EQ(p.pieces[0].line, 3);
    EXPECT_EQ(p.pieces[1].name, "A");
    EXPECT_EQ(p.pieces[2].name, "B");
    EXPECT_FALSE(p.pieces[1].stationary);
    EXPECT_EQ(p.pieces[1].line, 10);
    // Rows go down from y = 4.
    EXPECT_EQ(sorted(p.pieces[1].cells), sorted({{0, 4, 0}, {1, 4, 0}, {2, 4, 0}, {0, 3, 0}}));
    EXPECT_EQ(sorted(p.pieces[2].cells), sorted({{4, 4, 0}, {5, 4, 0}, {6, 4, 0}, {7, 4, 0}, {4, 3, 0}}));
    EXPECT_EQ(p.stationaryVolume(), 1);
    EXPECT_EQ(p.mobileVolume(), 24);
}

TEST(Parser, TetrisCubeAsInTheArticle) {
    // Trailing comments on C lines and double spaces inside layouts.
    ParseResult r = parseOk(readFile(defPath("tetriscube.txt")), "tetriscube.txt");
    ASSERT_EQ(r.puzzles.size(), 1u);
    const PuzzleDef& p = r.puzzles[0];
    EXPECT_EQ(p.title, "Tetris Cube");
    ASSERT_EQ(p.pieces.size(), 12u);
    EXPECT_EQ(p.pieces[0].name, "A");
    EXPECT_EQ(p.pieces[0].cells, (Cells{{0, 0, 2}, {1, 0, 2}, {2, 0, 2}, {2, 0, 1}, {2, 0, 0}, {2, 1, 0}}));
    EXPECT_EQ(p.pieces[11].name, "L");
    EXPECT_EQ(p.pieces[11].cells.size(), 6u);
}

TEST(Parser, LayoutBlockZLayersAndYDirection) {
    // A 3x2x2 box drawn in one L block: each row holds both z layers separated by a comma.
    const char* text =
        "D:xDim=3:yDim=2:zDim=2\n"
        "L\n"
        "A A B , C C C   # comment inside a block\n"
        "\n"
        "# a full comment line inside a block\n"
        "A B B , C D D\n"
        "~L\n"
        "~D\n";
    ParseResult r = parseOk(text);
    ASSERT_EQ(r.puzzles.size(), 1u);
    const PuzzleDef& p = r.puzzles[0];
    ASSERT_EQ(p.pieces.size(), 4u);
    EXPECT_EQ(p.pieces[0].name, "A");
    EXPECT_EQ(p.pieces[1].name, "B");
    EXPECT_EQ(p.pieces[2].name, "C");
    EXPECT_EQ(p.pieces[3].name, "D");
    EXPECT_EQ(sorted(p.pieces[0].cells), sorted({{0, 1, 0}, {1, 1, 0}, {0, 0, 0}}));
    EXPECT_EQ(sorted(p.pieces[1].cells), sorted({{2, 1, 0}, {1, 0, 0}, {2, 0, 0}}));
    EXPECT_EQ(sorted(p.pieces[2].cells), sorted({{0, 1, 1}, {1, 1, 1}, {2, 1, 1}, {0, 0, 1}}));
    EXPECT_EQ(sorted(p.pieces[3].cells), sorted({{1, 0, 1}, {2, 0, 1}}));
}

TEST(Parser, LayoutBlockMobilePiecesMayExtendBeyondTheBox) {
    // More rows than yDim and wider than xDim: mobile pieces only keep their shape.
    const char* text =
        "D:xDim=2:yDim=2:zDim=1\n"
        "L\n"
        "A . . . . B\n"
        "A . . . . B\n"
        ". . . . . .\n"
        ". . . . . .\n"
        "~L\n"
        "~D\n";
    ParseResult r = parseOk(text);
    ASSERT_EQ(r.puzzles.size(), 1u);
    EXPECT_EQ(sorted(r.puzzles[0].pieces[1].cells), sorted({{5, 1, 0}, {5, 0, 0}}));

    const char* below =
        "D:xDim=2:yDim=1:zDim=1\n"
        "L\n"
        ". .\n"
        "A A\n"
        "~L\n"
        "~D\n";
    ParseResult r2 = parseOk(below);
    ASSERT_EQ(r2.puzzles.size(), 1u);
    EXPECT_EQ(r2.puzzles[0].pieces[0].cells, (Cells{{0, -1, 0}, {1, -1, 0}}));
}

TEST(Parser, StationaryCoordinatePieceAndMultipleStationaryNames) {
    const char* text =
        "D:xDim=3:yDim=2:zDim=1\n"
        "C:name=S:type=S:layout=0 0 0\n"
        "L:stationary=x y\n"
        "x . y\n"
        ". . .\n"
        "~L\n"
        "C:name=M:type=M:layout=0 0 0, 1 0 0, 2 0 0\n"
        "~D\n";
    ParseResult r = parseOk(text);
    ASSERT_EQ(r.puzzles.size(), 1u);
    const PuzzleDef& p = r.puzzles[0];
    ASSERT_EQ(p.pieces.size(), 4u);
    EXPECT_TRUE(piece(p, "S")->stationary);
    EXPECT_TRUE(piece(p, "x")->stationary);
    EXPECT_TRUE(piece(p, "y")->stationary);
    EXPECT_FALSE(piece(p, "M")->stationary);
    EXPECT_EQ(piece(p, "y")->cells, (Cells{{2, 1, 0}}));
    EXPECT_EQ(p.stationaryVolume(), 3);
    EXPECT_EQ(p.mobileVolume(), 3);
}

TEST(Parser, MultiplePuzzlesInOneFileWithTitles) {
    const char* text =
        "# File header\n"
        "\n"
        "# First puzzle\n"
        "# (more about it)\n"
        "D:xDim=2:yDim=1:zDim=1\n"
        "C:name=A:layout=0 0 0, 1 0 0\n"
        "~D\n"
        "D:xDim=1:yDim=1:zDim=2\n"
        "C:name=A:layout=0 0 0, 0 0 1\n"
        "~D\n"
        "#### Third ####\n"
        "\n"
        "D : xDim = 3 : yDim = 1 : zDim = 1 : oneSide = true\n"
        "  C : name = A : type = M : layout = 0 0 0 , 1 0 0 , 2 0 0  \n"
        "~D\n";
    ParseResult r = parseOk(text);
    ASSERT_EQ(r.puzzles.size(), 3u);
    EXPECT_EQ(r.puzzles[0].title, "First puzzle");
    EXPECT_EQ(r.puzzles[0].line, 5);
    EXPECT_EQ(r.puzzles[1].title, "");
    EXPECT_EQ(r.puzzles[1].line, 8);
    EXPECT_EQ(r.puzzles[1].zDim, 2);
    EXPECT_EQ(r.puzzles[2].title, "Third ####");
    EXPECT_TRUE(r.puzzles[2].oneSide);
    EXPECT_EQ(r.puzzles[2].pieces[0].cells.size(), 3u);
    EXPECT_EQ(r.puzzles[2].pieces[0].line, 14);
}

TEST(Parser, OneSideSpellings) {
    for (const char* v : {":oneSide", ":oneSide=true", ":oneSide=1", ":oneSide=TRUE"}) {
        ParseResult r = parseOk(std::string("D:xDim=1:yDim=1:zDim=1") + v + "\nC:name=A:layout=0 0 0\n~D\n");
        ASSERT_EQ(r.puzzles.size(), 1u);
        EXPECT_TRUE(r.puzzles[0].oneSide) << v;
    }
    for (const char* v : {":oneSide=false", ":oneSide=0", ""}) {
        ParseResult r = parseOk(std::string("D:xDim=1:yDim=1:zDim=1") + v + "\nC:name=A:layout=0 0 0\n~D\n");
        ASSERT_EQ(r.puzzles.size(), 1u);
        EXPECT_FALSE(r.puzzles[0].oneSide) << v;
    }
    // oneSide=false is allowed in 3-D.
    EXPECT_TRUE(parseDefinitions("D:xDim=1:yDim=1:zDim=2:oneSide=false\nC:name=A:layout=0 0 0,0 0 1\n~D\n", "t").ok());
}

TEST(Parser, CountExtension) {
    const char* text =
        "D:xDim=5:yDim=2:zDim=1\n"
        "C:name=Y:count=3:layout=0 0 0, 1 0 0\n"
        "C:name=Z:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0\n"
        "~D\n";
    ParseResult r = parseOk(text);
    ASSERT_EQ(r.puzzles.size(), 1u);
    const PuzzleDef& p = r.puzzles[0];
    ASSERT_EQ(p.pieces.size(), 2u);
    EXPECT_EQ(p.pieces[0].count, 3);
    EXPECT_EQ(p.pieces[1].count, 1);
    EXPECT_EQ(p.mobileVolume(), 10);
    EXPECT_EQ(p.instanceCount(), 4);
    std::vector<PieceInstanceRef> inst = expandInstances(p);
    ASSERT_EQ(inst.size(), 4u);
    EXPECT_EQ(inst[0].defIndex, 0);
    EXPECT_EQ(inst[0].copy, 0);
    EXPECT_EQ(inst[2].defIndex, 0);
    EXPECT_EQ(inst[2].copy, 2);
    EXPECT_EQ(inst[3].defIndex, 1);
    EXPECT_EQ(inst[3].copy, 0);
}

TEST(Parser, ExpandInstancesIncludesStationaryPieces) {
    ParseResult r = parseOk(kBoard5x5);
    ASSERT_EQ(r.puzzles.size(), 1u);
    std::vector<PieceInstanceRef> inst = expandInstances(r.puzzles[0]);
    ASSERT_EQ(inst.size(), 6u);
    EXPECT_EQ(inst[0].defIndex, 0);  // '*'
    EXPECT_EQ(r.puzzles[0].instanceCount(), 6);
}

TEST(Parser, WindowsLineEndingsAndBom) {
    std::string text = std::string("\xEF\xBB\xBF") + kSoma;
    std::string crlf;
    for (char c : text) {
        if (c == '\n') crlf += '\r';
        crlf += c;
    }
    ParseResult r = parseOk(crlf);
    ASSERT_EQ(r.puzzles.size(), 1u);
    EXPECT_EQ(r.puzzles[0].title, "Soma cube");
    EXPECT_EQ(r.puzzles[0].pieces.size(), 7u);
    EXPECT_EQ(r.puzzles[0].pieces[6].name, "P");

    // CRLF in an L block, and an error line number counted the same way.
    ParseResult bad = parseDefinitions("\xEF\xBB\xBF" "D:xDim=2:yDim=1:zDim=1\r\nL\r\nA A\r\n~L\r\nX\r\n~D\r\n", "w.txt");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error.line, 5);
    EXPECT_EQ(bad.error.lineText, "X");
}

TEST(Parser, LoneCarriageReturnsEndLines) {
    ParseResult r = parseOk("# Old Mac\rD:xDim=2:yDim=1:zDim=1\rL\rA A\r~L\r~D\r");
    ASSERT_EQ(r.puzzles.size(), 1u);
    EXPECT_EQ(r.puzzles[0].line, 2);
    EXPECT_EQ(r.puzzles[0].title, "Old Mac");
}

TEST(Parser, NoFinalNewlineAndTabs) {
    ParseResult r = parseOk("D:xDim=2:yDim=1:zDim=1\nL\nA\tA\n~L\n~D");
    ASSERT_EQ(r.puzzles.size(), 1u);
    EXPECT_EQ(r.puzzles[0].pieces[0].cells.size(), 2u);
}

TEST(Parser, ErrorFormat) {
    ParseError e;
    e.source = "tetris.txt";
    e.line = 7;
    e.message = "C directive: layout must be a list of x y z triplets";
    e.lineText = "C:name=A:layout=1 2";
    EXPECT_EQ(e.format(),
              "tetris.txt:7: C directive: layout must be a list of x y z triplets\n    C:name=A:layout=1 2");
    e.lineText.clear();
    EXPECT_EQ(e.format(), "tetris.txt:7: C directive: layout must be a list of x y z triplets");
    e.line = 0;
    EXPECT_EQ(e.format(), "tetris.txt: C directive: layout must be a list of x y z triplets");
}

TEST(Parser, ErrorNamesSourceLineAndQuotesTheLine) {
    ParseResult r = parseDefinitions("# x\nD:xDim=4:yDim=4:zDim=4\nC:name=A:layout=1 2\n~D\n", "tetris.txt");
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.puzzles.empty());
    EXPECT_EQ(r.error.source, "tetris.txt");
    EXPECT_EQ(r.error.line, 3);
    EXPECT_EQ(r.error.lineText, "C:name=A:layout=1 2");
    EXPECT_EQ(r.error.format().rfind("tetris.txt:3: C directive: layout must be a list of x y z triplets", 0), 0u)
        << r.error.format();
}

TEST(Text, PrintableTextKeepsValidUtf8AndReplacesTheRest) {
    EXPECT_EQ(printableText("abc\tx"), "abc\tx");
    EXPECT_EQ(printableText("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");  // é € 😀
    EXPECT_EQ(printableText(std::string("a\0b\x1b[31m\x07\x7f", 10)), "a?b?[31m??");
    EXPECT_EQ(printableText("\xff\xfe"), "??");                 // never valid
    EXPECT_EQ(printableText("\xC3"), "?");                       // cut short
    EXPECT_EQ(printableText("\xC0\xAF"), "??");                 // overlong '/'
    EXPECT_EQ(printableText("\xED\xA0\x80"), "???");           // a surrogate
    EXPECT_EQ(printableText("\xF4\x90\x80\x80"), "????");     // past U+10FFFF
    // A quoted error line out of a binary file is printable text.
    ParseResult r = parseDefinitions("D:xDim=2:yDim=1:zDim=1\n\xff\xfe\x1b]0;x\x07\n~D\n", "bin.txt");
    ASSERT_FALSE(r.ok());
    std::istringstream lines(r.error.format());  // the message, then the quoted line
    for (std::string line; std::getline(lines, line);) EXPECT_EQ(printableText(line), line);
    EXPECT_NE(r.error.format().find("'???]0;x?'"), std::string::npos) << r.error.format();
}

struct ErrorCase {
    const char* name;
    std::string text;
    int line;
    const char* fragment;
};

TEST(Parser, ErrorCases) {
    const std::string D = "D:xDim=2:yDim=1:zDim=1\n";
    const std::string ok2 = "C:name=A:layout=0 0 0, 1 0 0\n";
    std::vector<ErrorCase> cases = {
        {"empty input", "", 0, "no puzzle definition (D directive) found"},
        {"only comments", "# nothing\n\n", 0, "no puzzle definition (D directive) found"},
        {"unknown directive", D + "Q:name=A\n" + ok2 + "~D\n", 2, "unknown directive 'Q'"},
        {"text line", "hello world\n", 1, "unknown directive"},
        {"unknown D setting", "D:xDim=2:yDim=1:zDim=1:wDim=3\n" + ok2 + "~D\n", 1, "D directive: unknown setting 'wDim'"},
        {"repeated D setting", "D:xDim=2:yDim=1:xDim=2:zDim=1\n" + ok2 + "~D\n", 1, "setting 'xDim' given twice"},
        {"missing dimension", "D:xDim=2:yDim=1\n" + ok2 + "~D\n", 1, "D directive: missing zDim"},
        {"invalid dimension", "D:xDim=two:yDim=1:zDim=1\n" + ok2 + "~D\n", 1, "xDim must be an integer, got 'two'"},
        {"dimension without value", "D:xDim:yDim=1:zDim=1\n" + ok2 + "~D\n", 1, "xDim needs a value"},
        {"zero dimension", "D:xDim=0:yDim=1:zDim=1\n" + ok2 + "~D\n", 1, "xDim must be at least 1, got 0"},
        {"negative dimension", "D:xDim=2:yDim=-1:zDim=1\n" + ok2 + "~D\n", 1, "yDim must be at least 1, got -1"},
        {"huge negative dimension", "D:xDim=2:yDim=-99999999999999:zDim=1\n" + ok2 + "~D\n", 1, "yDim must be at least 1"},
        {"dimension over limit", "D:xDim=1001:yDim=1:zDim=1\n" + ok2 + "~D\n", 1, "larger than the dimension limit of 1000"},
        {"dimension overflow", "D:xDim=99999999999999999999999:yDim=1:zDim=1\n" + ok2 + "~D\n", 1, "dimension limit"},
        {"box volume over limit", "D:xDim=1000:yDim=1000:zDim=1\n" + ok2 + "~D\n", 1, "more than the limit of 100000"},
        {"bad oneSide", "D:xDim=2:yDim=1:zDim=1:oneSide=maybe\n" + ok2 + "~D\n", 1, "oneSide must be true, false"},
        {"oneSide in 3-D", "D:xDim=2:yDim=1:zDim=2:oneSide\n" + ok2 + ok2 + "~D\n", 1, "oneSide requires zDim=1"},
        {"C without name", D + "C:layout=0 0 0, 1 0 0\n~D\n", 2, "C directive: missing name"},
        {"C with empty name", D + "C:name=:layout=0 0 0, 1 0 0\n~D\n", 2, "C directive: name is empty"},
        {"C name with space", D + "C:name=A B:layout=0 0 0, 1 0 0\n~D\n", 2, "must be a single token"},
        {"C name with NUL", D + std::string("C:name=A\0:layout=0 0 0, 1 0 0\n~D\n", 33), 2, "contains the control character 0x00"},
        {"C name with ESC", D + "C:name=A\x1b[31m:layout=0 0 0, 1 0 0\n~D\n", 2, "contains the control character 0x1B"},
        {"C name with DEL", D + "C:name=A\x7f:layout=0 0 0, 1 0 0\n~D\n", 2, "contains the control character 0x7F"},
        // L blocks apply the same name rules (a NUL inside a drawn name made a 13th piece of 10x6).
        {"L name with NUL", D + std::string("L\nA A\0\n~L\n~D\n", 13), 3, "L block: piece name 'A?' contains the control character 0x00"},
        {"L name with ESC", D + "L\nA A\x1b[31m\n~L\n~D\n", 3, "L block: piece name 'A?[31m' contains the control character 0x1B"},
        {"L stationary name with ESC", D + "L:stationary=*\x1b\nA A\n~L\n~D\n", 2, "contains the control character 0x1B"},
        {"C without layout", D + "C:name=A\n~D\n", 2, "C directive: missing layout"},
        {"C empty layout", D + "C:name=A:layout=\n~D\n", 2, "layout is empty"},
        {"C unknown setting", D + "C:name=A:colour=red:layout=0 0 0, 1 0 0\n~D\n", 2, "C directive: unknown setting 'colour'"},
        {"C repeated setting", D + "C:name=A:name=B:layout=0 0 0, 1 0 0\n~D\n", 2, "setting 'name' given twice"},
        {"bad type", D + "C:name=A:type=X:layout=0 0 0, 1 0 0\n~D\n", 2, "type must be M or S, got 'X'"},
        {"layout pair", D + "C:name=A:layout=1 2\n~D\n", 2, "C directive: layout must be a list of x y z triplets"},
        {"layout quadruple", D + "C:name=A:layout=0 0 0 0, 1 0 0\n~D\n", 2, "layout must be a list of x y z triplets"},
        {"layout trailing comma", D + "C:name=A:layout=0 0 0, 1 0 0,\n~D\n", 2, "layout must be a list of x y z triplets"},
        {"layout not integer", D + "C:name=A:layout=0 0 0, 1 a 0\n~D\n", 2, "'a' is not an integer"},
        {"layout float", D + "C:name=A:layout=0 0 0, 1.5 0 0\n~D\n", 2, "'1.5' is not an integer"},
        {"layout huge", D + "C:name=A:layout=0 0 0, 123456789012345678901234567890 0 0\n~D\n", 2, "out of range"},
        {"layout just over 1e6", D + "C:name=A:layout=0 0 0, 1000001 0 0\n~D\n", 2, "out of range"},
        {"duplicate cell", D + "C:name=A:layout=0 0 0, 0 0 0\n~D\n", 2, "cell 0 0 0 appears twice in piece 'A'"},
        {"bad count", D + "C:name=A:count=x:layout=0 0 0\n~D\n", 2, "count must be an integer"},
        {"zero count", D + "C:name=A:count=0:layout=0 0 0\n~D\n", 2, "count must be at least 1, got 0"},
        {"count over limit", D + "C:name=A:count=5001:layout=0 0 0\n~D\n", 2, "instance limit"},
        {"count on stationary", D + "C:name=A:type=S:count=2:layout=0 0 0\n~D\n", 2, "count is not allowed for a stationary"},
        {"count in L", D + "L:count=2\nA A\n~L\n~D\n", 2, "L block: unknown setting 'count'"},
        {"duplicate name", D + "C:name=A:layout=0 0 0\nC:name=A:layout=0 0 0\n~D\n", 3,
         "piece 'A' is already defined at line 2"},
        {"C after L of same name", D + "L\nA A\n~L\nC:name=A:layout=0 0 0\n~D\n", 5, "piece 'A' is already defined at line 2"},
        {"L redefines C piece", D + "C:name=A:layout=0 0 0\nL\n. A\n~L\n~D\n", 4,
         "L block: piece 'A' is already defined at line 2"},
        {"two L blocks same piece", D + "L\nA .\n~L\nL\n. A\n~L\n~D\n", 6, "L block: piece 'A' is already defined at line 2"},
        {"stationary not drawn", D + "L:stationary=*\nA A\n~L\n~D\n", 2, "stationary piece '*' is not drawn in this block"},
        {"stationary empty list", D + "L:stationary=\nA A\n~L\n~D\n", 2, "stationary= lists no piece name"},
        {"stationary outside box right", D + "L:stationary=*\n. . *\nA A\n~L\n~D\n", 3,
         "stationary piece '*' has cell 2 0 0 outside the box (2x1x1)"},
        {"stationary outside box below", D + "L:stationary=*\nA A\n* .\n~L\n~D\n", 4, "has cell 0 -1 0 outside the box"},
        {"stationary C outside box", D + "C:name=S:type=S:layout=0 0 1\n" + ok2 + "~D\n", 2,
         "stationary piece 'S' has cell 0 0 1 outside the box"},
        {"stationary overlap", "D:xDim=3:yDim=1:zDim=1\nC:name=S:type=S:layout=1 0 0\nL:stationary=*\n* * .\n~L\n"
                               "C:name=A:layout=0 0 0\n~D\n",
         4, "stationary piece '*' overlaps stationary piece 'S' at cell 1 0 0"},
        {"stationary overlap C", "D:xDim=3:yDim=1:zDim=1\nC:name=S:type=S:layout=1 0 0\nC:name=T:type=S:layout=1 0 0\n"
                                 "C:name=A:layout=0 0 0, 1 0 0\n~D\n",
         3, "stationary piece 'T' overlaps stationary piece 'S' at cell 1 0 0"},
        {"C outside D", "C:name=A:layout=0 0 0\n", 1, "C directive outside a puzzle"},
        {"L outside D", "L\nA\n~L\n", 1, "L block outside a puzzle"},
        {"~D without D", "~D\n", 1, "~D without an open D directive"},
        {"~L without L", D + "~L\n" + ok2 + "~D\n", 2, "~L without an open L block"},
        {"D inside D", D + "D:xDim=1:yDim=1:zDim=1\n~D\n", 2, "D directive inside the puzzle started at line 1"},
        {"missing ~D", "# t\n" + D + ok2, 2, "missing ~D: the puzzle started at line 2 is never closed"},
        {"missing ~L", D + "C:name=B:layout=0 0 0\nL\nA\n", 3, "missing ~L: the L block started at line 3 is never closed"},
        {"~D inside L", D + "L\nA A\n~D\n", 4, "missing ~L for the L block at line 2"},
        {"C inside L", D + "L\nA A\nC:name=B:layout=0 0 0\n~L\n~D\n", 4, "C directive inside an L block: missing ~L for the L block at line 2"},
        {"D inside L", D + "L\nA A\n  D : xDim=1\n", 4, "D directive inside an L block"},
        {"~D with settings", D + ok2 + "~D:x=1\n", 3, "~D takes no settings"},
        {"volume too small", "D:xDim=10:yDim=6:zDim=1\nC:name=A:layout=0 0 0\n~D\n", 1,
         "pieces cover 1 cells but the box has 60 free cells (60 cells, 0 stationary)"},
        {"volume with stationary", "D:xDim=3:yDim=1:zDim=1\nC:name=S:type=S:layout=0 0 0\n" + ok2 + ok2.substr(0, 7) +
                                       "B:layout=0 0 0\n~D\n",
         1, "pieces cover 3 cells but the box has 2 free cells (3 cells, 1 stationary)"},
        {"no pieces", D + "~D\n", 1, "the puzzle has no pieces to place (only fixed ones, or none)"},
        {"only stationary", D + "C:name=S:type=S:layout=0 0 0, 1 0 0\n~D\n", 1, "the puzzle has no pieces to place (only fixed ones, or none)"},
        {"error in second puzzle", D + ok2 + "~D\n" + D + "C:name=A:layout=0 0 0\n~D\n", 4, "pieces cover 1 cells"},
    };
    for (const ErrorCase& c : cases) {
        ParseResult r = parseDefinitions(c.text, "case.txt");
        ASSERT_FALSE(r.ok()) << c.name;
        EXPECT_TRUE(r.puzzles.empty()) << c.name;
        EXPECT_EQ(r.error.source, "case.txt") << c.name;
        EXPECT_EQ(r.error.line, c.line) << c.name << ": " << r.error.format();
        EXPECT_NE(r.error.message.find(c.fragment), std::string::npos)
            << c.name << ": expected '" << c.fragment << "' in: " << r.error.format();
        if (c.line > 0) EXPECT_FALSE(r.error.lineText.empty()) << c.name;
        std::string f = r.error.format();
        EXPECT_EQ(f.rfind("case.txt:" + (c.line > 0 ? std::to_string(c.line) + ":" : std::string()), 0), 0u) << f;
    }
}

TEST(Parser, VolumeErrorQuotesTheDLine) {
    ParseResult r = parseDefinitions("# t\nD:xDim=10:yDim=6:zDim=1\nC:name=A:layout=0 0 0\n~D\n", "p.txt");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error.format(),
              "p.txt:2: pieces cover 1 cells but the box has 60 free cells (60 cells, 0 stationary)\n"
              "    D:xDim=10:yDim=6:zDim=1");
}

TEST(Parser, Limits) {
    ParseLimits lim;
    lim.maxDimension = 10;
    lim.maxBoxVolume = 50;
    lim.maxPieceCells = 3;
    lim.maxInstances = 4;
    lim.maxInputBytes = 1000;
    auto err = [&](const std::string& t) {
        ParseResult r = parseDefinitions(t, "lim", lim);
        EXPECT_FALSE(r.ok()) << t;
        return r.error.message;
    };
    EXPECT_NE(err("D:xDim=11:yDim=1:zDim=1\n").find("dimension limit of 10"), std::string::npos);
    EXPECT_NE(err("D:xDim=10:yDim=10:zDim=1\n").find("limit of 50"), std::string::npos);
    EXPECT_NE(err("D:xDim=4:yDim=1:zDim=1\nC:name=A:layout=0 0 0,1 0 0,2 0 0,3 0 0\n~D\n").find("piece size limit"),
              std::string::npos);
    EXPECT_NE(err("D:xDim=4:yDim=1:zDim=1\nL\nA A A A\n~L\n~D\n").find("piece size limit"), std::string::npos);
    EXPECT_NE(err("D:xDim=5:yDim=1:zDim=1\nL\nA B C D E\n~L\n~D\n").find("instances"), std::string::npos);
    EXPECT_NE(err("D:xDim=5:yDim=1:zDim=1\nC:name=A:count=5:layout=0 0 0\n~D\n").find("instance limit"),
              std::string::npos);
    EXPECT_NE(err("D:xDim=5:yDim=1:zDim=1\nC:name=A:count=4:layout=0 0 0\nC:name=B:layout=0 0 0\n~D\n").find("instances"),
              std::string::npos);
    {
        ParseLimits small = lim;
        small.maxBoxVolume = 10;
        ParseResult r = parseDefinitions("D:xDim=5:yDim=2:zDim=1\nC:name=A:count=4:layout=0 0 0,1 0 0,2 0 0\n~D\n", "lim", small);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error.message.find("cells in total"), std::string::npos) << r.error.format();
    }
    EXPECT_NE(err(std::string(1001, '#')).find("more than the limit of 1000"), std::string::npos);
    ParseResult r = parseDefinitions(std::string(1001, '#'), "lim", lim);
    EXPECT_EQ(r.error.line, 0);
    // The same puzzles are fine under the default limits.
    EXPECT_TRUE(parseDefinitions("D:xDim=4:yDim=1:zDim=1\nL\nA A A A\n~L\n~D\n", "lim").ok());
    EXPECT_TRUE(parseDefinitions("D:xDim=5:yDim=1:zDim=1\nL\nA B C D E\n~L\n~D\n", "lim").ok());
}

// ---------------------------------------------------------------------------------------
// Hostile input

TEST(Parser, HostileInputsGiveErrorsWithoutCrashing) {
    std::mt19937 rng(12345);
    auto check = [](const std::string& text) {
        ParseResult r = parseDefinitions(text, "fuzz");
        if (!r.ok()) {
            EXPECT_FALSE(r.error.message.empty());
            EXPECT_LE(r.error.lineText.size(), 210u);
            (void)r.error.format();
        }
        return r.ok();
    };
    // Random bytes.
    for (int i = 0; i < 300; ++i) {
        std::string s(rng() % 2000, '\0');
        for (char& c : s) c = static_cast<char>(rng() & 0xff);
        EXPECT_FALSE(check(s));
    }
    // Random sequences of format tokens: exercises every branch with plausible syntax.
    const char* pieces[] = {"D", ":", "xDim=", "yDim=", "zDim=", "2", "1", "-3", "99999999999", "\n", "C", "name=",
                            "A", "B", "layout=", "0 0 0", ",", "1 0 0", "type=S", "type=M", "count=", "L", "~L", "~D",
                            "stationary=", "*", ".", " ", "#", "oneSide", "=", "\r\n", "\xEF\xBB\xBF", "\t"};
    for (int i = 0; i < 3000; ++i) {
        std::string s;
        int n = static_cast<int>(rng() % 200);
        for (int k = 0; k < n; ++k) s += pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
        check(s);  // may or may not parse; must not crash
    }
    // Mutations of a valid file.
    std::string base = kBoard5x5;
    for (int i = 0; i < 2000; ++i) {
        std::string s = base;
        int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            size_t pos = rng() % s.size();
            switch (rng() % 3) {
                case 0: s[pos] = static_cast<char>(rng() & 0xff); break;
                case 1: s.erase(pos, 1 + rng() % 5); break;
                default: s.insert(pos, 1, "\n:,=.#~ADCL*0-"[rng() % 14]); break;
            }
            if (s.empty()) s = "x";
        }
        check(s);
    }
    // Huge numbers everywhere.
    EXPECT_FALSE(check("D:xDim=" + std::string(5000, '9') + ":yDim=1:zDim=1\n~D\n"));
    EXPECT_FALSE(check("D:xDim=2147483648:yDim=2147483648:zDim=2147483648\n~D\n"));
    EXPECT_FALSE(check("D:xDim=1000:yDim=1000:zDim=1000\n~D\n"));
    EXPECT_FALSE(check("D:xDim=2:yDim=1:zDim=1\nC:name=A:count=99999999999999:layout=0 0 0\n~D\n"));
    EXPECT_FALSE(check("D:xDim=2:yDim=1:zDim=1\nC:name=A:layout=-2147483648 0 0, 1 0 0\n~D\n"));
    // 10 MB lines of various kinds.
    const size_t big = 10u << 20;
    EXPECT_FALSE(check(std::string(big, 'x')));
    EXPECT_FALSE(check("D:xDim=2:yDim=1:zDim=1\nL\n" + std::string(big, '.') + "\n~L\n~D\n"));
    {
        std::string row;
        row.reserve(big);
        while (row.size() < big) row += "A ";
        EXPECT_FALSE(check("D:xDim=2:yDim=1:zDim=1\nL\n" + row + "\n~L\n~D\n"));
    }
    {
        std::string row;
        row.reserve(big);
        for (int k = 0; row.size() < big; ++k) row += std::to_string(k) + " ";
        EXPECT_FALSE(check("D:xDim=2:yDim=1:zDim=1\nL\n" + row + "\n~L\n~D\n"));
    }
    {
        std::string layout = "D:xDim=2:yDim=1:zDim=1\nC:name=A:layout=";
        while (layout.size() < big) layout += "0 0 0,";
        EXPECT_FALSE(check(layout + "\n~D\n"));
    }
    EXPECT_FALSE(check("D:xDim=2:yDim=1:zDim=1\nC:name=A:layout=" + std::string(big, ',') + "\n~D\n"));
    EXPECT_FALSE(check("D" + std::string(big, ':') + "\n"));
    EXPECT_FALSE(check(std::string(big, '\n')));
    EXPECT_FALSE(check("D:xDim=2:yDim=1:zDim=1\nL\n" + std::string(big / 2, '\n')));  // unterminated block
    {
        std::string rows = "D:xDim=2:yDim=1:zDim=1\nL\n";
        while (rows.size() < big) rows += "A\n";
        EXPECT_FALSE(check(rows + "~L\n~D\n"));
    }
    // Over the input limit.
    EXPECT_FALSE(check(std::string((16u << 20) + 1, ' ')));
}

// ---------------------------------------------------------------------------------------
// The golden corpus

namespace {

struct CorpusExpectation {
    const char* file;
    int x, y, z;
    bool oneSide;
    int mobilePieces;
    int stationaryPieces;
};

const CorpusExpectation kCorpus[] = {
    {"pentominoes_10x6.txt", 10, 6, 1, false, 12, 0},
    {"pentominoes_1s_30x3.txt", 30, 3, 1, true, 18, 0},
    {"pentominoes_1s_18x5.txt", 18, 5, 1, true, 18, 0},
    {"soma.txt", 3, 3, 3, false, 7, 0},
    {"tetriscube.txt", 4, 4, 4, false, 12, 0},
    {"bedlam.txt", 4, 4, 4, false, 13, 0},
    {"pentominoes_8x8_hole.txt", 8, 8, 1, false, 12, 1},
    {"diamond_13x13_pt.txt", 13, 13, 1, false, 17, 1},
    {"hexomino_box_in_diamond.txt", 23, 23, 1, false, 35, 1},
    {"hexominoes_rect_15x14.txt", 15, 14, 1, false, 35, 0},
    {"lesson_tiny_4x3.txt", 4, 3, 1, false, 3, 0},
    {"lesson_tiny_2x2x3.txt", 2, 2, 3, false, 3, 0},
    {"lesson_symmetry_4x3.txt", 4, 3, 1, false, 4, 0},
    {"solid_pentominoes_3x4x5.txt", 5, 4, 3, false, 12, 0},
    {"solid_pentominoes_2x5x6.txt", 6, 5, 2, false, 12, 0},
    {"solid_pentominoes_2x3x10.txt", 10, 3, 2, false, 12, 0},
};

PuzzleDef loadCorpus(const std::string& file) {
    ParseResult r = parseDefinitions(readFile(defPath(file)), file);
    EXPECT_TRUE(r.ok()) << r.error.format();
    EXPECT_EQ(r.puzzles.size(), 1u) << file;
    return r.puzzles.empty() ? PuzzleDef{} : r.puzzles[0];
}

std::vector<Cells> mobileShapes(const PuzzleDef& p) {
    std::vector<Cells> out;
    for (const PieceDef& d : p.pieces)
        if (!d.stationary) out.push_back(d.cells);
    return out;
}

// Number of distinct canonical forms among the shapes.
size_t distinctShapes(const std::vector<Cells>& shapes, const std::vector<Rotation>& group) {
    std::set<Cells> keys;
    for (const Cells& c : shapes) keys.insert(canonicalForm(c, group));
    return keys.size();
}

bool allConnectedOfSize(const std::vector<Cells>& shapes, size_t size) {
    for (const Cells& c : shapes)
        if (c.size() != size || !isConnected(c)) return false;
    return true;
}

}  // namespace

TEST(Corpus, EveryFileParsesWithExpectedShape) {
    for (const CorpusExpectation& e : kCorpus) {
        SCOPED_TRACE(e.file);
        PuzzleDef p = loadCorpus(e.file);
        EXPECT_EQ(p.xDim, e.x);
        EXPECT_EQ(p.yDim, e.y);
        EXPECT_EQ(p.zDim, e.z);
        EXPECT_EQ(p.oneSide, e.oneSide);
        int mobile = 0, stationary = 0;
        for (const PieceDef& d : p.pieces) {
            (d.stationary ? stationary : mobile) += d.count;
            EXPECT_TRUE(isConnected(d.cells) || d.stationary) << d.name;
            EXPECT_EQ(d.name.size(), 1u) << "single-character names print one token per cell";
        }
        EXPECT_EQ(mobile, e.mobilePieces);
        EXPECT_EQ(stationary, e.stationaryPieces);
        EXPECT_EQ(p.mobileVolume() + p.stationaryVolume(), p.boxVolume());
        EXPECT_FALSE(p.title.empty());
    }
}

TEST(Corpus, CatalogListsEveryFileWithMatchingTitles) {
    std::string text = readFile(defPath("catalog.json"));
    nlohmann::json cat = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(cat.is_discarded()) << "catalog.json is not valid JSON";
    ASSERT_TRUE(cat.is_array());
    ASSERT_EQ(cat.size(), sizeof(kCorpus) / sizeof(kCorpus[0]));
    EXPECT_EQ(cat[0]["file"], "pentominoes_10x6.txt");  // the web page's default puzzle
    std::set<std::string> files;
    for (const auto& entry : cat) {
        ASSERT_TRUE(entry.contains("file") && entry.contains("title") && entry.contains("counts") && entry.contains("tier"));
        std::string file = entry["file"];
        files.insert(file);
        SCOPED_TRACE(file);
        std::string tier = entry["tier"];
        EXPECT_TRUE(tier == "fast" || tier == "slow" || tier == "bench");
        ASSERT_TRUE(entry["counts"].is_object());
        for (const auto& kv : entry["counts"].items()) EXPECT_TRUE(kv.value().is_number_integer());
        PuzzleDef p = loadCorpus(file);
        EXPECT_EQ(p.title, entry["title"].get<std::string>());
    }
    for (const CorpusExpectation& e : kCorpus) EXPECT_EQ(files.count(e.file), 1u) << e.file;
    // Known counts.
    std::map<std::string, long long> minusR;
    for (const auto& entry : cat)
        if (entry["counts"].contains("-r")) minusR[entry["file"]] = entry["counts"]["-r"];
    EXPECT_EQ(minusR["pentominoes_10x6.txt"], 2339);
    EXPECT_EQ(minusR["soma.txt"], 480);
    EXPECT_EQ(minusR["tetriscube.txt"], 9839);
    EXPECT_EQ(minusR["bedlam.txt"], 19186);
}

TEST(Corpus, FreePentominoesAreTheTwelveDistinctPentominoes) {
    for (const char* file : {"pentominoes_10x6.txt", "pentominoes_8x8_hole.txt"}) {
        SCOPED_TRACE(file);
        std::vector<Cells> shapes = mobileShapes(loadCorpus(file));
        ASSERT_EQ(shapes.size(), 12u);
        EXPECT_TRUE(allConnectedOfSize(shapes, 5));
        EXPECT_EQ(distinctShapes(shapes, properRotations()), 12u);  // there are exactly 12 free pentominoes
    }
}

TEST(Corpus, OneSidedPentominoesAreTheEighteenDistinctOnes) {
    for (const char* file : {"pentominoes_1s_30x3.txt", "pentominoes_1s_18x5.txt"}) {
        SCOPED_TRACE(file);
        PuzzleDef p = loadCorpus(file);
        std::vector<Cells> shapes = mobileShapes(p);
        ASSERT_EQ(shapes.size(), 18u);
        EXPECT_TRUE(allConnectedOfSize(shapes, 5));
        EXPECT_EQ(distinctShapes(shapes, zRotations()), 18u);
        EXPECT_EQ(distinctShapes(shapes, properRotations()), 12u);
        // Each lower-case piece is the mirror image of its upper-case partner.
        for (const PieceDef& d : p.pieces) {
            if (d.name[0] < 'a' || d.name[0] > 'z') continue;
            const PieceDef* partner = piece(p, std::string(1, static_cast<char>(d.name[0] - 'a' + 'A')));
            ASSERT_NE(partner, nullptr) << d.name;
            EXPECT_EQ(canonicalForm(d.cells, zRotations()), canonicalForm(mirrored(partner->cells), zRotations()))
                << d.name;
        }
    }
}

TEST(Corpus, DiamondPiecesAndBoard) {
    PuzzleDef p = loadCorpus("diamond_13x13_pt.txt");
    std::vector<Cells> fives, fours;
    for (const PieceDef& d : p.pieces) {
        if (d.stationary) {
            // The board: free cells are |x-6|+|y-6| <= 6 except the middle row's centre 5.
            ASSERT_EQ(d.cells.size(), 89u);
            for (const Vec3& c : d.cells) {
                int dist = std::abs(c.x - 6) + std::abs(c.y - 6);
                EXPECT_TRUE(dist > 6 || (c.y == 6 && c.x >= 4 && c.x <= 8)) << c.x << " " << c.y;
            }
        } else if (d.cells.size() == 5) {
            fives.push_back(d.cells);
        } else {
            fours.push_back(d.cells);
        }
    }
    EXPECT_EQ(fives.size(), 12u);
    EXPECT_EQ(fours.size(), 5u);
    EXPECT_TRUE(allConnectedOfSize(fours, 4));
    EXPECT_EQ(distinctShapes(fives, properRotations()), 12u);
    EXPECT_EQ(distinctShapes(fours, properRotations()), 5u);  // the 5 free tetrominoes
}

TEST(Corpus, EightByEightHoleBoard) {
    PuzzleDef p = loadCorpus("pentominoes_8x8_hole.txt");
    const PieceDef* star = piece(p, "*");
    ASSERT_NE(star, nullptr);
    EXPECT_TRUE(star->stationary);
    EXPECT_EQ(sorted(star->cells), sorted({{3, 3, 0}, {4, 3, 0}, {3, 4, 0}, {4, 4, 0}}));
}

TEST(Corpus, HexominoesAreTheThirtyFiveDistinctHexominoes) {
    for (const char* file : {"hexomino_box_in_diamond.txt", "hexominoes_rect_15x14.txt"}) {
        SCOPED_TRACE(file);
        PuzzleDef p = loadCorpus(file);
        std::vector<Cells> shapes = mobileShapes(p);
        ASSERT_EQ(shapes.size(), 35u);
        EXPECT_TRUE(allConnectedOfSize(shapes, 6));
        EXPECT_EQ(distinctShapes(shapes, properRotations()), 35u);  // there are exactly 35 free hexominoes
        // Parity: 11 hexominoes cover 4 cells of one chessboard colour and 2 of the other.
        int odd = 0;
        for (const Cells& c : shapes) {
            int black = 0;
            for (const Vec3& v : c) black += ((v.x + v.y) % 2 + 2) % 2;
            if (black != 3) ++odd;
        }
        EXPECT_EQ(odd, 11);
    }
    PuzzleDef hbd = loadCorpus("hexomino_box_in_diamond.txt");
    EXPECT_EQ(hbd.title, "Box-in-a-diamond hexominoes");
    EXPECT_EQ(hbd.stationaryVolume(), 23 * 23 - 210);
}

TEST(Corpus, SomaPiecesAreTheSevenSomaPieces) {
    PuzzleDef p = loadCorpus("soma.txt");
    std::vector<Cells> shapes = mobileShapes(p);
    ASSERT_EQ(shapes.size(), 7u);
    EXPECT_EQ(distinctShapes(shapes, properRotations()), 7u);
    // The Soma pieces are all non-convex polycubes of 3 or 4 cells: the V tromino, the
    // L, T, S tetrominoes and the three non-planar tetracubes (two mirror-image screws, branch).
    Cells v = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    Cells l = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}};
    Cells t = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}};
    Cells s = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 0}};
    Cells screw = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}};
    Cells branch = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    std::vector<Cells> expected = {v, l, t, s, screw, mirrored(screw), branch};
    std::set<Cells> got;
    for (const Cells& c : shapes) got.insert(canonicalForm(c, properRotations()));
    for (const Cells& c : expected) EXPECT_EQ(got.count(canonicalForm(c, properRotations())), 1u) << formatCells(c);
}

TEST(Corpus, TetrisCubeAndBedlamPieces) {
    PuzzleDef tc = loadCorpus("tetriscube.txt");
    EXPECT_EQ(distinctShapes(mobileShapes(tc), properRotations()), 12u);
    for (const PieceDef& d : tc.pieces) EXPECT_TRUE(isConnected(d.cells)) << d.name;
    PuzzleDef bd = loadCorpus("bedlam.txt");
    EXPECT_EQ(distinctShapes(mobileShapes(bd), properRotations()), 13u);
    int fives = 0;
    for (const PieceDef& d : bd.pieces) fives += d.cells.size() == 5;
    EXPECT_EQ(fives, 12);
}

// A source name is quoted as paths are in every message: cut after 200 characters (a
// 100,000-character path was quoted whole).
TEST(Parser, LongSourceNameIsCutInMessages) {
    const std::string source(100000, 'd');
    ParseResult r = parseDefinitions("D:xDim=2\n", source);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error.source, source);  // kept whole for the caller
    const std::string f = r.error.format();
    EXPECT_LT(f.size(), 600u) << f.substr(0, 300);
    EXPECT_NE(f.find("(100000 characters)"), std::string::npos) << f.substr(0, 300);
}
