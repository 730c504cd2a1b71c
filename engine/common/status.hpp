// Status and Result: errors as values.
//
// The engine never lets an exception cross its public API (the WebAssembly build
// has no usable C++ exception support at the JS boundary). Every fallible call
// returns a Status (ok + message) or a Result<T> (value + status).
//
//   Result<Model> r = Model::build(def);
//   if (!r.ok()) { std::cerr << r.status.message; return 1; }
//   const Model& m = r.value;
#pragma once
#include <string>
#include <utility>

namespace polycube {

struct Status {
    bool ok = true;
    std::string message;

    static Status success() { return {}; }
    static Status error(std::string msg) { return {false, std::move(msg)}; }
    explicit operator bool() const { return ok; }
};

template <class T>
struct Result {
    T value{};
    Status status;

    bool ok() const { return status.ok; }
    static Result success(T v) { return Result{std::move(v), Status::success()}; }
    static Result error(std::string msg) { return Result{T{}, Status::error(std::move(msg))}; }
    static Result error(Status s) { return Result{T{}, std::move(s)}; }
};

}  // namespace polycube
