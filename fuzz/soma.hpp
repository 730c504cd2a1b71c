// The Soma cube's definition, for the fuzz targets that run a small puzzle (options_fuzzer's
// searches, own_files_fuzzer's checkpoints of its -r search).
#pragma once

namespace polycube_fuzz {

inline const char* const kSoma =
    "D:xDim=3:yDim=3:zDim=3\n"
    "C:name=V:layout=0 0 0, 1 0 0, 0 1 0\n"
    "C:name=L:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
    "C:name=T:layout=0 0 0, 1 0 0, 2 0 0, 1 1 0\n"
    "C:name=Z:layout=0 0 0, 1 0 0, 1 1 0, 2 1 0\n"
    "C:name=A:layout=0 0 0, 1 0 0, 0 1 0, 0 0 1\n"
    "C:name=B:layout=0 0 0, 1 0 0, 1 1 0, 1 1 1\n"
    "C:name=P:layout=0 0 0, 1 0 0, 0 1 0, 1 0 1\n"
    "~D\n";

}  // namespace polycube_fuzz
