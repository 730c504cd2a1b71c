// One kept search runs in one tab at a time (two tabs resuming the same kept search would
// each run at a fraction of the speed). A Web Lock (navigator.locks, shared by the tabs and windows of one
// origin) is held while a kept search runs: from the moment it is kept or resumed until it
// ends. Where the browser has no Web Locks, every call says yes.
//
//   const lock = new SearchLock(navigator.locks);
//   if (!(await lock.hold())) say('it runs in another tab');   // held until release()
//   lock.release();
export const LOCK_NAME = 'polycube-kept-search';

export class SearchLock {
  /** @param {LockManager|null|undefined} locks */
  constructor(locks) {
    this.locks = locks && typeof locks.request === 'function' ? locks : null;
    this.releaseHeld = null; // resolves the held lock's callback (releases it)
  }

  /** Take the lock if no other tab holds it; true when this tab holds it now. */
  hold() {
    if (!this.locks) return Promise.resolve(true);
    if (this.releaseHeld) return Promise.resolve(true);
    return new Promise((answer) => {
      this.locks.request(LOCK_NAME, { ifAvailable: true }, (lock) => {
        if (!lock) {
          answer(false);
          return undefined;
        }
        answer(true);
        // held until release(): the callback's promise is the lock's life
        return new Promise((release) => { this.releaseHeld = release; });
      }).catch(() => answer(true)); // (a browser refusing locks: as without them)
    });
  }

  release() {
    if (this.releaseHeld) this.releaseHeld();
    this.releaseHeld = null;
  }
}
