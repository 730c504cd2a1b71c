// inParallel: runs job(0) .. job(parts - 1) at once, job(0) on the calling thread and each
// other part on a thread of its own (native builds; in WebAssembly all on the calling thread).
// A thread the system refuses leaves its part to the calling thread, after job(0): so a job
// must not rely on its parts running at the same time. Internal to engine/memo (the layered
// count's expansion and grouping).
//
//   inParallel(threads, [&](int t) { expand(*workers[t], part(t)); });
#pragma once
#include <system_error>
#include <vector>
#ifndef __EMSCRIPTEN__
#include <thread>
#endif

namespace polycube {

template <class Job>
void inParallel(int parts, const Job& job) {
    int started = 1;
#ifndef __EMSCRIPTEN__
    std::vector<std::thread> pool;
    try {
        for (; started < parts; ++started) pool.emplace_back(job, started);
    } catch (const std::system_error&) {
    }
#endif
    job(0);
    for (int t = started; t < parts; ++t) job(t);
#ifndef __EMSCRIPTEN__
    for (std::thread& t : pool) t.join();
#endif
}

}  // namespace polycube
