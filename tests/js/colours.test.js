// viewer/colors.js: the pieces' colours, and the colour slots the editor carries from one edit
// to the next (QA: deleting a piece recoloured every piece after it).
import { describe, expect, test } from 'vitest';
import { applyColourSlots, carryColourSlots, pieceColours, slotsByName } from '../../web/src/viewer/colors.js';

const piece = (name, stationary = false) => ({ name, stationary });

describe('colour slots', () => {
  test('without a previous puzzle, the slots are the mobile pieces\' order', () => {
    expect(carryColourSlots(null, null, [piece('A'), piece('*', true), piece('B')])).toEqual([0, null, 1]);
  });

  test('a deletion leaves the others their slots; a new piece takes the lowest free one', () => {
    const [f, i, l] = [piece('F'), piece('I'), piece('L')];
    const after = carryColourSlots([f, i, l], [0, 1, 2], [i, l]); // F deleted
    expect(after).toEqual([1, 2]);
    expect(carryColourSlots([i, l], after, [i, l, piece('N')])).toEqual([1, 2, 0]);
  });

  test('a renamed or turned piece (a new object) keeps its slot: by name, else by place', () => {
    const [a, b] = [piece('A'), piece('B')];
    expect(carryColourSlots([a, b], [4, 7], [{ ...a }, { ...b }])).toEqual([4, 7]); // turned: same names
    expect(carryColourSlots([a, b], [4, 7], [a, piece('Bee')])).toEqual([4, 7]); // renamed in place
    // reordered by the text: the names find their slots
    expect(carryColourSlots([a, b], [4, 7], [piece('B'), piece('A')])).toEqual([7, 4]);
  });

  test('the colours follow the slots, the palette sized by the highest one', () => {
    const plain = pieceColours([piece('A'), piece('B'), piece('C')]);
    const gap = pieceColours([{ ...piece('B'), colourSlot: 1 }, { ...piece('C'), colourSlot: 2 }]);
    expect(gap).toEqual(plain.slice(1)); // B and C as before A was deleted
    expect(pieceColours([piece('*', true), piece('A')])[0]).toBe(pieceColours([piece('*', true)])[0]); // stationary: neutral
  });

  test('slots by name, and a loaded puzzle given them', () => {
    const pieces = [piece('*', true), piece('B'), piece('C')];
    expect(slotsByName(pieces, [null, 1, 2])).toEqual({ B: 1, C: 2 });
    expect(slotsByName(pieces, [null, 1, null])).toBeNull();
    const loaded = applyColourSlots({ pieces }, { B: 1, C: 2 });
    expect(loaded.pieces.map((p) => p.colourSlot)).toEqual([undefined, 1, 2]);
    expect(applyColourSlots({ pieces }, { B: 1 })).toEqual({ pieces }); // not every piece: as it was
  });
});
