// The solver's account of how it configured a search (the engine's statistics: configuration,
// redundancyFilter; what `polycube -i` prints as CONFIGURATION= and REDUNDANCY_FILTER=) said in
// plain words for the last lesson, each part tied to the lesson that explains it. Parts the
// words do not know are left out here; the lesson's Details show the engine's text whole.
//
//   configParts('automatic: DLX, FILA when 11 pieces remain with NOF, heuristics s=12:e=11:c=2')  // ['It starts with dancing links…', …]
//   configWords(text)                                                    // the same as one sentence
//   fixedPieceWords('L (12 of 288 images kept, 24 symmetries); chosen by Monte Carlo probes, ...')

const HEURISTICS = {
  s: 'the cell or piece with the fewest ways left (the most constrained, lesson 2)',
  f: 'the first empty cell (lesson 1)',
  e: 'the cell it estimates to be the most constrained, counting its empty neighbours first',
  c: 'the cell with the fewest empty neighbours',
};

/** Split at top-level commas (not those inside parentheses). */
function parts(text) {
  const out = [];
  let depth = 0, from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out.filter(Boolean);
}

/** "with 12 pieces left: A; from 11: B; for the last 2: C" from "s=12:e=11:c=2". */
function heuristicWords(spec) {
  const steps = spec.split(':').map((x) => /^([a-z])=(\d+)$/.exec(x)).filter(Boolean);
  if (!steps.length) return '';
  return steps.map(([, letter, n], k) => {
    const what = HEURISTICS[letter] || `rule ${letter}`;
    return k === 0 ? `it fills first ${what}` : `from ${n} pieces left, ${what}`;
  }).join('; ');
}

/** The parts of the engine's configuration in words, each a sentence ([] when none is known). */
export function configParts(text) {
  if (typeof text !== 'string' || !text.trim()) return [];
  const said = [];
  for (const part of parts(text.replace(/^automatic:\s*/, ''))) {
    let m;
    if (part === 'DLX') said.push('it starts with dancing links, the table of rows and columns (lesson 3)');
    else if ((m = /^FILA when (\d+) pieces? remains?( with NOF)?/.exec(part))) {
      said.push(`when ${m[1]} pieces are left it switches to a leaner method that fills one cell at a time${m[2] ? ', and skips any placement that leaves a neighbouring cell no way to be filled' : ''}`);
    } else if (/^volume filter once/.test(part)) said.push('before searching it throws out every placement that walls off a region no pieces can fill (volume, lesson 4)');
    else if (/^parity filter once/.test(part)) said.push('before searching it throws out every placement that makes the colours impossible to balance (parity, lesson 4)');
    else if (/^volume trigger/.test(part)) said.push('it checks the sizes of walled-off regions after each placement (volume, lesson 4)');
    else if (/^parity trigger/.test(part)) said.push('it checks the colours of the cells left after each placement (parity, lesson 4)');
    else if ((m = /^heuristics (\S+)/.exec(part))) {
      const w = heuristicWords(m[1]);
      if (w) said.push(w);
    }
  }
  return said.map((x) => `${x.charAt(0).toUpperCase()}${x.slice(1)}.`);
}

/** Sentences for the engine's configuration text ('' when it says nothing the words know). */
export function configWords(text) {
  const said = configParts(text);
  return said.length ? `${/^automatic:/.test(text) ? 'It chose for itself. ' : ''}${said.join(' ')}` : '';
}

/** Words for the piece held still to count each solution once (-r), or '' when none is. */
export function fixedPieceWords(text) {
  const m = /^(\S+) \((\d+) of (\d+) images kept, (\d+) symmetries\)/.exec(typeof text === 'string' ? text : '');
  if (!m) return '';
  const [, name, kept, all, turns] = m;
  const why = /Monte Carlo/.test(text) ? ' It picked this piece because random dives (lesson 6) estimated its search to be the cheapest.' : '';
  return `Piece ${name} is held still: ${kept} of its ${all} positions are kept, none of them a turn of another, so each of the box's ${turns} turns of a solution is found once (lesson 5).${why}`;
}
