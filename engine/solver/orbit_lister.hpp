// Every solution as its orbit (AlgorithmPlan::orbits): the search, with the redundancy
// filter of the first seed article ("Image Filters": a piece's orientation fixed so that
// only rotationally unique solutions are found), reaches one solution of each class; the
// lister names the class's other solutions, g(found) for each symmetry g of the puzzle,
// each distinct one once.
//
//   OrbitLister orbits{model, symmetries, coder};  // the DLX driver's, by reference
//   orbits.start(placed);                          // a solution the filter accepted
//   for (OrbitLister::Step s; (s = orbits.next()) != OrbitLister::kDone;) {
//       if (s == OrbitLister::kNoImage) ... an internal error: stop
//       report(orbits.images());                   // kFound: `placed` itself; kImage: another
//   }
//
// Two symmetries give the same solution when their codes are equal (SolutionCoder: equal
// codes <=> the same images up to swapping identical copies, which is how the enumerating
// search tells solutions apart: it never permutes copies), e.g. a solution with a symmetry
// of its own: each is listed once. The found one first, then the others in symmetry order;
// the caller may stop between two (a solution limit stops mid-orbit exactly). It owns its
// buffers (codes seen, their hashes, an image's mapped cells), reused from orbit to orbit:
// no allocation per solution once they have grown.
#pragma once
#include <cstdint>
#include <vector>

#include "constraints/symmetry.hpp"
#include "puzzle/model.hpp"

namespace polycube {

class OrbitLister {
public:
    enum Step : uint8_t {
        kFound,    // images() is the solution start() was given
        kImage,    // images() is a symmetric image of it, distinct from those listed before
        kDone,     // the orbit is listed
        kNoImage,  // a symmetry maps a placed image to none of the model's (a bug, never the puzzle)
    };

    OrbitLister(const Model& model, const std::vector<Symmetry>& symmetries, SolutionCoder& coder)
        : model_(model), symmetries_(symmetries), coder_(coder) {}

    // List the orbit of `placed` (kept by reference until kDone).
    void start(const std::vector<int>& placed);
    Step next();
    // The images of the solution next() has just listed.
    const std::vector<int>& images() const { return *current_; }

private:
    const Model& model_;
    const std::vector<Symmetry>& symmetries_;
    SolutionCoder& coder_;
    const std::vector<int>* placed_ = nullptr;
    const std::vector<int>* current_ = nullptr;
    size_t symmetry_ = 0;  // the next symmetry to apply
    // The orbit's distinct codes so far (flat, a code per open cell each) with their hashes,
    // a symmetry's code, the images it maps the solution to, mapped cells.
    std::vector<uint32_t> codes_, code_;
    std::vector<uint64_t> hashes_;
    std::vector<int> images_, cells_;
};

}  // namespace polycube
