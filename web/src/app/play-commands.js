// Moves of a person playing a puzzle by hand, as undoable commands (History in history.js, the
// same as the editor's). Each command holds the placements before and after the move: a packing
// is a short list, so keeping both is cheap and makes undo exact.
//
//   history.execute(placePiece(target, { instance: 3, cells: [0, 1, 2, 10, 20] }, 'L'));
//
// `target` is { get(): placements, set(placements) } (play-actions.js: the store's play slice).
// A placement is {instance, cells} (model/play.js); the list is in the order the pieces were
// placed, which "What's wrong?" reads (the newest first), so a moved piece goes to the end.

export class PlayCommand {
  /**
   * @param {{get: () => object[], set: (placed: object[]) => void}} target
   * @param {string} name shown as "Undo <name>"
   * @param {object[]} after the placements after the move
   */
  constructor(target, name, after) {
    this.target = target;
    this.name = name;
    this.before = target.get();
    this.after = after;
  }

  execute() {
    this.target.set(this.after);
  }

  undo() {
    this.target.set(this.before);
  }

  // One gesture (a piece taken off the board and put down elsewhere: mergeKey and gesture set
  // by play-actions.js) is one step to undo, named by its last part ("move L").
  merge(next) {
    this.after = next.after;
    this.name = next.name;
    return true;
  }
}

/** Put a piece on the board (or in the box). */
export function placePiece(target, placement, name) {
  return new PlayCommand(target, `place ${name}`, [...target.get(), placement]);
}

/** Move a placed piece elsewhere: it becomes the newest placement. */
export function movePiece(target, placement, name) {
  return new PlayCommand(target, `move ${name}`, [...target.get().filter((p) => p.instance !== placement.instance), placement]);
}

/** Take pieces off the board (instances), e.g. one picked up, or every piece after the first n. */
export function takeBack(target, instances, name) {
  const gone = new Set(instances);
  return new PlayCommand(target, `take back ${name}`, target.get().filter((p) => !gone.has(p.instance)));
}
