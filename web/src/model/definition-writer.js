// Writes the puzzle model (web/src/model/puzzle.js) as definition text in the reference
// format (docs: /work/shared/docs/def-format.md), so a puzzle made in the editor can be
// downloaded, shared as text, and read back by the CLI and the engine unchanged.
//
//   const text = writeDefinition(puzzle);   // '# Title\nD:xDim=10:yDim=6:zDim=1\nC:name=F:layout=...\n~D\n'
//
// Layout of the text:
//   - the title as the comment line right before the D directive (the engine's title is the
//     first line of the nearest comment block before D, without its '#'s);
//   - the holes as the stationary piece '*': an L block drawn over the box when the box is
//     small enough to read (at most DRAW_LIMIT cells), else one C:name=*:type=S directive
//     (also used when a hole lies outside the box, so that the engine reports it);
//   - every other piece, in the model's order, as one C directive (type=S for stationary
//     pieces; the count=N extension for copies), so the engine's instance order is the
//     model's order with '*' first.
// Round trip: fromEngineJson(parse(writeDefinition(p))) equals p for every valid p
// (tests/js/definition-writer.test.js checks every puzzle in def/).
// The writer does not validate: a puzzle with problems (validatePuzzle) is written as it is,
// and the engine's error for the text names the problem.

import { HOLE_NAME, boxCell, boxVolume } from './puzzle.js';

/** Boxes of at most this many cells get their holes drawn as an L block. */
export const DRAW_LIMIT = 4096;

function layoutText(cells) {
  return cells.map((c) => `${c[0]} ${c[1]} ${c[2]}`).join(', ');
}

// The board as an L block: '*' on the holes, '.' elsewhere; rows from y = yDim-1 down to 0,
// z layers side by side separated by ' , ' (the format's layer separator).
function holeBlock(puzzle) {
  const holes = new Set(puzzle.holes);
  const lines = ['L:stationary=*'];
  for (let y = puzzle.yDim - 1; y >= 0; y--) {
    const layers = [];
    for (let z = 0; z < puzzle.zDim; z++) {
      const row = [];
      for (let x = 0; x < puzzle.xDim; x++) {
        row.push(holes.has(x + puzzle.xDim * (y + puzzle.yDim * z)) ? HOLE_NAME : '.');
      }
      layers.push(row.join(' '));
    }
    lines.push(layers.join(' , '));
  }
  lines.push('~L');
  return lines;
}

/**
 * Definition text for one puzzle (ends with a newline).
 * @param {import('./puzzle.js').Puzzle} puzzle
 * @param {{comment?: string}} [options] comment: extra lines written as comments before the
 *   title (separated from it by a blank line, so the engine still reads the title)
 * @returns {string}
 */
export function writeDefinition(puzzle, { comment } = {}) {
  const lines = [];
  if (comment) {
    for (const line of String(comment).split(/\r\n|\r|\n/)) lines.push(line ? `# ${line}` : '#');
    lines.push('');
  }
  if (puzzle.title) lines.push(`# ${puzzle.title}`);
  lines.push(`D:xDim=${puzzle.xDim}:yDim=${puzzle.yDim}:zDim=${puzzle.zDim}${puzzle.oneSide ? ':oneSide' : ''}`);
  if (puzzle.holes.length > 0) {
    const volume = boxVolume(puzzle);
    // A hole outside the box cannot be drawn: the C form writes it, and the engine names it.
    const drawable = volume <= DRAW_LIMIT && puzzle.holes.every((h) => Number.isInteger(h) && h >= 0 && h < volume);
    if (drawable) {
      lines.push('# The space: \'*\' marks the cells removed from the box.');
      lines.push(...holeBlock(puzzle));
    } else {
      lines.push(`C:name=${HOLE_NAME}:type=S:layout=${layoutText(puzzle.holes.map((h) => boxCell(puzzle, h)))}`);
    }
  }
  for (const p of puzzle.pieces) {
    let line = `C:name=${p.name}`;
    if (p.stationary) line += ':type=S';
    if (p.count !== 1) line += `:count=${p.count}`;
    line += `:layout=${layoutText(p.cells)}`;
    lines.push(line);
  }
  lines.push('~D');
  return `${lines.join('\n')}\n`;
}

/**
 * A file name for downloading the definition: the title in lower case, runs of anything
 * but letters and digits as '_', at most 60 characters; 'puzzle.txt' for an empty title.
 * @param {import('./puzzle.js').Puzzle} puzzle
 */
export function definitionFileName(puzzle) {
  const base = String(puzzle.title || '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents split off by NFKD
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60)
    .replace(/_+$/, '');
  return `${base || 'puzzle'}.txt`;
}
