// Temporary entry point while the engine is being assembled; replaced by the real CLI.
#include <cstdio>
int main() { std::puts("polycube (engine under construction)"); return 0; }
