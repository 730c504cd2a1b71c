// The Play card: solve the puzzle yourself, with hints. The tray of pieces not placed (drag one
// onto the view, or tap it and then tap where it goes), the piece in hand (turn, flip, tip, the
// layer it goes on in a box), undo/redo, whether the pieces placed can still be finished and in
// how many ways, Hint, What's wrong?, the library's challenges, and a link to the game.
// Renders state.play; changes it through PlayActions (app/play-actions.js).
//
// Keys while playing (outside text fields): R turns the piece in hand, F flips it (a box: turns
// it about y), T tips it (a box), arrows move it, Enter puts it down, Escape puts it back,
// PageUp/PageDown change the layer (a box), Ctrl+Z / Ctrl+Y undo and redo.
import { COUNT_LIMIT } from '../app/play-actions.js';
import { num, percentText, plural } from '../app/format.js';
import { challengesFor, GRADE_WORDS } from '../ui/challenges.js';
import { puzzleColors } from '../viewer/colors.js';
import { byId, h, isTyping, setAttr, setProp, setText } from './dom.js';
import { pieceIcon } from './piece-icon.js';

export function mountPlayPanel(store, play, playStage, sync) {
  const body = byId('play-body');
  const card = byId('play-card');
  const button = (id, text, onclick, extra = {}) => h('button', { type: 'button', id, onclick, ...extra }, text);

  const intro = h('p', { className: 'hint', id: 'play-intro' }, 'Place the pieces yourself. The page says whether they can still be finished, gives a hint, and finds the piece that is in the way.');
  const start = button('play-start', 'Play this puzzle', () => play.open());
  const challengeList = h('div', { className: 'challenges', id: 'play-challenges', role: 'group', 'aria-label': 'Challenges' });
  const challengeHead = h('p', { className: 'hint', id: 'play-challenges-head' }, 'Challenges: some pieces are placed for you, and there is exactly one way to finish.');

  const status = h('p', { className: 'status', id: 'play-status', role: 'status', 'aria-live': 'polite' });
  const rule = h('p', { className: 'hint', id: 'play-rule' }, 'Every way counts: a solution turned or mirrored is another way here, as the pieces on the board hold it still.');
  const tray = h('div', { className: 'play-tray', id: 'play-tray', role: 'group', 'aria-label': 'Pieces to place' });
  const handName = h('span', { id: 'play-hand-name' });
  const turn = button('play-turn', 'Turn', () => play.turn('z'), { title: 'Turn the piece in hand a quarter turn (R)', 'aria-keyshortcuts': 'R' });
  const flip = button('play-flip', 'Flip', () => flipOrRoll(), { title: 'Turn the piece over (F)', 'aria-keyshortcuts': 'F' });
  const tip = button('play-tip', 'Tip', () => play.turn('x'), { title: 'Tip the piece forward (T)', 'aria-keyshortcuts': 'T' });
  const putBack = button('play-put-back', 'Put back', () => play.drop(), { className: 'quiet', title: 'Put the piece back in the tray (Escape)', 'aria-keyshortcuts': 'Escape' });
  const handRow = h('div', { className: 'row play-hand', id: 'play-hand' }, h('span', { className: 'play-hand-label' }, 'In hand: ', handName), turn, flip, tip, putBack);
  const layerDown = button('play-layer-down', '▼', () => play.setLayer(store.get().play.layer - 1), { 'aria-label': 'Layer below (Page Down)', 'aria-keyshortcuts': 'PageDown' });
  const layerUp = button('play-layer-up', '▲', () => play.setLayer(store.get().play.layer + 1), { 'aria-label': 'Layer above (Page Up)', 'aria-keyshortcuts': 'PageUp' });
  const layerText = h('span', { id: 'play-layer', 'aria-live': 'polite' });
  const layerRow = h('div', { className: 'row play-layer-row' }, h('span', {}, 'Pieces go on '), layerText, layerDown, layerUp);
  const undo = button('play-undo', 'Undo', () => play.undo(), { 'aria-keyshortcuts': 'Control+Z' });
  const redo = button('play-redo', 'Redo', () => play.redo(), { 'aria-keyshortcuts': 'Control+Y' });
  const clear = button('play-clear', 'Clear', () => play.clear(), { className: 'quiet', title: 'Take every piece you placed off the board' });
  const hintButton = button('play-hint', 'Hint', () => play.hint(), { title: 'Show one more piece of a way to finish' });
  const wrongButton = button('play-wrong', "What's wrong?", () => play.whatsWrong(), { title: 'Find the piece that stands in the way of a finish' });
  const whereButton = button('play-where', 'Where can it go?', () => play.where(), { title: 'Show the places for the piece in hand that can still be finished, the best first' });
  const nextPlace = button('play-next-place', 'Next place', () => play.nextPlace(), { hidden: true, title: 'Show the next place for the piece, with fewer or as many ways to finish' });
  const answer = h('p', { className: 'play-answer', id: 'play-answer', role: 'status', 'aria-live': 'polite' });
  const follow = button('play-follow', '', () => followAnswer(), { hidden: true });
  const message = h('p', { className: 'field-error', id: 'play-message', role: 'alert' });
  const copy = button('play-copy', 'Copy link', () => copyLink(), { title: 'A link that opens this game: can you finish it?' });
  const copied = h('span', { className: 'hint', id: 'play-copied', role: 'status' });
  const stop = button('play-stop', 'Stop playing', () => play.close(), { className: 'quiet' });
  const game = h('div', { id: 'play-game', hidden: true },
    status, rule, tray, handRow, layerRow,
    h('div', { className: 'row' }, undo, redo, clear),
    h('div', { className: 'row' }, hintButton, wrongButton),
    h('div', { className: 'row' }, whereButton),
    answer, h('div', { className: 'row' }, follow, nextPlace), message,
    h('div', { className: 'row' }, copy, stop, copied));
  body.replaceChildren(intro, start, game, challengeHead, challengeList);

  const flipOrRoll = () => (play.puzzle && play.puzzle.zDim > 1 ? play.turn('y') : play.flip());
  let followAction = null;
  const followAnswer = () => { if (followAction) followAction(); };
  let shownKind = ''; // the kind of answer last shown (a new one is scrolled into view)
  async function copyLink() {
    const url = sync.currentUrl();
    try {
      await navigator.clipboard.writeText(url);
      setText(copied, 'Link copied.');
    } catch {
      setText(copied, 'The browser did not allow copying: the address bar holds the link.');
    }
  }

  // ---- keyboard ----
  window.addEventListener('keydown', (e) => {
    const s = store.get();
    if (!s.play.active || e.defaultPrevented || e.altKey || isTyping(e)) return;
    const k = e.key;
    const hand = s.play.hand;
    const onButton = e.target && e.target.tagName === 'BUTTON';
    if (e.ctrlKey || e.metaKey) {
      const lower = k.toLowerCase();
      if (lower === 'z' && !e.shiftKey) play.undo();
      else if ((lower === 'z' && e.shiftKey) || lower === 'y') play.redo();
      else return;
    } else if (k === 'r' || k === 'R') play.turn('z');
    else if (k === 'f' || k === 'F') flipOrRoll();
    else if ((k === 't' || k === 'T') && play.puzzle && play.puzzle.zDim > 1) play.turn('x');
    else if (k === 'Escape' && hand) play.drop();
    else if (k === 'PageUp' && play.puzzle && play.puzzle.zDim > 1) play.setLayer(s.play.layer + 1);
    else if (k === 'PageDown' && play.puzzle && play.puzzle.zDim > 1) play.setLayer(s.play.layer - 1);
    else if (hand && k.startsWith('Arrow')) play.moveCursor({ ArrowLeft: -1, ArrowRight: 1 }[k] || 0, { ArrowUp: 1, ArrowDown: -1 }[k] || 0);
    else if (hand && k === 'Enter' && !onButton) play.placeAt();
    else return;
    e.preventDefault(); // (the solutions' arrows and Escape's cancel leave the key alone)
  }, true);

  // ---- rendering ----
  let wasActive = false;
  let trayFor = null;
  let trayButtons = new Map();
  let challengesShown = null;
  store.subscribe(['play', 'puzzles', 'puzzleIndex', 'source', 'editor'], (s) => {
    const ps = s.play;
    const p = s.puzzles[s.puzzleIndex] || null;
    setProp(start, 'hidden', ps.active);
    setProp(start, 'disabled', !p || s.editor.active);
    setProp(intro, 'hidden', ps.active);
    setProp(game, 'hidden', !ps.active);
    card.classList.toggle('playing', ps.active);
    // a game just opened (a button, a challenge, a link): the card comes into sight, below the
    // view on a phone, so that its tray is at hand
    if (ps.active && !wasActive) requestAnimationFrame(() => card.scrollIntoView({ block: 'nearest' }));
    wasActive = ps.active;

    // challenges of the library puzzle on screen
    const list = s.source.kind === 'library' ? challengesFor(s.source.file, s.puzzleIndex) : [];
    const listKey = `${s.source.file}:${s.puzzleIndex}:${ps.challenge}`;
    if (listKey !== challengesShown) {
      challengesShown = listKey;
      challengeList.replaceChildren(...list.map((c, k) => h('button', {
        type: 'button', className: `challenge grade-${c.grade}`, dataset: { challenge: c.id },
        'aria-pressed': String(ps.challenge === c.id),
        title: `${plural(c.given.length, 'piece')} placed for you; the engine needed ${plural(c.placements, 'placement')} to solve it`,
        onclick: () => play.startChallenge(c.id),
      }, `${k + 1} · ${GRADE_WORDS[c.grade]}`)));
    }
    setProp(challengeList, 'hidden', list.length === 0);
    setProp(challengeHead, 'hidden', list.length === 0);
    if (!ps.active || !play.puzzle) return;
    const pz = play.puzzle;

    // the tray: one button per piece not placed (the piece in hand stays, pressed)
    if (trayFor !== pz) {
      trayFor = pz;
      const { byPiece } = puzzleColors(pz);
      trayButtons = new Map();
      const items = [];
      pz.instances.forEach((inst, i) => {
        if (inst.stationary) return;
        const piece = pz.pieces[inst.piece];
        const b = h('button', {
          type: 'button', className: 'tray-piece', dataset: { instance: String(i) }, 'aria-pressed': 'false',
          title: `${inst.name}: drag it onto the board, or tap it and then tap where it goes`,
          // a mouse drags the piece from here (play-stage.js); a finger taps it, then the board
          // (a swipe over the tray scrolls the page), and the keyboard's Enter or Space picks it
          onpointerdown: (e) => playStage.carryFromTray(i, e, b),
          onclick: (e) => { if (e.pointerType !== 'mouse') play.pick(i); },
        }, pieceIcon(piece.cells, byPiece.get(inst.piece), 28), h('span', { className: 'legend-name' }, inst.name));
        trayButtons.set(i, b);
        items.push(b);
      });
      tray.replaceChildren(...items);
    }
    const placed = new Set(ps.placed.map((q) => q.instance));
    for (const [i, b] of trayButtons) {
      setProp(b, 'hidden', placed.has(i));
      setAttr(b, 'aria-pressed', String(!!ps.hand && ps.hand.instance === i));
    }
    const left = pz.instances.filter((inst) => !inst.stationary).length - ps.placed.length;
    setProp(tray, 'hidden', left === 0);

    // the piece in hand
    setProp(handRow, 'hidden', !ps.hand);
    setText(handName, ps.hand ? play.nameOf(ps.hand.instance) : '');
    setProp(flip, 'hidden', pz.oneSide);
    setProp(tip, 'hidden', pz.zDim === 1);
    setText(flip, pz.zDim > 1 ? 'Roll' : 'Flip');
    setProp(flip, 'title', pz.zDim > 1 ? 'Roll the piece a quarter turn to the side (F)' : 'Turn the piece over (F)');
    setProp(layerRow, 'hidden', pz.zDim === 1);
    setText(layerText, `layer ${ps.layer + 1} of ${pz.zDim}`);
    setProp(layerDown, 'disabled', ps.layer === 0);
    setProp(layerUp, 'disabled', ps.layer >= pz.zDim - 1);

    setProp(undo, 'disabled', !ps.history.canUndo);
    setProp(redo, 'disabled', !ps.history.canRedo);
    setProp(undo, 'title', ps.history.canUndo ? `Undo ${ps.history.undoName} (Ctrl+Z)` : 'Nothing to undo');
    setProp(redo, 'title', ps.history.canRedo ? `Redo ${ps.history.redoName} (Ctrl+Y)` : 'Nothing to redo');
    setProp(clear, 'disabled', ps.placed.length <= ps.given);

    const solved = left === 0 && ps.count && ps.count.status === 'done' && ps.count.completions === 1;
    setText(status, statusText(ps, solved));
    status.dataset.play = statusKind(ps, solved); // (its dot's colour: styles.css)
    card.dataset.count = ps.count ? `${ps.count.status}:${ps.count.completions ?? ''}` : '';
    setProp(hintButton, 'disabled', left === 0);
    setProp(wrongButton, 'disabled', ps.placed.length <= ps.given);
    setProp(whereButton, 'disabled', !ps.hand);
    setText(whereButton, ps.hand ? `Where can ${play.nameOf(ps.hand.instance)} go?` : 'Where can it go?');
    setProp(whereButton, 'title', ps.hand ? `Show the places for ${play.nameOf(ps.hand.instance)} that can still be finished, the best first`
      : 'Pick a piece first: then see where it can go');

    const said = answerOf(ps, play);
    setText(answer, said.text);
    card.dataset.answer = said.kind;
    followAction = said.action || null;
    setProp(follow, 'hidden', !said.action);
    setText(follow, said.label || '');
    setProp(nextPlace, 'hidden', !said.next);
    // A new answer is brought into the card's view: asked from the bottom of a short sidebar
    // it would land below the fold, its button unseen.
    if (said.kind && said.kind !== shownKind) {
      const target = said.action ? follow : answer;
      if (target.scrollIntoView) target.scrollIntoView({ block: 'nearest' });
    }
    shownKind = said.kind;
    setText(message, ps.message);
    setProp(message, 'hidden', !ps.message);
  });
}

/** Whether the pieces placed can still be finished, and in how many ways. */
function statusText(ps, solved) {
  const c = ps.count;
  if (solved) return 'Solved! Every piece is in place.';
  if (!c) return '';
  if (c.status === 'counting') {
    // (the share of the search is a poor guide when the count stops at its cap: both are said)
    const said = [c.soFar ? `${num(c.soFar)} so far` : '', c.fraction >= 0.01 ? `${Math.floor(c.fraction * 100)}% searched` : ''].filter(Boolean);
    return `Counting the ways to finish…${said.length ? ` ${said.join(', ')}` : ''}`;
  }
  if (c.status === 'failed') return `Could not count the ways to finish: ${c.error}`;
  if (c.completions === 0) return "This can no longer be finished: undo, or ask What's wrong?";
  // (exact: past the cap the engine counted them all by remembering subproblems)
  if (c.capped && !c.exact) return `Can still be finished: more than ${num(c.limit || COUNT_LIMIT)} ways.`;
  return c.completions === 1 ? 'Can still be finished: exactly one way.' : `Can still be finished: ${num(c.completions)} ways.`;
}

/** The kind of statusText: 'solved', 'open' (can be finished), 'dead', 'counting', 'failed' or ''. */
function statusKind(ps, solved) {
  const c = ps.count;
  if (solved) return 'solved';
  if (!c) return '';
  if (c.status === 'counting' || c.status === 'failed') return c.status;
  return c.completions === 0 ? 'dead' : 'open';
}

/** What the last Hint, What's wrong? or Where can it go? said, and the button that does it
 * ({text, kind, label, action, next: whether Next place applies}). */
function answerOf(ps, play) {
  const where = ps.where;
  if (where) {
    const name = play.nameOf(where.instance);
    if (where.status === 'weighing') return { kind: 'weighing', text: `Weighing every place for ${name}…${where.fraction >= 0.01 ? ` ${Math.floor(where.fraction * 100)}%` : ''}` };
    if (where.status === 'failed') return { kind: 'failed', text: `Could not weigh the places for ${name}: ${where.error}` };
    const n = where.places.length;
    if (n === 0) return { kind: 'nowhere', text: `${name} has no place left that can still be finished: undo, or ask What's wrong?` };
    const place = where.places[where.index];
    const share = where.completions > 0 ? place.completions / where.completions : 0;
    const rank = where.index === 0 ? (n === 1 ? 'the only place' : 'the best place') : `place ${where.index + 1} of ${n}`;
    const text = `${name} fits ${plural(n, 'place')} that can still be finished. Shown (pale blocks): ${rank}, in ${num(place.completions)} of the ${num(where.completions)} ways to finish (${percentText(share)}). The dots: where ${name} lies in the ways to finish, bigger where it does in more.`;
    return { kind: 'where', text, label: `Place ${name} there`, action: () => play.placeWhere(), next: n > 1 };
  }
  const w = ps.wrong;
  if (w) {
    if (w.status === 'checking') return { kind: 'checking', text: `Looking for the piece in the way…${w.fraction > 0 ? ` ${Math.floor(w.fraction * 100)}%` : ''}` };
    if (w.status === 'failed') return { kind: 'failed', text: `Could not look: ${w.error}` };
    if (w.completable) return { kind: 'fine', text: 'Nothing is wrong yet: the pieces placed can still be finished.' };
    if (w.culprit >= 0) {
      const name = play.nameOf(w.culprit);
      return { kind: 'culprit', text: `${name} is in the way (framed in red): without it, the rest can still be finished.`, label: `Take ${name} away`, action: () => play.followWrong() };
    }
    const mine = ps.placed.length - ps.given;
    const keep = Math.max(0, w.keep - ps.given);
    if (keep === 0) return { kind: 'keep', text: `No single piece is in the way, and none of ${mine === 1 ? 'the piece' : `the ${num(mine)} pieces`} you placed can stay: start again.`, label: 'Take them away', action: () => play.followWrong() };
    return { kind: 'keep', text: `No single piece is in the way: the first ${plural(keep, 'piece')} you placed can still be finished; the ones after them (framed in red) cannot.`, label: 'Take those away', action: () => play.followWrong() };
  }
  const hint = ps.hint;
  if (hint) {
    if (hint.status === 'searching') return { kind: 'searching', text: 'Looking for a way to finish…' };
    if (hint.status === 'failed') return { kind: 'failed', text: `Could not find a hint: ${hint.error}` };
    if (hint.status === 'none') return { kind: 'none', text: "No way to finish keeps every piece where it is: ask What's wrong?" };
    const name = play.nameOf(hint.instance);
    return { kind: 'hint', text: `Hint: ${name} goes where the pale blocks are.`, label: `Place ${name} there`, action: () => play.placeHint() };
  }
  return { kind: '', text: '' };
}
