// The puzzle editor: start a new box or edit a copy; shape the space layer by layer (click or
// drag cells to remove or restore them); the pieces (tray of standard sets, draw a new piece,
// rotate, mirror, rename, copies, delete); live checks; undo/redo; solve what was drawn.
// Every change goes through EditorActions as an undoable command.
import * as commands from '../app/commands.js';
import { MAX_NEW_DIMENSION, boxSizeProblem } from '../app/editor-actions.js';
import { PIECE_SETS } from '../model/piece-sets.js';
import { cellCounts, equalShapeGroups, nameProblem, uniqueName, validatePuzzle } from '../model/puzzle.js';
import { carryColourSlots, pieceColorHex, pieceColours } from '../viewer/colors.js';
import { num, plural } from '../app/format.js';
import { byId, h, isTyping, setProp } from './dom.js';
import { createCellGrid } from './cell-grid.js';
import { pieceIcon } from './piece-icon.js';

const GONE = -2;          // redrawnIndex: the piece being redrawn is no longer in the puzzle
const DRAWER_SIZE = 6;   // the piece drawer's grid (x and y); 3-D puzzles get as many layers
const DRAWER_LAYERS = 4;

export function mountEditorPanel(store, actions, editor) {
  const el = {
    card: byId('editor-card'), start: byId('editor-start'), body: byId('editor-body'),
    newX: byId('new-x'), newY: byId('new-y'), newZ: byId('new-z'), newPuzzle: byId('new-puzzle'), editCopy: byId('edit-copy'),
  };
  const T = () => editor.target;
  const run = (cmd) => editor.run(cmd);

  // A size out of range is refused with the reason by the fields (it used to be clamped to the
  // limit silently while the fields still showed what was typed).
  const newSizeError = h('p', { className: 'field-error', id: 'new-size-error', role: 'alert', hidden: true });
  el.newX.parentNode.after(newSizeError);
  const newInputs = [el.newX, el.newY, el.newZ];
  const showSizeProblem = (inputs, note, { message, invalid }) => {
    inputs.forEach((input, i) => {
      if (invalid[i]) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      if (message) input.setAttribute('aria-describedby', note.id);
      else input.removeAttribute('aria-describedby');
    });
    note.textContent = message;
    note.hidden = !message;
  };
  // Opening the editor hides #editor-start, and with it the button just pressed: the browser
  // would drop the focus to the page's body (a keyboard user typed into nothing and had to Tab
  // from the top), so it moves to the new puzzle's title, the first thing to give it.
  // On a touch screen a focused text box raises the keyboard over the new puzzle: the
  // focus goes to the card's heading there instead (still not the body).
  const touch = window.matchMedia('(pointer: coarse)');
  const heading = byId('editor-heading');
  const focusTitle = () => {
    if (!editor.editor.active) return;
    if (touch.matches) {
      heading.tabIndex = -1;
      heading.focus();
      return;
    }
    title.focus();
    title.select();
  };
  el.newPuzzle.addEventListener('click', () => {
    const problem = editor.newPuzzle(...newInputs.map((i) => i.value));
    showSizeProblem(newInputs, newSizeError, problem);
    if (!problem.message) focusTitle();
  });
  for (const input of newInputs) {
    input.max = String(MAX_NEW_DIMENSION);
    // the mark goes as soon as the sizes are fine again (not only at the next click)
    input.addEventListener('input', () => { if (!newSizeError.hidden) showSizeProblem(newInputs, newSizeError, boxSizeProblem(...newInputs.map((i) => i.value))); });
  }
  el.editCopy.addEventListener('click', () => { editor.editCopy(); focusTitle(); });

  // ---- the editor's body, built once
  const undoBtn = h('button', { type: 'button', id: 'undo', onclick: () => editor.undo(), 'aria-keyshortcuts': 'Control+Z' }, 'Undo');
  const redoBtn = h('button', { type: 'button', id: 'redo', onclick: () => editor.redo(), 'aria-keyshortcuts': 'Control+Shift+Z' }, 'Redo');
  const solveBtn = h('button', { type: 'button', id: 'editor-solve', className: 'primary', onclick: () => editor.solve() }, 'Solve this puzzle');
  // (closing hides the button pressed: the focus goes to what opens the editor again)
  const doneBtn = h('button', { type: 'button', id: 'editor-close', className: 'quiet', onclick: async () => {
    await editor.closeToPage();
    (el.editCopy.disabled ? el.newPuzzle : el.editCopy).focus(); // (disabled: nothing loaded)
  } }, 'Close editor');

  const title = h('input', { type: 'text', id: 'editor-title', maxLength: 200, autocomplete: 'off', spellcheck: false });
  title.addEventListener('input', () => run(commands.setTitle(T(), title.value)));
  const dimInputs = ['x', 'y', 'z'].map((a) => h('input', { type: 'number', id: `editor-${a}`, min: 1, max: MAX_NEW_DIMENSION, 'aria-label': `Box size ${a.toUpperCase()}` }));
  const dimsError = h('p', { className: 'field-error', id: 'editor-size-error', role: 'alert', hidden: true });
  const applyDims = () => {
    const p = editor.editor.puzzle;
    const problem = boxSizeProblem(...dimInputs.map((i) => i.value));
    showSizeProblem(dimInputs, dimsError, problem);
    if (problem.message) return;
    const [x, y, z] = problem.dims;
    if (x !== p.xDim || y !== p.yDim || z !== p.zDim) run(commands.resizeBoxCommand(T(), x, y, z));
  };
  dimInputs.forEach((i) => i.addEventListener('change', applyDims));
  const oneSide = h('input', { type: 'checkbox', id: 'editor-one-sided' });
  oneSide.addEventListener('change', () => run(commands.setOneSide(T(), oneSide.checked)));
  const oneSideRow = h('label', { className: 'check' }, oneSide, 'Pieces may not be turned over (one-sided)');

  const checks = h('ul', { className: 'checks', id: 'editor-checks', 'aria-live': 'polite' });
  let staleItems = { of: null, items: [] }; // the engine's last answer, drawn dimmed while the next is awaited

  // space: layer picker + grid
  const layerSelect = h('select', { id: 'editor-layer', 'aria-label': 'Layer of the box' });
  layerSelect.addEventListener('change', () => store.update('editor', { layer: Number(layerSelect.value) }));
  const layerRow = h('div', { className: 'row' }, h('label', { htmlFor: 'editor-layer' }, 'Layer'), layerSelect);
  let stroke = 0;
  const spaceGrid = createCellGrid({
    label: 'The space, one layer: click or drag to remove or restore cells',
    onStrokeStart: () => { stroke = editor.newStroke(); },
    onStroke: (cells, set) => {
      const p = editor.editor.puzzle;
      const z = editor.editor.layer;
      run(commands.paintCells(T(), cells.map(({ x, y }) => x + p.xDim * (y + p.yDim * z)), !set, stroke));
    },
  });
  spaceGrid.element.id = 'space-grid';

  // pieces
  const pieceList = h('ul', { className: 'piece-list', id: 'editor-pieces' });
  const traySelect = h('select', { id: 'tray-set', 'aria-label': 'Standard piece set' },
    ...PIECE_SETS.map((s) => h('option', { value: s.id }, s.title)));
  const trayCopies = h('input', { type: 'number', id: 'tray-copies', min: 1, max: 99, value: 1, 'aria-label': 'Copies of each piece' });
  const trayAll = h('button', { type: 'button', id: 'tray-add-all' }, 'Add the whole set');
  const trayPieces = h('div', { className: 'tray', id: 'tray-pieces' });
  const trayNote = h('p', { className: 'hint', id: 'tray-note' });
  const copiesOf = () => Math.max(1, Math.min(99, Math.floor(Number(trayCopies.value)) || 1));
  const addFromTray = (pieces) => {
    const set = PIECE_SETS.find((s) => s.id === traySelect.value);
    run(commands.addPiecesCommand(T(), pieces, copiesOf(), pieces.length === 1 ? `add ${pieces[0].name}` : `add the ${set.title}`));
    if (set.oneSide && !editor.editor.puzzle.oneSide && editor.editor.puzzle.zDim === 1) run(commands.setOneSide(T(), true));
  };
  trayAll.addEventListener('click', () => addFromTray(PIECE_SETS.find((s) => s.id === traySelect.value).pieces));
  traySelect.addEventListener('change', () => renderTray());
  // The tray's pieces are drawn in the colour a piece added now takes (the puzzle's next colour
  // slot), so that a piece keeps its colour from the tray to the list and the stage.
  const nextColour = () => {
    const ed = editor.editor;
    if (!ed.puzzle) return pieceColorHex(0, 1);
    const probe = { name: '', cells: [], stationary: false }; // (no piece has an empty name)
    const next = [...ed.puzzle.pieces, probe];
    const slots = carryColourSlots(ed.puzzle.pieces, ed.slots, next);
    return pieceColours(next.map((q, i) => ({ stationary: q.stationary, colourSlot: slots[i] }))).at(-1);
  };
  let trayDrawn = '';
  function renderTray() {
    const set = PIECE_SETS.find((s) => s.id === traySelect.value);
    const colour = nextColour();
    if (trayDrawn === `${set.id} ${colour}`) return;
    trayDrawn = `${set.id} ${colour}`;
    trayNote.textContent = set.description;
    trayPieces.replaceChildren(...set.pieces.map((p) => h('button', {
      type: 'button', className: 'tray-piece', title: `Add ${p.name}`, 'aria-label': `Add piece ${p.name}`,
      onclick: () => addFromTray([p]),
    }, pieceIcon(p.cells, colour, 34), h('span', {}, p.name))));
  }

  // drawer (draw a new piece, or redraw one)
  const drawBtn = h('button', { type: 'button', id: 'draw-piece' }, 'Draw a new piece');
  // a new piece comes with a name (the first free letter), so that Add piece needs only its cells
  const defaultName = () => {
    const taken = new Set(editor.editor.puzzle.pieces.map((q) => q.name));
    const letter = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].find((c) => !taken.has(c));
    return letter || uniqueName(editor.editor.puzzle, 'P');
  };
  drawBtn.addEventListener('click', () => store.update('editor', { drawer: { index: -1, cells: [], layer: 0, name: defaultName() } }));
  const drawerName = h('input', { type: 'text', id: 'drawer-name', maxLength: 100, autocomplete: 'off', spellcheck: false, 'aria-label': 'Name of the new piece' });
  const drawerLayer = h('select', { id: 'drawer-layer', 'aria-label': 'Layer of the piece' });
  const drawerSave = h('button', { type: 'button', id: 'drawer-save', className: 'primary' }, 'Add piece');
  const drawerCancel = h('button', { type: 'button', id: 'drawer-cancel', className: 'quiet' }, 'Cancel');
  const drawerNote = h('p', { className: 'hint', id: 'drawer-note' });
  const drawerHelp = h('p', { className: 'hint', id: 'drawer-help' }); // how to draw (renderDrawer)
  const drawerGrid = createCellGrid({
    label: 'Draw the piece: click or drag cells',
    maxWidth: 200,
    onStroke: (cells, set) => {
      const d = editor.editor.drawer;
      const keyOf = (c) => `${c[0]},${c[1]},${c[2]}`;
      const have = new Map(d.cells.map((c) => [keyOf(c), c]));
      for (const { x, y } of cells) {
        const c = [x, y, d.layer];
        if (set) have.set(keyOf(c), c);
        else have.delete(keyOf(c));
      }
      store.update('editor', { drawer: { ...d, cells: [...have.values()], refusal: null } });
    },
  });
  drawerGrid.element.id = 'drawer-grid';
  // (only while the drawer is open: the browser's own undo, Ctrl+Z in another field, can type
  // into the hidden name box, and an edit of a closed drawer would make a broken one). An edit
  // answers Save's refusal, which then gives way to the cell count again.
  const editDrawer = (patch) => {
    if (editor.editor.drawer) store.update('editor', { drawer: { ...editor.editor.drawer, refusal: null, ...patch } });
  };
  drawerLayer.addEventListener('change', () => editDrawer({ layer: Number(drawerLayer.value) }));
  drawerName.addEventListener('input', () => editDrawer({ name: drawerName.value }));
  drawerCancel.addEventListener('click', () => store.update('editor', { drawer: null }));
  drawerSave.addEventListener('click', () => {
    const d = editor.editor.drawer;
    // a refusal is the drawer's state (renderDrawer shows it): every render of the editor (a
    // check's answer too) would otherwise put the cell count back over it
    const why = drawerProblem(d);
    if (why) {
      store.update('editor', { drawer: { ...d, refusal: why } });
      return;
    }
    const at = redrawnIndex(d);
    if (at === GONE) {
      // what Save would overwrite is not the piece opened: offer to add the shape instead
      store.update('editor', { drawer: { ...d, index: -1, piece: null, refusal: `${d.piece.name}, the piece being redrawn, is no longer in the puzzle (deleted, or undone). Add piece adds this shape as a new piece; Cancel drops it.` } });
      return;
    }
    redrawnAt = at; // (where the focus goes back to: renderDrawer)
    const name = d.name.trim() || (at < 0 ? defaultName() : editor.editor.puzzle.pieces[at].name);
    if (at < 0) run(commands.addPiecesCommand(T(), [{ name, cells: d.cells, stationary: false }]));
    else {
      run(commands.setPieceCells(T(), at, d.cells));
      if (name !== editor.editor.puzzle.pieces[at].name) run(commands.renamePiece(T(), at, name));
    }
    store.update('editor', { drawer: null });
  });
  const drawer = h('div', { className: 'drawer', id: 'drawer', hidden: true, onkeydown: (e) => {
    // Escape: as Cancel (the focus goes back to what opened the drawer: renderDrawer)
    if (e.key === 'Escape' && editor.editor.drawer) {
      e.preventDefault();
      store.update('editor', { drawer: null });
    }
  } },
    h('label', { htmlFor: 'drawer-name' }, 'Name'), drawerName,
    drawerHelp,
    h('div', { className: 'row', id: 'drawer-layer-row' }, h('label', { htmlFor: 'drawer-layer' }, 'Layer'), drawerLayer),
    drawerGrid.container, drawerNote,
    h('div', { className: 'row' }, drawerSave, drawerCancel));

  // The drawer last drawn (null: closed). Opening it hides "Draw a new piece" (and a piece's
  // Redraw tool is rebuilt with the list), closing it hides the Save or Cancel just pressed:
  // either way the browser would drop the focus to the body, so it is moved here instead.
  let drawerShown = null;
  let redrawnAt = -1; // the piece a Redraw drawer just saved (renamed: no longer found by its name)
  const focusLost = () => {
    const a = document.activeElement;
    return !a || a === document.body || drawer.contains(a);
  };

  // the focus key of a piece's tool (renderPieces), to find it again when a render moved it
  const toolKey = (key, i) => `tool:${key}:${i}`;

  el.body.replaceChildren(
    h('div', { className: 'row' }, undoBtn, redoBtn),
    h('label', { htmlFor: 'editor-title' }, 'Title'), title,
    h('label', {}, 'Box size (x × y × z; z = 1 for a flat board)'), h('div', { className: 'row dims' }, ...dimInputs), dimsError,
    oneSideRow,
    // the checks come after the grid: a click on a cell changes them (a count, a line more or
    // less), and above the grid they moved it under the person's pointer mid-click
    h('h3', {}, 'The space'),
    h('p', { className: 'hint' }, 'Click or drag over cells to remove them (holes, an irregular board); again to restore.'),
    layerRow, spaceGrid.container,
    h('h3', {}, 'Checks'), checks,
    h('h3', {}, 'Pieces'), pieceList,
    drawBtn, drawer,
    h('h3', {}, 'Add standard pieces'),
    h('div', { className: 'row' }, traySelect, h('label', { htmlFor: 'tray-copies', className: 'inline' }, '×'), trayCopies),
    trayNote, trayPieces, trayAll,
    h('div', { className: 'row editor-actions' }, solveBtn, doneBtn),
  );
  renderTray();

  /**
   * Where the piece a Redraw drawer edits is now (-1: a new piece's drawer; GONE). The list can
   * change under an open drawer (another piece deleted, an undo): the drawer holds the piece
   * itself, found again as that object, else by its name (turned, mirrored or given copies in
   * the list meanwhile). By its position alone, Save would overwrite whichever piece took it.
   */
  function redrawnIndex(d) {
    if (d.index < 0) return -1;
    const pieces = editor.editor.puzzle.pieces;
    const at = pieces.indexOf(d.piece);
    if (at >= 0) return at;
    const named = pieces.findIndex((q) => q.name === d.piece.name);
    return named >= 0 ? named : GONE;
  }

  function drawerProblem(d) {
    if (!d.cells.length) return 'Draw at least one cell.';
    const name = d.name.trim() || defaultName(); // (a name cleared: the default again)
    const bad = nameProblem(name); // what the definition format cannot hold (':', ',', '#', '=', spaces)
    if (bad) return `${bad[0].toUpperCase()}${bad.slice(1)}.`;
    const p = editor.editor.puzzle;
    const at = redrawnIndex(d);
    if (p.pieces.some((q, i) => q.name === name && i !== at)) return `There is already a piece named ${name}.`;
    const keys = new Set(d.cells.map((c) => `${c[0]},${c[1]},${c[2]}`));
    // a piece is one connected shape: cells touch face to face
    const seen = new Set([`${d.cells[0][0]},${d.cells[0][1]},${d.cells[0][2]}`]);
    const stack = [d.cells[0]];
    while (stack.length) {
      const [x, y, z] = stack.pop();
      for (const [dx, dy, dz] of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]) {
        const k = `${x + dx},${y + dy},${z + dz}`;
        if (keys.has(k) && !seen.has(k)) { seen.add(k); stack.push([x + dx, y + dy, z + dz]); }
      }
    }
    if (seen.size !== keys.size) return 'The cells of a piece must touch face to face (it has separate parts).';
    return '';
  }

  // ---- keyboard: undo / redo while editing, outside text fields and in the fields whose every
  // keystroke is an edit (the title, a piece's name and copies: the browser's own undo does
  // nothing in the rebuilt piece fields, takes the title back a letter at a time, and can type
  // into the hidden drawer). Other fields (the drawer's name, the definition text, the
  // options) keep the browser's undo.
  const undoesEdits = (t) => t === title || (!!t && !!t.dataset && !!t.dataset.focusKey && pieceList.contains(t));
  document.addEventListener('keydown', (e) => {
    if (!editor.editor.active || (isTyping(e) && !undoesEdits(e.target)) || !(e.ctrlKey || e.metaKey) || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey) editor.undo();
    else if ((k === 'z' && e.shiftKey) || k === 'y') editor.redo();
    else return;
    e.preventDefault();
    if (e.target === title) title.value = editor.editor.puzzle.title; // (kept as typed while focused)
  });

  // ---- rendering
  store.subscribe(['editor', 'history', 'puzzles', 'run'], (s, changed) => {
    const ed = s.editor;
    setProp(el.start, 'hidden', ed.active);
    setProp(el.body, 'hidden', !ed.active);
    el.card.classList.toggle('editing', ed.active);
    setProp(el.editCopy, 'disabled', s.puzzles.length === 0);
    setProp(undoBtn, 'disabled', !s.history.canUndo);
    setProp(redoBtn, 'disabled', !s.history.canRedo);
    setProp(undoBtn, 'title', s.history.canUndo ? `Undo ${s.history.undoName}` : 'Nothing to undo');
    setProp(redoBtn, 'title', s.history.canRedo ? `Redo ${s.history.redoName}` : 'Nothing to redo');
    if (!ed.active || !ed.puzzle) { drawerShown = null; return; }
    const p = ed.puzzle;
    if (document.activeElement !== title) title.value = p.title;
    [p.xDim, p.yDim, p.zDim].forEach((v, i) => { if (document.activeElement !== dimInputs[i]) dimInputs[i].value = String(v); });
    setProp(oneSideRow, 'hidden', p.zDim !== 1);
    setProp(oneSide, 'checked', p.oneSide);
    setProp(solveBtn, 'disabled', s.run.phase === 'running' || s.run.phase === 'loading');
    const blocker = editor.blocker();
    setProp(solveBtn, 'title', blocker ? `Not yet: ${blocker}` : 'Load this puzzle and find its solutions');
    renderChecks(ed);
    renderSpace(ed);
    renderPieces(ed);
    renderTray();
    renderDrawer(ed);
  });

  // the colours the stage gives the pieces (the editor's colour slots: an edit leaves the others' alone)
  function mobileColors(ed) {
    const colours = pieceColours(ed.puzzle.pieces.map((q, i) => ({ stationary: q.stationary, colourSlot: ed.slots ? ed.slots[i] : undefined })));
    return new Map(colours.map((c, i) => [i, c]));
  }

  function renderChecks(ed) {
    const p = ed.puzzle;
    const counts = cellCounts(p);
    const items = [];
    const item = (ok, text, id) => items.push(h('li', { className: ok === null ? 'info' : ok ? 'ok' : 'bad', dataset: id ? { check: id } : undefined }, text));
    item(counts.balanced && counts.pieces > 0, `${plural(counts.space, 'cell')} in the space / ${plural(counts.pieces, 'cell')} of pieces${counts.balanced ? '' : counts.pieces < counts.space ? ` (${num(counts.space - counts.pieces)} more needed)` : ` (${num(counts.pieces - counts.space)} too many)`}`, 'cells');
    for (const problem of validatePuzzle(p)) {
      if (problem.path === 'pieces' && /cells/.test(problem.message)) continue; // the balance line says it
      item(false, problem.message, 'problem');
    }
    const c = ed.checksFor === p ? ed.checks : null;
    if (ed.checksFor !== p) {
      // Awaiting the engine: the previous answer stays, dimmed and without its data-check (it is
      // not this puzzle's), and "Checking…" sits beside the heading (styles.css), so the list
      // keeps its height instead of growing by a line for the ~0.2 s of every check.
      item(null, 'Checking…', 'pending');
      items[items.length - 1].classList.add('pending');
      if (ed.checks && staleItems.of === ed.checks) {
        for (const old of staleItems.items) items.push(h('li', { className: `${old.className} stale`, 'aria-hidden': 'true' }, old.textContent));
      }
    } else if (c) {
      if (c.parity) item(false, `Impossible: ${c.parity.replace(/^impossible by parity: /, 'by parity, ')}.`, 'parity');
      else if (counts.balanced && counts.pieces > 0) item(true, 'Parity: no obstacle (checkerboard colouring).', 'parity');
      // the engine's other cell weightings (corners, edges, colourings mod k...): a readable proof
      if (c.impossible) item(false, `Impossible: ${c.impossible.replace(/^impossible /, '')}.`.replace(/\.\.$/, '.'), 'impossible');
      const nowhere = c.nowhere || [];
      if (nowhere.length) item(false, `Fits nowhere in the space: ${nowhere.join(', ')}.`, 'nowhere');
      if (c.limit) item(null, `Not analysed further: ${c.limit}`, 'limit');
    } else if (ed.checkError) {
      item(false, ed.checkError, 'engine');
    }
    if (c) staleItems = { of: c, items: items.filter((li) => ['parity', 'impossible', 'nowhere', 'limit'].includes(li.dataset.check)) };
    for (const g of equalShapeGroups(p)) item(null, `Same shape, counted as copies: ${g.names.join(', ')}.`, 'same');
    checks.replaceChildren(...items);
  }

  function renderSpace(ed) {
    const p = ed.puzzle;
    const layer = Math.min(ed.layer, p.zDim - 1);
    if (layerSelect.options.length !== p.zDim) {
      layerSelect.replaceChildren(...Array.from({ length: p.zDim }, (_, z) => h('option', { value: String(z) }, `${z + 1} of ${p.zDim}${z === 0 ? ' (bottom)' : z === p.zDim - 1 ? ' (top)' : ''}`)));
    }
    layerSelect.value = String(layer);
    layerSelect.parentNode.hidden = p.zDim === 1;
    const holes = new Set(p.holes);
    const fixed = new Map();
    p.pieces.forEach((q, i) => { if (q.stationary) for (const [x, y, z] of q.cells) fixed.set(x + p.xDim * (y + p.yDim * z), q.name); });
    spaceGrid.render({
      cols: p.xDim, rows: p.yDim,
      state: (x, y) => {
        const i = x + p.xDim * (y + p.yDim * layer);
        return fixed.has(i) ? 'fixed' : holes.has(i) ? 'hole' : 'open';
      },
      text: (x, y) => fixed.get(x + p.xDim * (y + p.yDim * layer)) || '',
    });
  }

  // The list's rows are kept across renders, one per position, and patched: every change (a
  // check's answer included) renders the list, and a field replaced under a person's typing
  // loses their selection (a copies field selected to be typed over took '3' as '13').
  // A row's fields and handlers read the piece at their position when they run.
  const rows = [];
  function pieceRow(i) {
    if (rows[i]) return rows[i];
    const pieceAt = () => editor.editor.puzzle.pieces[i];
    const name = h('input', { type: 'text', maxLength: 100, spellcheck: false, autocomplete: 'off', dataset: { focusKey: `name:${i}` } });
    name.addEventListener('input', () => run(commands.renamePiece(T(), i, name.value)));
    const count = h('input', { type: 'number', min: 1, max: 999, dataset: { focusKey: `count:${i}` } });
    const countOf = () => (/^\s*\d+\s*$/.test(count.value) ? Number(count.value) : NaN);
    const kept = () => (pieceAt() ? pieceAt().count : 1);
    count.addEventListener('input', () => {
      const n = countOf();
      if (n >= 1 && n <= 999) { count.removeAttribute('aria-invalid'); count.title = ''; run(commands.setPieceCount(T(), i, n)); } else {
        count.setAttribute('aria-invalid', 'true');
        count.title = `Copies: a whole number from 1 to 999 (the puzzle keeps ${kept()})`;
      }
    });
    // left with something that is not a count (0, empty, 2.5): the count the puzzle keeps comes
    // back into the field (never 0 in the field while the legend and the checks use 3); on
    // blur, not change: a count being typed stays as typed through renders until then
    count.addEventListener('blur', () => {
      const n = countOf();
      if (n >= 1 && n <= 999) return;
      count.value = String(kept());
      count.removeAttribute('aria-invalid');
      count.title = '';
    });
    const copies = h('span', { className: 'copies' }, '×', count);
    const fixed = h('span', { className: 'count' }, 'fixed');
    const fields = h('div', { className: 'piece-fields' }, name, copies);
    // The tools too are made once: a render between a press and its release (a check's answer)
    // that replaced the button under the pointer lost the click (it went to the row).
    const tool = (key, label, text, fn) => h('button', { type: 'button', className: 'tool', title: label, dataset: { focusKey: toolKey(key, i), label }, onclick: fn }, text);
    const toolButtons = {
      turnZ: tool('turn-z', 'Rotate a quarter turn about z', '⟳', () => run(commands.turnPiece(T(), i, 'z'))),
      turnX: tool('turn-x', 'Rotate a quarter turn about x', '⟳x', () => run(commands.turnPiece(T(), i, 'x'))),
      turnY: tool('turn-y', 'Rotate a quarter turn about y', '⟳y', () => run(commands.turnPiece(T(), i, 'y'))),
      mirror: tool('mirror', 'Mirror', '⇋', () => run(commands.mirrorPieceCommand(T(), i, 'x'))),
      redraw: tool('redraw', 'Redraw', '✎', () => {
        const piece = pieceAt();
        store.update('editor', { drawer: { index: i, piece, cells: piece.cells.map((c) => [...c]), layer: 0, name: piece.name } });
      }),
      remove: tool('delete', 'Delete', '✕', () => run(commands.removePiece(T(), i))),
    };
    const tools = h('div', { className: 'piece-tools' });
    const li = h('li', {}, h('span'), fields, tools);
    return (rows[i] = { li, name, count, copies, fixed, fields, tools, tool: toolButtons });
  }

  // The tools a piece has: a stationary piece is only deleted; a flat box's pieces turn about z.
  function toolsOf(row, piece, three) {
    const t = row.tool;
    if (piece.stationary) return [t.remove];
    return three ? [t.turnZ, t.turnX, t.turnY, t.mirror, t.redraw, t.remove] : [t.turnZ, t.mirror, t.redraw, t.remove];
  }

  function renderPieces(ed) {
    const p = ed.puzzle;
    const colors = mobileColors(ed);
    const three = p.zDim > 1;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
    const shown = p.pieces.map((piece, i) => {
      const row = pieceRow(i);
      row.li.className = ed.selected === i ? 'selected' : '';
      row.li.dataset.piece = piece.name;
      row.li.replaceChild(pieceIcon(piece.cells, colors.get(i), 34), row.li.firstChild);
      const { name, count } = row;
      if (name.value !== piece.name) name.value = piece.name;
      name.setAttribute('aria-label', `Name of piece ${i + 1}`);
      // a name the definition format cannot hold is kept as typed (the checks say why Solve
      // waits), and marked here, where it can be mended
      const bad = nameProblem(piece.name);
      name.title = bad || '';
      if (bad) name.setAttribute('aria-invalid', 'true');
      else name.removeAttribute('aria-invalid');
      count.setAttribute('aria-label', `Copies of ${piece.name}`);
      // a count being typed that the puzzle does not take yet (0, empty) stays as typed, marked
      const typing = count === document.activeElement && count.getAttribute('aria-invalid') === 'true';
      if (!typing && count.value !== String(piece.count)) count.value = String(piece.count);
      const side = piece.stationary ? row.fixed : row.copies;
      if (row.fields.lastChild !== side) row.fields.replaceChild(side, row.fields.lastChild);
      const wanted = toolsOf(row, piece, three);
      if (wanted.length !== row.tools.children.length || wanted.some((b, k) => row.tools.children[k] !== b)) row.tools.replaceChildren(...wanted);
      for (const b of wanted) {
        const label = `${b.dataset.label}: ${piece.name}`;
        if (b.getAttribute('aria-label') !== label) b.setAttribute('aria-label', label);
      }
      return row.li;
    });
    if (p.pieces.length === 0) shown.push(h('li', { className: 'empty' }, 'No pieces yet: add a standard set below or draw one.'));
    // rows already in their place stay in the document (a focused field is never taken out)
    const current = [...pieceList.children];
    for (const li of current) if (!shown.includes(li)) li.remove();
    shown.forEach((li, k) => { if (pieceList.children[k] !== li) pieceList.insertBefore(li, pieceList.children[k] || null); });
    if (focused && focused.startsWith('tool:')) {
      const again = pieceList.querySelector(`[data-focus-key="${focused}"]`);
      if (again) again.focus();
    }
  }

  function renderDrawer(ed) {
    const d = ed.drawer;
    const was = drawerShown;
    drawerShown = d;
    drawer.hidden = !d;
    drawBtn.hidden = !!d;
    if (!d) {
      // back to what opened it: "Draw a new piece", or the Redraw tool of the piece redrawn
      if (was && focusLost()) {
        const at = was.index < 0 ? -1 : redrawnAt >= 0 ? redrawnAt : redrawnIndex(was);
        redrawnAt = -1;
        const back = at >= 0 ? pieceList.querySelector(`[data-focus-key="${toolKey('redraw', at)}"]`) : null;
        (back || drawBtn).focus();
      }
      return;
    }
    const layers = ed.puzzle.zDim > 1 ? DRAWER_LAYERS : 1;
    if (drawerLayer.options.length !== layers) drawerLayer.replaceChildren(...Array.from({ length: layers }, (_, z) => h('option', { value: String(z) }, `${z + 1}`)));
    drawerLayer.value = String(d.layer);
    drawerLayer.parentNode.hidden = layers === 1;
    drawerHelp.textContent = layers === 1
      ? 'Click the squares of the piece (again to clear one), or drag over several. They must touch side by side.'
      : 'Click the cubes of the piece, one layer at a time (pick the layer above the grid; again to clear one), or drag over several. They must touch face to face.';
    if (document.activeElement !== drawerName) drawerName.value = d.name;
    drawerSave.textContent = d.index < 0 ? 'Add piece' : 'Save shape';
    const size = Math.max(DRAWER_SIZE, ...d.cells.map((c) => Math.max(c[0], c[1]) + 1));
    const on = new Set(d.cells.filter((c) => c[2] === d.layer).map((c) => `${c[0]},${c[1]}`));
    const below = new Set(d.cells.filter((c) => c[2] !== d.layer).map((c) => `${c[0]},${c[1]}`));
    drawerGrid.render({ cols: size, rows: size, state: (x, y) => (on.has(`${x},${y}`) ? 'on' : below.has(`${x},${y}`) ? 'other' : 'off') });
    drawerNote.classList.toggle('bad', !!d.refusal);
    drawerNote.textContent = d.refusal || `${d.cells.length} cell${d.cells.length === 1 ? '' : 's'}${layers > 1 ? ' (cells on other layers shown faint)' : ''}.`;
    // just opened (or opened on another piece): the name comes first
    if (!was || was.index !== d.index) {
      drawerName.focus();
      // a new piece's default name is selected, to be typed over; a redrawn piece's name is kept
      if (d.index < 0) drawerName.select();
      else drawerName.setSelectionRange(drawerName.value.length, drawerName.value.length);
    }
  }
}
