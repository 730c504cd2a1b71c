// A checkpoint file of the command line's format (parallel/checkpoint.hpp, format 2: the
// search's pieces and counts with its puzzle and options) made from the search a front end
// kept, and read back, by the command line's own codec: the page downloads its kept search as
// such a file and opens one written by `polycube --checkpoint`, never reading or writing the
// format itself (Session::checkpointFileJson, Session::openCheckpointJson).
//
//   checkpointFileJson(R"({"definition": "...", "source": "tetriscube.txt", "puzzle": 0,
//                          "options": "-r", "checkpoint": {...the page's piece book...}})")
//     -> {"ok":true,"text":"polycube-checkpoint 2\n..."}  or  {"ok":false,"error":{"code":"bad-argument","message":"..."}}
//   openCheckpointJson(text, "tetriscube.ck")
//     -> {"ok":true,"format":2,"definition","source","puzzle","options","checkpoint":{...}}
//        or {"ok":false,"error":{"code":"bad-argument","message":"tetriscube.ck:12: ..."}}
//
// The piece book is parallel/piece_check.hpp's JSON. What can be checked without setting the
// search up is checked both ways (decodeCheckpoint's checks: counts, shares, pieces; the
// options are a search's); the fingerprint is the resumed search's to compare
// (Session::checkResume, the command line's --resume). A format 1 file holds no puzzle: it is
// refused, saying to resume it with its puzzle file on the command line.
#pragma once
#include <string>

namespace polycube {

std::string checkpointFileJson(const std::string& keptJson);
std::string openCheckpointJson(const std::string& text, const std::string& fileName);

}  // namespace polycube
