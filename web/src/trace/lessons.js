// The lessons of "Watch the search": each is a page state (a library puzzle, solver options, and
// what to show once the search is recorded) with a few sentences of plain explanation. Each opens
// from a share link (share/link.js, view.lesson) so it can be sent to someone.
import { encodeState } from '../share/link.js';

export const LESSONS = Object.freeze([
  {
    id: 'hole', title: '1. The troublesome hole',
    puzzle: 'pentominoes_10x6.txt', options: '-b 12 -l 20', then: 'hole',
    text: 'De Bruijn\'s method always fills the first empty cell, row by row. That is simple, but it cannot see a hole it makes '
      + 'further along: a cell that no piece can ever fill. It keeps placing pieces around the hole, and only when the fill '
      + 'order reaches it does it find the dead end; then it must back up all the way to the piece that made the hole. '
      + 'The page finds the hole that cost most and plays it from the step that made it.',
  },
  {
    id: 'constrained', title: '2. Most constrained first',
    puzzle: 'pentominoes_10x6.txt', options: '-m 12 -l 20', then: 'deadEnd',
    text: 'The most-constrained-hole method (MCH) fills next the cell with the fewest ways to be filled, so a hole that '
      + 'nothing fits is found at once instead of much later. To see both at once, choose "First open cell (de Bruijn)" '
      + 'under "Compare with another algorithm": both searches, side by side, each up to its own first 20 solutions '
      + '(the two fill orders meet the solutions in different orders), with far fewer dead ends deep in the search for MCH.',
  },
  {
    id: 'symmetry', title: '3. Symmetry',
    puzzle: 'pentominoes_10x6.txt', options: '-r', then: 'none',
    text: 'Every solution of a rectangle comes in four copies: turned end over end, or upside down. Counting rotations as '
      + 'one holds one piece still (here the X, which has only 7 places left instead of 28), so the search finds each '
      + 'solution once: 2,339 instead of 9,356. Press Solve with and without "Count rotations as one".',
  },
  {
    id: 'parity', title: '4. Parity',
    puzzle: 'hexominoes_rect_15x14.txt', options: '-r', then: 'none',
    text: 'Colour the board like a chessboard. Each hexomino covers 3 dark and 3 light cells, or 4 of one colour and 2 '
      + 'of the other, wherever it goes (24 of the 35 are balanced, 11 are not). Each unbalanced one adds 2 or −2 to '
      + '"dark minus light", and eleven such terms can never add up to 0, while a 15×14 rectangle has as many dark cells '
      + 'as light: no placement of the pieces can ever fill it, so the search never needs to start. The board in the view is '
      + 'shaded and the counts are worked out under this text; press Solve: the answer comes at once.',
  },
  {
    id: 'volume', title: '5. Volume',
    puzzle: 'pentominoes_10x6.txt', options: '-o s -v 5 -l 20', then: 'volume',
    text: 'Pentominoes cover cells five at a time, so a region walled off by the pieces placed can only be filled if its '
      + 'size is a multiple of 5. The volume check measures each closed-off region after a placement and backs up at '
      + 'once when one cannot be filled, before trying to fill it.',
  },
]);

export const lessonById = (id) => LESSONS.find((l) => l.id === id) || null;

/** The share-link fragment that opens a lesson. */
export function lessonLink(lesson) {
  return encodeState({ puzzle: { library: lesson.puzzle, index: 0 }, options: lesson.options, view: { lesson: lesson.id } });
}
