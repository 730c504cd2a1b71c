// Undo/redo of puzzle edits, after the three.js editor's History: every edit is a command
// object with execute() and undo(); rapid edits of one kind (a drag painting cells, typing a
// name) merge into one step.
//
//   const history = new History({ onChange: () => store.update('history', history.status()) });
//   history.execute(command);   // runs command.execute() and records it
//   history.undo(); history.redo();
//
// A command: { name: 'Remove cells', mergeKey?: string, gesture?: boolean, execute(), undo(),
// merge?(next) }. When the last command has the same mergeKey, was recorded less than MERGE_MS
// ago (or the new one is part of the same gesture: a drag, whose mergeKey names the drag) and
// has a merge(next) method, the next command is executed and folded into it (merge returns
// true) instead of becoming a step of its own.

export const MERGE_MS = 600;
export const MAX_UNDO = 500;

export class History {
  /**
   * @param {object} [o]
   * @param {() => void} [o.onChange] called after every execute/undo/redo/clear
   * @param {() => number} [o.now] clock in ms (tests inject one)
   */
  constructor({ onChange = () => {}, now = () => Date.now() } = {}) {
    this.undos = [];
    this.redos = [];
    this.lastTime = -Infinity;
    this.onChange = onChange;
    this.now = now;
  }

  execute(command) {
    const t = this.now();
    const last = this.undos[this.undos.length - 1];
    command.execute();
    // a gesture (one drag) merges whatever its pace; other edits only when they come quickly
    const mergeable = last && command.mergeKey && last.mergeKey === command.mergeKey &&
      (command.gesture || t - this.lastTime < MERGE_MS) && typeof last.merge === 'function' && last.merge(command);
    if (!mergeable) {
      this.undos.push(command);
      if (this.undos.length > MAX_UNDO) this.undos.shift();
    }
    this.lastTime = t;
    this.redos = [];
    this.onChange();
  }

  undo() {
    const c = this.undos.pop();
    if (!c) return null;
    c.undo();
    this.redos.push(c);
    this.lastTime = -Infinity; // the next edit never merges into an undone step
    this.onChange();
    return c;
  }

  redo() {
    const c = this.redos.pop();
    if (!c) return null;
    c.execute();
    this.undos.push(c);
    this.lastTime = -Infinity;
    this.onChange();
    return c;
  }

  clear() {
    this.undos = [];
    this.redos = [];
    this.lastTime = -Infinity;
    this.onChange();
  }

  /** What the undo/redo buttons show. */
  status() {
    const u = this.undos[this.undos.length - 1];
    const r = this.redos[this.redos.length - 1];
    return { canUndo: !!u, canRedo: !!r, undoName: u ? u.name : '', redoName: r ? r.name : '' };
  }
}
