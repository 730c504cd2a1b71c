// app/search-lock.js: one tab runs a kept search, told by a Web Lock; without Web Locks, yes.
import { describe, expect, test } from 'vitest';
import { LOCK_NAME, SearchLock } from '../../web/src/app/search-lock.js';

/** A LockManager of one origin, as two tabs share it (exclusive locks, ifAvailable, query). */
function fakeLocks() {
  const held = new Set();
  return {
    async request(name, options, callback) {
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
    async query() {
      return { held: [...held].map((name) => ({ name })) };
    },
  };
}

describe('SearchLock', () => {
  test('a second tab cannot hold it while the first does; released, it can', async () => {
    const locks = fakeLocks();
    const one = new SearchLock(locks), two = new SearchLock(locks);
    expect(await one.hold()).toBe(true);
    expect(await one.hold()).toBe(true); // (already held here)
    expect(await two.hold()).toBe(false);
    one.release();
    await new Promise((r) => setTimeout(r, 0));
    expect(await two.hold()).toBe(true);
    expect((await locks.query()).held).toEqual([{ name: LOCK_NAME }]);
    two.release();
  });

  test('without Web Locks every call says yes (one tab, as before)', async () => {
    const none = new SearchLock(undefined);
    expect(await none.hold()).toBe(true);
    none.release();
  });
});
