// The editor's box sizes: what is typed is taken or refused with the reason, never clamped.
import { describe, expect, test } from 'vitest';
import { boxSizeProblem, MAX_NEW_DIMENSION } from '../../web/src/app/editor-actions.js';

describe('boxSizeProblem', () => {
  test('whole numbers from 1 to the limit are taken as they are', () => {
    expect(boxSizeProblem('5', '4', '1')).toEqual({ dims: [5, 4, 1], invalid: [false, false, false], message: '' });
    expect(boxSizeProblem(MAX_NEW_DIMENSION, 1, ' 7 ').dims).toEqual([MAX_NEW_DIMENSION, 1, 7]);
  });

  test('anything else is marked, field by field, and the message names the limit', () => {
    const big = boxSizeProblem('200', '3', '200');
    expect(big.invalid).toEqual([true, false, true]);
    expect(big.message).toContain(`1 to ${MAX_NEW_DIMENSION}`);
    for (const bad of ['0', '-2', '2.5', '', 'abc', String(MAX_NEW_DIMENSION + 1), 'Infinity']) {
      const p = boxSizeProblem('3', bad, '3');
      expect(p.invalid, bad).toEqual([false, true, false]);
      expect(p.message, bad).not.toBe('');
    }
  });
});
