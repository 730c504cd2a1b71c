// The application state: one plain object, replaced slice by slice, that tells listeners what
// changed. The DOM is never the state: panels render from here and change it only through actions.
//
//   const store = new Store(initialState());
//   store.subscribe(['run', 'solutions'], (state, changed) => render(state));
//   store.update('run', { phase: 'running' });   // shallow-merges into state.run, notifies
//   store.get().run.phase;
//
// Slices are replaced, never mutated in place, so a listener can compare old and new by identity.
// Notifications are synchronous and in subscription order; a listener may update the store
// (the nested change is delivered after the current round, never lost). Listeners always get the
// current state, so a later listener of the same round already sees a nested change.

export class Store {
  /** @param {object} initial the whole state, one key per slice */
  constructor(initial) {
    this.state = { ...initial };
    this.listeners = [];
    this.pending = null; // keys changed while listeners run
  }

  get() {
    return this.state;
  }

  /**
   * Listen to changes of some slices (or every slice with '*').
   * @param {string[]|'*'} keys
   * @param {(state: object, changed: Set<string>) => void} fn
   * @returns {() => void} unsubscribe
   */
  subscribe(keys, fn) {
    const entry = { keys: keys === '*' ? null : new Set(keys), fn };
    this.listeners.push(entry);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== entry);
    };
  }

  /** Shallow-merge `patch` into slice `key` (a non-object value replaces it). */
  update(key, patch) {
    const old = this.state[key];
    const next = patch !== null && typeof patch === 'object' && !Array.isArray(patch) && old && typeof old === 'object' && !Array.isArray(old)
      ? { ...old, ...patch }
      : patch;
    this.replace({ [key]: next });
  }

  /** Replace several slices at once (one notification round). */
  replace(slices) {
    const changed = Object.keys(slices);
    if (changed.length === 0) return;
    this.state = { ...this.state, ...slices };
    this.notify(changed);
  }

  notify(keys) {
    if (this.pending) {
      for (const k of keys) this.pending.add(k);
      return;
    }
    this.pending = new Set(keys);
    try {
      while (this.pending.size > 0) {
        const changed = this.pending;
        this.pending = new Set();
        for (const l of [...this.listeners]) {
          if (l.keys && ![...changed].some((k) => l.keys.has(k))) continue;
          l.fn(this.state, changed);
        }
      }
    } finally {
      this.pending = null;
    }
  }
}
