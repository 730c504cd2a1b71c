// Puzzle edits as undoable commands (History in history.js). Each command holds the puzzle
// before and after the edit: puzzles are small plain objects, so keeping both is cheap and makes
// undo exact whatever the edit was. The command constructors below are the editor's vocabulary;
// each computes its "after" from the puzzle being edited with the model's pure functions.
//
//   history.execute(renamePiece(target, puzzle, 2, 'Q'));
//
// `target` is { get(): Puzzle, set(Puzzle, fromText) } (editor-actions.js: the store's editor
// slice; fromText says the definition text already shows this puzzle and must not be rewritten).
// Commands of one mergeKey made in quick succession merge (a drag painting cells, typing a name).
import { addPieces, mirrorPiece, normalisePuzzle, resizeBox, rotatePiece, setHoles } from '../model/puzzle.js';

export class EditPuzzleCommand {
  /**
   * @param {{get: () => object, set: (p: object) => void}} target
   * @param {string} name shown as "Undo <name>"
   * @param {object} after the puzzle after the edit
   * @param {string} [mergeKey]
   */
  constructor(target, name, after, mergeKey) {
    this.target = target;
    this.name = name;
    this.before = target.get();
    this.after = after;
    this.mergeKey = mergeKey;
    this.fromText = false; // true until first executed, for a puzzle read from the person's text
  }

  execute() {
    this.target.set(this.after, this.fromText);
    this.fromText = false; // a redo rewrites the text like any other edit
  }

  undo() {
    this.target.set(this.before, false);
  }

  merge(next) {
    this.after = next.after;
    return true;
  }
}

const withPieces = (puzzle, pieces) => ({ ...puzzle, pieces });
const replacePiece = (puzzle, index, piece) => withPieces(puzzle, puzzle.pieces.map((p, i) => (i === index ? piece : p)));

/** Remove (hole = true) or restore cells of the space. `stroke` ties one drag's cells together. */
export function paintCells(target, cells, hole, stroke = 0) {
  const command = new EditPuzzleCommand(target, hole ? 'remove cells' : 'restore cells', setHoles(target.get(), cells, hole), `paint:${stroke}`);
  command.gesture = stroke > 0; // the cells of one drag are one step however slowly it goes
  return command;
}

/** New box size: holes and stationary cells outside it are dropped, the rest keep their place. */
export function resizeBoxCommand(target, xDim, yDim, zDim) {
  const resized = resizeBox(target.get(), xDim, yDim, zDim);
  const inside = ([x, y, z]) => x < xDim && y < yDim && z < zDim;
  resized.pieces = resized.pieces
    .map((piece) => (piece.stationary ? { ...piece, cells: piece.cells.filter(inside) } : piece))
    .filter((piece) => !piece.stationary || piece.cells.length > 0);
  return new EditPuzzleCommand(target, 'resize the box', resized);
}

export function setTitle(target, title) {
  return new EditPuzzleCommand(target, 'change the title', { ...target.get(), title }, 'title');
}

export function setOneSide(target, oneSide) {
  return new EditPuzzleCommand(target, oneSide ? 'make pieces one-sided' : 'let pieces turn over', { ...target.get(), oneSide });
}

/** Add pieces, each with `copies` copies (names made unique against the puzzle's). */
export function addPiecesCommand(target, pieces, copies = 1, name = pieces.length === 1 ? `add piece ${pieces[0].name}` : `add ${pieces.length} pieces`) {
  return new EditPuzzleCommand(target, name, addPieces(target.get(), pieces, copies));
}

export function removePiece(target, index) {
  const p = target.get();
  return new EditPuzzleCommand(target, `delete piece ${p.pieces[index].name}`, withPieces(p, p.pieces.filter((_, i) => i !== index)));
}

export function renamePiece(target, index, name) {
  const p = target.get();
  return new EditPuzzleCommand(target, 'rename a piece', replacePiece(p, index, { ...p.pieces[index], name }), `name:${index}`);
}

export function setPieceCount(target, index, count) {
  const p = target.get();
  return new EditPuzzleCommand(target, `change the copies of ${p.pieces[index].name}`, replacePiece(p, index, { ...p.pieces[index], count }), `count:${index}`);
}

export function setPieceCells(target, index, cells) {
  const p = target.get();
  return new EditPuzzleCommand(target, `redraw piece ${p.pieces[index].name}`, normalisePuzzle(replacePiece(p, index, { ...p.pieces[index], cells })));
}

export function turnPiece(target, index, axis) {
  const p = target.get();
  return new EditPuzzleCommand(target, `rotate piece ${p.pieces[index].name}`, replacePiece(p, index, rotatePiece(p.pieces[index], axis)));
}

export function mirrorPieceCommand(target, index, axis = 'x') {
  const p = target.get();
  return new EditPuzzleCommand(target, `mirror piece ${p.pieces[index].name}`, replacePiece(p, index, mirrorPiece(p.pieces[index], axis)));
}

/** The whole puzzle replaced by one read from the definition text the person is typing. */
export function followText(target, puzzle) {
  const command = new EditPuzzleCommand(target, 'edit the text', puzzle, 'text');
  command.fromText = true;
  return command;
}
