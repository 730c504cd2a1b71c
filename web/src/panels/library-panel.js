// The puzzle picker: the library (grouped by how long a search takes), "Custom definition", the
// puzzle within a multi-puzzle file, and a line about the loaded puzzle.
import { TIER_LABEL } from '../ui/library.js';
import { CUSTOM, PHASE } from '../app/state.js';
import { dimsText, num, titleOf } from '../app/format.js';
import { byId, h, setProp } from './dom.js';
import { MINE_PREFIX } from '../app/actions.js';
import { shownPuzzle } from '../app/selectors.js';

const pickerValue = (source) => (source.kind === 'mine' ? MINE_PREFIX + source.id : source.kind === 'custom' ? CUSTOM : source.file);

const EDITING = 'editing:'; // (no library file or My puzzles id looks like it)

const GROUP_OF_TIER = { fast: 'Quick', slow: 'Takes a while', bench: 'Long searches' };

export function mountLibraryPanel(store, actions, editor) {
  const el = { library: byId('library'), pickRow: byId('puzzle-pick-row'), pick: byId('puzzle-pick'), info: byId('puzzle-info'), forget: byId('forget-mine') };

  const groups = new Map();
  for (const e of actions.entries) {
    const label = GROUP_OF_TIER[e.tier] || 'More';
    if (!groups.has(label)) groups.set(label, h('optgroup', { label }));
    groups.get(label).append(h('option', { value: e.file }, e.title));
  }
  // while the editor shows a puzzle of its own, the picker names that one, not the puzzle
  // left behind (picking any entry leaves the editor)
  const editingOption = h('option', { value: EDITING, disabled: true });
  const showValue = (s) => {
    const editing = shownPuzzle(s).editing;
    if (editing) {
      editingOption.textContent = `Editing: ${titleOf(s.editor.puzzle.title)}`;
      if (el.library.firstChild !== editingOption) el.library.prepend(editingOption);
    } else editingOption.remove();
    setProp(el.library, 'value', editing ? EDITING : pickerValue(s.source));
  };
  const mine = h('optgroup', { label: 'My puzzles' });
  groups.set('Your own', h('optgroup', { label: 'Your own' }, h('option', { value: CUSTOM }, 'Custom definition')));
  el.library.replaceChildren(...groups.values());

  // The editor closes first: the stage must show the puzzle picked, the one Solve searches.
  // (The value is read before: closing saves the editor's puzzle in My puzzles, and that
  // redraw puts the picker back on the puzzle loaded.)
  el.library.addEventListener('change', () => {
    const file = el.library.value;
    editor.leaveFor();
    actions.selectLibrary(file);
  });
  el.pick.addEventListener('change', () => {
    const index = Number(el.pick.value);
    editor.leaveFor();
    actions.selectPuzzle(index);
  });

  // Forget removes a saved puzzle from the library. The puzzle stays on screen, and the notice
  // says how to keep it after all.
  el.forget.addEventListener('click', () => {
    const s = store.get();
    if (s.source.kind !== 'mine') return;
    const title = titleOf(s.source.title);
    actions.removeMine(s.source.id);
    store.update('notice', `"${title}" was removed from My puzzles. It is still on screen: Load definition saves it again, Download puzzle keeps it as a file.`);
    el.library.focus();
  });

  store.subscribe(['myPuzzles'], (s) => {
    mine.replaceChildren(...s.myPuzzles.map((p) => h('option', { value: MINE_PREFIX + p.id }, titleOf(p.title))));
    if (s.myPuzzles.length > 0 && !mine.parentNode) el.library.insertBefore(mine, el.library.lastChild);
    if (s.myPuzzles.length === 0) mine.remove();
    showValue(s);
  });

  store.subscribe(['source', 'puzzles', 'puzzleIndex', 'run', 'editor'], (s, changed) => {
    showValue(s);
    setProp(el.library, 'disabled', s.run.phase === PHASE.LOADING);
    // (not while the editor shows a puzzle of its own: it would remove the one loaded, not the
    // one on the stage)
    setProp(el.forget, 'hidden', s.source.kind !== 'mine' || shownPuzzle(s).editing);
    if (changed.has('puzzles')) {
      el.pick.replaceChildren(...s.puzzles.map((p, i) => h('option', { value: String(i) }, `${i + 1}. ${p.title || 'Untitled'} (${dimsText(p)})`)));
      setProp(el.pickRow, 'hidden', s.puzzles.length < 2);
    }
    setProp(el.pick, 'value', String(s.puzzleIndex));
    const editing = shownPuzzle(s).editing;
    if (changed.has('puzzles') || changed.has('puzzleIndex') || changed.has('source') || editing !== infoEditing) renderInfo(s, editing);
  });

  let infoEditing = false;
  function renderInfo(s, editing) {
    infoEditing = editing;
    if (editing) {
      // (the line described the puzzle left behind, beside the editor's own on the stage)
      el.info.replaceChildren('The puzzle being edited is on the stage; picking one here leaves the editor.');
      return;
    }
    const p = s.puzzles[s.puzzleIndex];
    if (!p) {
      el.info.replaceChildren();
      return;
    }
    const n = p.instances.filter((i) => !i.stationary).length;
    const freeCells = p.pieces.filter((x) => !x.stationary).reduce((sum, x) => sum + x.cells.length * (x.count || 1), 0);
    const kind = p.zDim > 1 ? `${dimsText(p)} box` : `${dimsText(p)} board`;
    const parts = [h('strong', {}, kind), ` · ${n} piece${n === 1 ? '' : 's'} · ${freeCells} cells${p.oneSide ? ' · one-sided' : ''}`];
    const entry = actions.currentEntry();
    if (entry && s.puzzles.length === 1) {
      const known = [];
      if (entry.counts['-r'] !== undefined) known.push(`${num(entry.counts['-r'])} counting rotations as one`);
      if (entry.counts[''] !== undefined) known.push(`${num(entry.counts[''])} in all`);
      const tier = entry.tier && TIER_LABEL[entry.tier] ? h('span', { className: `tier ${entry.tier}` }, TIER_LABEL[entry.tier]) : null;
      if (known.length || tier) parts.push(h('br'), known.length ? `Known solutions: ${known.join(', ')} ` : '', tier);
    }
    el.info.replaceChildren(...parts);
  }
}
