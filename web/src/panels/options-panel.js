// Solver options in plain words: one native control per engine option, grouped,
// each with one line of help (model/options.js CONTROLS), and the same options as command-line
// text. Both render from state.options.text and both rewrite it (app/options-actions.js).
//
// The common group (counting) is always open; Algorithm, Constraints and Statistics are folded
// (<details>) so that a first-time visitor sees only "count rotations as one", "count mirror
// images as one", "drop repeated solutions" and "stop after N solutions". A folded group says
// how many of its options are set, and opens by itself when one of them has an error.
//
// Native controls rather than lil-gui (in package.json before, unused, now removed): lil-gui
// draws its own widgets without per-control help lines or aria-describedby, has no place for
// an error next to a control, and would add a second styling system to the side panel.
import { CONTROLS, isAutomatic, parseOptions } from '../model/options.js';
import { byId, h, setProp } from './dom.js';

const KEYS = CONTROLS.map((c) => c.key);
const CONTROL = Object.fromEntries(CONTROLS.map((c) => [c.key, c]));

// Display groups (model/options.js groups Counting/Algorithm/Constraints/Diagnostics).
const GROUPS = [
  { id: 'counting', title: 'Counting', folded: false, keys: ['redundancy', 'mirror', 'unique', 'limit', 'memo', 'memoMb', 'solution', 'random'] },
  { id: 'algorithm', title: 'Algorithm', folded: true, keys: ['noOrbits', 'fila', 'order', 'nof', 'bruijn', 'mch', 'emch'] },
  { id: 'constraints', title: 'Constraints', folded: true, keys: ['parityBacktrack', 'volumeBacktrack', 'parityFilter', 'volumeFilter', 'fitFilter'] },
  { id: 'diagnostics', title: 'Statistics and diagnostics', folded: true, keys: ['info', 'monteCarlo', 'trace'] },
];

// The id of a control's input. "Count rotations as one" keeps the page's first id (#opt-r).
export const controlId = (key) => (key === 'redundancy' ? 'opt-r' : `opt-${key}`);

const WHOLE = /^-?[0-9]+$/;

/** The control an engine error is about ("file:7: -r: no piece named 'Q'" -> 'redundancyPiece'). */
export function controlOfMessage(message) {
  const m = /(?:^|[\s:])(-[a-zA-Z])\b/.exec(String(message));
  if (!m) return '';
  if (m[1] === '-r') return 'redundancyPiece';
  const c = CONTROLS.find((x) => x.flag.split(/[\s[]/)[0] === m[1]);
  return c ? c.key : '';
}

/**
 * @param {import('../app/store.js').Store} store
 * @param {import('../app/actions.js').Actions} actions  (solve)
 * @param {import('../app/options-actions.js').OptionsActions} options
 */
export function mountOptionsPanel(store, actions, options, editor) {
  const root = byId('options-form');
  const textBox = byId('opt-text');
  const textError = byId('opt-text-error');
  const controls = new Map(); // key -> { render(values, s), inputs: [elements], error: element }
  let piecesCount = 0;

  const describedBy = (key) => `${controlId(key)}-help ${controlId(key)}-error`;
  const helpLine = (key) => h('p', { className: 'hint opt-help', id: `${controlId(key)}-help` }, CONTROL[key].help);
  const errorLine = (key) => h('p', { className: 'field-error', id: `${controlId(key)}-error`, hidden: true });
  const flagBadge = (key) => h('code', { className: 'opt-flag', 'aria-hidden': 'true' }, CONTROL[key].flag);
  const solveOnEnter = (input) => input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      editor.solveShown();
    }
  });

  // Whole number box: '' is off (null); anything else must be a whole number (the range is
  // checked by optionProblems when the value is set).
  function wholeInput(key, id, placeholder, onValue) {
    const input = h('input', {
      type: 'text', id, inputMode: 'numeric', autocomplete: 'off', spellcheck: false, placeholder,
      'aria-describedby': describedBy(key),
    });
    input.addEventListener('input', () => {
      const raw = input.value.trim();
      if (raw === '') onValue(null);
      else if (WHOLE.test(raw) && Number.isSafeInteger(Number(raw))) onValue(Number(raw));
      else options.markInvalid(key, `${CONTROL[key].label}: needs a whole number, got '${raw}'`);
    });
    solveOnEnter(input);
    return input;
  }

  function flagControl(key) {
    const input = h('input', { type: 'checkbox', id: controlId(key), 'aria-describedby': describedBy(key) });
    input.addEventListener('change', () => options.setControl(key, input.checked));
    const item = h('div', { className: 'opt-item', dataset: { key } },
      h('label', { className: 'check' }, input, CONTROL[key].label, flagBadge(key)), errorLine(key), helpLine(key));
    return { item, inputs: [input], render: (v) => { input.checked = !!v[key]; } };
  }

  function intControl(key, placeholder = 'off') {
    const input = wholeInput(key, controlId(key), placeholder, (n) => options.setControl(key, n));
    const item = h('div', { className: 'opt-item', dataset: { key } },
      h('label', { htmlFor: controlId(key) }, CONTROL[key].label, flagBadge(key)), input, errorLine(key), helpLine(key));
    return { item, inputs: [input], render: (v) => setFieldText(input, v[key] === null ? '' : String(v[key])) };
  }

  // A text control: the heuristic schedule (-o), the random draw (--random K[,SEED]).
  function textControl(key, placeholder) {
    const input = h('input', {
      type: 'text', id: controlId(key), autocomplete: 'off', spellcheck: false, placeholder,
      'aria-describedby': describedBy(key),
    });
    input.addEventListener('input', () => options.setControl(key, input.value.trim() === '' ? null : input.value.trim()));
    solveOnEnter(input);
    const item = h('div', { className: 'opt-item', dataset: { key } },
      h('label', { htmlFor: controlId(key) }, CONTROL[key].label, flagBadge(key)), input, errorLine(key), helpLine(key));
    return { item, inputs: [input], render: (v) => setFieldText(input, v[key] ?? '') };
  }

  // Count rotations as one, with the piece to hold still (auto, or one of the puzzle's pieces).
  function redundancyControl() {
    const base = flagControl('redundancy');
    const key = 'redundancyPiece';
    const select = h('select', { id: controlId(key), 'aria-describedby': describedBy(key) });
    select.addEventListener('change', () => options.setControl(key, select.value));
    const sub = h('div', { className: 'opt-sub', dataset: { key } },
      h('label', { htmlFor: controlId(key), className: 'inline' }, CONTROL[key].label, flagBadge(key)), select,
      h('p', { className: 'hint opt-help sr-only', id: `${controlId(key)}-help` }, CONTROL[key].help), errorLine(key));
    base.item.append(sub);
    let names = null;
    return {
      item: base.item,
      inputs: [...base.inputs, select],
      render(v, s) {
        base.render(v);
        const p = s.puzzles[s.puzzleIndex];
        // pieces that can be held still: movable, one copy (the engine needs a unique shape)
        const pieceNames = p ? p.pieces.filter((x) => !x.stationary && (x.count || 1) === 1).map((x) => x.name) : [];
        const wanted = v.redundancyPiece;
        const list = wanted && !pieceNames.includes(wanted) ? [...pieceNames, wanted] : pieceNames;
        const sig = list.join('\u0000');
        if (names !== sig) {
          names = sig;
          select.replaceChildren(
            h('option', { value: '' }, 'auto (solver picks)'),
            ...list.map((n) => h('option', { value: n }, pieceNames.includes(n) ? `piece ${n}` : `${n} (not in this puzzle)`)),
          );
        }
        select.value = v.redundancy ? wanted : '';
      },
    };
  }

  // Off / once before the search / while N or more pieces remain.
  function filterControl(key) {
    const mode = h('select', { id: controlId(key), 'aria-describedby': describedBy(key) },
      h('option', { value: 'off' }, 'off'),
      h('option', { value: 'once' }, 'once, before the search'),
      h('option', { value: 'n' }, 'while N or more pieces remain'));
    const nId = `${controlId(key)}-n`;
    const nInput = wholeInput(key, nId, 'N', (n) => options.setControl(key, n === null ? 'once' : n));
    nInput.setAttribute('aria-label', `${CONTROL[key].label}: N, pieces remaining`);
    const nRow = h('span', { className: 'opt-n' }, 'N =', nInput, 'pieces remaining');
    mode.addEventListener('change', () => {
      if (mode.value === 'off') options.setControl(key, null);
      else if (mode.value === 'once') options.setControl(key, 'once');
      else {
        const n = WHOLE.test(nInput.value.trim()) ? Number(nInput.value.trim()) : Math.max(1, Math.ceil(piecesCount / 2));
        options.setControl(key, n);
        nInput.focus();
      }
    });
    const item = h('div', { className: 'opt-item', dataset: { key } },
      h('label', { htmlFor: controlId(key) }, CONTROL[key].label, flagBadge(key)),
      h('div', { className: 'row opt-filter' }, mode, nRow), errorLine(key), helpLine(key));
    return {
      item,
      inputs: [mode, nInput],
      render(v) {
        const f = v[key];
        mode.value = f === null ? 'off' : f === 'once' ? 'once' : 'n';
        nRow.hidden = typeof f !== 'number';
        if (typeof f === 'number') setFieldText(nInput, String(f));
      },
    };
  }

  function monteCarloControl() {
    const key = 'monteCarlo';
    const on = h('input', { type: 'checkbox', id: controlId(key), 'aria-describedby': describedBy(key) });
    const field = (name, label, placeholder) => {
      const input = h('input', {
        type: 'text', id: `${controlId(key)}-${name}`, inputMode: 'numeric', autocomplete: 'off', spellcheck: false,
        placeholder, 'aria-describedby': describedBy(key),
      });
      solveOnEnter(input);
      return { input, field: h('div', { className: 'opt-mc-field' }, h('label', { htmlFor: input.id }, label), input) };
    };
    const trials = field('trials', 'trials', '1000');
    const remaining = field('remaining', 'pieces left', 'R');
    const seed = field('seed', 'seed', '0');
    const current = () => {
      const t = trials.input.value.trim();
      const r = remaining.input.value.trim();
      const sd = seed.input.value.trim();
      const bad = [[t, 'trials'], [r, 'pieces left'], [sd, 'seed']].find(([x, name]) => (x !== '' || name !== 'seed') && !/^[0-9]+$/.test(x));
      if (bad) return { error: `${CONTROL[key].label}: ${bad[1]} must be a whole number${bad[0] ? `, got '${bad[0]}'` : ''}` };
      return { value: { trials: Number(t), remaining: Number(r), seed: sd === '' ? '' : String(BigInt(sd)) } };
    };
    const apply = () => {
      if (!on.checked) return options.setControl(key, null);
      const c = current();
      if (c.error) return options.markInvalid(key, c.error);
      return options.setControl(key, c.value);
    };
    on.addEventListener('change', () => {
      if (on.checked) {
        if (trials.input.value.trim() === '') trials.input.value = '1000';
        if (remaining.input.value.trim() === '') remaining.input.value = String(Math.max(0, Math.floor(piecesCount / 2)));
      }
      apply();
    });
    for (const f of [trials, remaining, seed]) f.input.addEventListener('input', () => { if (on.checked) apply(); });
    const fields = h('div', { className: 'opt-mc' }, trials.field, remaining.field, seed.field);
    // `whole` says when "pieces left" is at least the puzzle's piece count: every trial is then a whole search
    const whole = h('p', { className: 'hint bad', id: `${controlId(key)}-whole`, hidden: true });
    const item = h('div', { className: 'opt-item', dataset: { key } },
      h('label', { className: 'check' }, on, CONTROL[key].label, flagBadge(key)), fields, whole, errorLine(key), helpLine(key));
    return {
      item,
      inputs: [on, trials.input, remaining.input, seed.input],
      render(v) {
        const m = v.monteCarlo;
        on.checked = !!m;
        fields.hidden = !m;
        if (m) {
          setFieldText(trials.input, String(m.trials));
          setFieldText(remaining.input, String(m.remaining));
          setFieldText(seed.input, m.seed);
        }
        const never = !!m && piecesCount > 0 && m.remaining >= piecesCount;
        setProp(whole, 'hidden', !never);
        if (never) setProp(whole, 'textContent', `This puzzle has ${piecesCount} pieces: with ${m.remaining} left a trial never stops early, so each trial is a whole search.`);
      },
    };
  }

  // Build the groups.
  const algoStatus = h('p', { className: 'hint opt-auto', id: 'opt-algorithm-status' });
  const autoButton = h('button', { type: 'button', id: 'opt-automatic', className: 'quiet' }, 'Use automatic');
  autoButton.addEventListener('click', () => options.useAutomaticAlgorithm());
  const groupEls = new Map();
  const fieldset = h('fieldset', { className: 'opt-controls', id: 'opt-controls' }, h('legend', { className: 'sr-only' }, 'Solver options'));
  for (const g of GROUPS) {
    const items = [];
    for (const key of g.keys) {
      let c;
      if (key === 'redundancy') c = redundancyControl();
      else if (key === 'order') c = textControl(key, 'automatic (e.g. s=12:f=11)');
      else if (key === 'random') c = textControl(key, 'off (e.g. 10, or 10,7: seed 7)');
      else if (key === 'monteCarlo') c = monteCarloControl();
      else if (CONTROL[key].kind === 'flag') c = flagControl(key);
      else if (CONTROL[key].kind === 'filter') c = filterControl(key);
      else c = intControl(key, key === 'limit' ? 'no limit' : key === 'memoMb' ? 'automatic' : 'off');
      controls.set(key, c);
      if (key === 'redundancy') controls.set('redundancyPiece', { inputs: [c.inputs[1]], render() {} });
      items.push(c.item);
    }
    if (g.id === 'algorithm') items.unshift(h('div', { className: 'row opt-auto-row' }, algoStatus, autoButton));
    if (g.folded) {
      const count = h('span', { className: 'opt-count' });
      const details = h('details', { className: 'opt-group', id: `opt-group-${g.id}` }, h('summary', {}, g.title, count), ...items);
      groupEls.set(g.id, { el: details, count, keys: g.keys });
      fieldset.append(details);
    } else {
      const div = h('div', { className: 'opt-group open', id: `opt-group-${g.id}` }, ...items);
      groupEls.set(g.id, { el: div, count: null, keys: g.keys });
      fieldset.append(div);
    }
  }
  root.replaceChildren(fieldset);

  textBox.addEventListener('input', () => options.setText(textBox.value));
  solveOnEnter(textBox);

  // A text-like input the person is typing in keeps its raw text (the state holds the same
  // value, maybe in canonical form: '010' is 10).
  function setFieldText(input, value) {
    if (document.activeElement === input) return;
    if (input.value !== value) input.value = value;
  }

  function showError(errorEl, inputs, message) {
    errorEl.hidden = !message;
    errorEl.textContent = message || '';
    for (const i of inputs) {
      if (message) i.setAttribute('aria-invalid', 'true');
      else i.removeAttribute('aria-invalid');
    }
  }

  store.subscribe(['options', 'puzzles', 'puzzleIndex'], (s) => {
    const { text, error, errorKey } = s.options;
    const p = s.puzzles[s.puzzleIndex];
    piecesCount = p ? p.instances.filter((i) => !i.stationary).length : 0;
    if (document.activeElement !== textBox && textBox.value !== text) textBox.value = text;

    const parsed = parseOptions(text);
    const textBroken = parsed.errors.length > 0;
    setProp(fieldset, 'disabled', textBroken);
    setProp(fieldset, 'title', textBroken ? 'Fix the command-line options below to use these controls again' : '');
    // the control an error belongs to: its own key, or the one an engine message names
    const errorControl = errorKey === 'engine' ? controlOfMessage(error) : KEYS.includes(errorKey) ? errorKey : '';
    showError(textError, [textBox], errorKey === 'text' || errorKey === 'engine' ? error : '');

    if (!textBroken) {
      for (const [key, c] of controls) {
        if (errorKey === key) continue; // keep what the person typed, marked below
        c.render(parsed.values, s);
      }
    }
    for (const key of KEYS) {
      const c = controls.get(key);
      const errEl = document.getElementById(`${controlId(key)}-error`);
      if (c && errEl) showError(errEl, c.inputs, errorControl === key ? error : '');
    }

    const values = textBroken ? null : parsed.values;
    const automatic = values ? isAutomatic(values) : true;
    algoStatus.textContent = automatic
      ? 'Automatic: the solver picks the algorithm and heuristics for this puzzle (recommended).'
      : 'Your choice: the options below replace the automatic configuration.';
    setProp(autoButton, 'disabled', automatic);
    for (const [, g] of groupEls) {
      if (!g.count) continue;
      const set = values ? g.keys.filter((k) => isSet(values[k])).length : 0;
      g.count.textContent = set ? ` · ${set} set` : '';
      if (errorControl && g.keys.includes(errorControl)) g.el.open = true;
    }
  });
}

function isSet(v) {
  return v !== null && v !== false && v !== '';
}
