// Values derived from the state, computed in one place (and cached by the identity of their
// inputs: slices are replaced, never mutated, so identity tells when to recompute).
import { PHASE } from './state.js';
import { viewPuzzle } from '../model/view-puzzle.js';
import { writeDefinition } from '../model/definition-writer.js';

let cache = { editorPuzzle: null, sourceText: null, result: null };

/**
 * The puzzle the stage and the legend draw, in the engine's JSON form: the puzzle being edited
 * while it differs from what the engine holds (drawn without solutions), else the loaded one.
 * @returns {{puzzle: object|null, editing: boolean}}
 */
export function shownPuzzle(state) {
  const ed = state.editor;
  if (ed.active && ed.puzzle) {
    if (cache.editorPuzzle !== ed.puzzle || cache.sourceText !== state.source.text || cache.slots !== ed.slots) {
      const differs = writeDefinition(ed.puzzle) !== state.source.text;
      cache = { editorPuzzle: ed.puzzle, sourceText: state.source.text, slots: ed.slots, result: differs ? { puzzle: viewPuzzle(ed.puzzle, ed.slots), editing: true } : null };
    }
    if (cache.result) return cache.result;
  }
  return { puzzle: state.puzzles[state.puzzleIndex] || null, editing: false };
}

/**
 * Whether the stage shows a replay's step (watch-actions.js) instead of the solutions: a
 * recording is open and the stage is not the editor's. Browsing the solutions waits meanwhile
 * (its controls would change a label and nothing on the stage).
 */
export function replayOnStage(state) {
  return state.watch.active && state.watch.steps > 0 && !shownPuzzle(state).editing;
}

/** Whether Solve can start now (the editor's own puzzle can be solved before anything is
 * loaded: a link to a draft). */
export function canSolve(state) {
  const { phase } = state.run;
  return phase !== PHASE.RUNNING && phase !== PHASE.LOADING && (state.puzzles.length > 0 || shownPuzzle(state).editing);
}

/** Whether the previous / next solution can be shown (not while a replay holds the stage). */
export function canStep(state) {
  const sol = state.solutions;
  const stored = sol.store ? sol.store.stored : 0;
  const replay = replayOnStage(state);
  return { prev: !replay && sol.shown > 0, next: !replay && sol.shown >= 0 && sol.shown < stored - 1 };
}

/**
 * What the counting hint says, or null: the listing running (or cancelled) is one that a count
 * alone would do by remembering subproblems, in far fewer steps (the engine's forecast,
 * statsJson's "countingForecast", engine/memo/memo_choice.hpp). A count (--memo) has no
 * forecast; nor has a listing the count cannot replace (-l, -u, -t ...).
 * @returns {{subproblems: number, steps: number|null}|null}
 */
export function countingHint(state) {
  const { phase, stats } = state.run;
  if (phase !== PHASE.RUNNING && phase !== PHASE.CANCELLED) return null;
  const f = stats && stats.countingForecast;
  if (!f || f.memoize !== true || !(f.subproblemBound > 0)) return null;
  return { subproblems: f.subproblemBound, steps: typeof f.enumeratingEstimate === 'number' ? f.enumeratingEstimate : null };
}

/**
 * What the listing hint says, or null: a count by remembering subproblems (--memo) whose layers
 * passed its memory budget, so that a term goes on with the table's search, which forgets what
 * does not fit and may take far longer (statsJson's "memo": fallbackTerms, budgetBytes;
 * docs/memo.md "Layer by layer"). Listing finds the same count without remembering; `more`:
 * the budget is below the most --memo-mb may give here (the engine's mostBudgetBytes).
 * @returns {{budgetBytes: number, more: boolean}|null}
 */
export function listingHint(state) {
  const { phase, stats } = state.run;
  if (phase !== PHASE.RUNNING && phase !== PHASE.CANCELLED) return null;
  const memo = stats && stats.memo;
  if (!memo || !(memo.fallbackTerms > 0) || !(memo.budgetBytes > 0)) return null;
  return { budgetBytes: memo.budgetBytes, more: memo.budgetBytes < memo.mostBudgetBytes };
}

/**
 * The solution on the stage when a memoized count listed solutions by number (--solution,
 * --random: the engine's "numbers", decimal strings), else null.
 * @returns {{number: string, of: number, drawn: number}|null}
 */
export function pickedSolution(state) {
  const numbers = state.run.stats && state.run.stats.memo && state.run.stats.memo.numbers;
  const sol = state.solutions;
  if (!Array.isArray(numbers) || numbers.length === 0 || !sol.store || sol.shown < 0 || sol.shown >= numbers.length) return null;
  return { number: numbers[sol.shown], of: sol.total, drawn: numbers.length };
}
