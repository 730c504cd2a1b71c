// What a recorded search did, counted once per recording so that two searches can be compared
// step by step (the watch panel's side-by-side view): solutions and dead ends before each step
// (prefix counts, so any step reads in O(1) while playing at thousands of steps per second),
// placements, the step of the first solution.
//
//   const sum = summarise(recording);
//   sum.solutionsBefore[k]; sum.deadEndsBefore[k]; sum.placementsBefore[k]   // after k steps
//   sum.firstSolution   // step (1-based) at which the first solution appeared, or 0
import { isDeadEnd } from './player.js';
import { TRACE_OP } from '../worker/protocol.js';

export function summarise(rec) {
  const n = rec.length;
  const solutionsBefore = new Int32Array(n + 1);
  const deadEndsBefore = new Int32Array(n + 1);
  const placementsBefore = new Int32Array(n + 1);
  let solutions = 0, deadEnds = 0, placements = 0, firstSolution = 0;
  for (let i = 0; i < n; i++) {
    const op = rec.op(i);
    // a solution counts when the engine numbers it (a > 0: not a turned copy of one counted)
    if (op === TRACE_OP.SOLUTION && rec.a(i) > 0) {
      solutions++;
      if (!firstSolution) firstSolution = i + 1;
    } else if (isDeadEnd(op)) deadEnds++;
    else if (op === TRACE_OP.PLACE) placements++;
    solutionsBefore[i + 1] = solutions;
    deadEndsBefore[i + 1] = deadEnds;
    placementsBefore[i + 1] = placements;
  }
  return { steps: n, solutions, deadEnds, placements, firstSolution, solutionsBefore, deadEndsBefore, placementsBefore };
}
