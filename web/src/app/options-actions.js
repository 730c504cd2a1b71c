// The solver options in plain words: the actions behind the option controls.
//
// state.options.text (the CLI's option language) is the single source: the controls and the
// "command-line options" text box both render from it, and editing either one rewrites it.
//
//   const options = new OptionsActions(store);
//   options.setControl('limit', 100);        // '-r' -> '-r -l 100'
//   options.setText('-r L -M');               // the controls follow
//   options.markInvalid('limit', 'Stop after N solutions: needs a whole number ...');
//
// state.options = { text, error, errorKey }: errorKey says what the error belongs to:
//   ''        no error
//   'text'    the text does not parse (parseOptions' message); the controls keep their last
//             valid values and are disabled until the text is fixed
//   <key>     a control (CONTROLS key) holds a value that cannot be written; the text keeps the
//             last valid options
//   'engine'  the engine refused the options when the search started (Session.start's message,
//             e.g. a piece name that is not in the puzzle)
// A search is never started while the error belongs to the text or a control (optionsRefusal),
// and a refused start keeps the solutions already found (actions.solve).
import { automaticValues, buildOptions, CONTROLS, optionProblems, parseOptions } from '../model/options.js';

/** The options slice for a text the person typed (or a link or session carried). */
export function optionsSliceForText(text) {
  const t = String(text ?? '');
  const { errors } = parseOptions(t);
  return { text: t, error: errors[0] || '', errorKey: errors.length ? 'text' : '' };
}

/**
 * Why a search must not start with these options ('' when it may): a text that does not
 * parse, or a control holding a value that cannot be written.
 */
export function optionsRefusal(options) {
  if (!options.error || options.errorKey === 'engine' || options.errorKey === '') return '';
  const label = options.errorKey === 'text' ? 'the command-line options' : labelOf(options.errorKey);
  return `Not started: ${label} ${options.errorKey === 'text' ? 'have' : 'has'} an error (${options.error}). The solutions found so far are kept.`;
}

function labelOf(key) {
  const c = CONTROLS.find((x) => x.key === key);
  return c ? `“${c.label}”` : key;
}

/** Whether an engine error message is about the options (shown at the options, not only in the status). */
export function isOptionsError(message) {
  return /^(.*?:\d+: )?(-[a-zA-Z]|--[a-zA-Z]|unknown option|option |unexpected word)/.test(String(message));
}

/** The solution limit a search with this option text stops at (-l N), or null. */
export function limitOf(text) {
  const { values, errors } = parseOptions(String(text ?? ''));
  return errors.length ? null : values.limit;
}

export class OptionsActions {
  /** @param {import('./store.js').Store} store */
  constructor(store) {
    this.store = store;
    // The engine's refusal was about the puzzle then loaded (e.g. a piece name): another
    // puzzle gets a fresh start. A text or control error stays: it is about the options alone.
    store.subscribe(['puzzles', 'puzzleIndex'], (s) => {
      if (s.options.errorKey === 'engine') store.update('options', { error: '', errorKey: '' });
    });
  }

  get options() {
    return this.store.get().options;
  }

  /** The values the controls show: the text's, or every control off when the text has an error. */
  values() {
    const { values, errors } = parseOptions(this.options.text);
    return errors.length ? null : values;
  }

  /** The person edited the command-line text. */
  setText(text) {
    this.store.update('options', optionsSliceForText(text));
  }

  /**
   * A control changed to `value` (the plain value of model/options.js: boolean, number or
   * null, string, 'once', {trials, remaining, seed} or null). The text is rewritten in the
   * canonical CLI form, keeping words no control covers (-q, --json).
   * @returns {boolean} false when the value cannot be written (the control is marked instead)
   */
  setControl(key, value) {
    const parsed = parseOptions(this.options.text);
    if (parsed.errors.length) return false; // the controls are disabled until the text is fixed
    const values = { ...parsed.values, [key]: value };
    // choosing the piece to hold still means counting rotations as one
    if (key === 'redundancyPiece' && value) values.redundancy = true;
    // mirror images are counted as one only beside rotations (-r) or -u: the pair stays valid
    // (a bare "-M" is an invalid option text, which would grey every control out)
    if (key === 'mirror' && value && !values.redundancy && !values.unique) values.redundancy = true;
    if ((key === 'redundancy' || key === 'unique') && !value && !values.redundancy && !values.unique) values.mirror = false;
    const problem = optionProblems(values).find((p) => p.key === key);
    if (problem) {
      const c = CONTROLS.find((x) => x.key === key);
      // "from 1 to 9007199254740991" says nothing to a person: no upper bound worth naming
      const message = c && c.max === Number.MAX_SAFE_INTEGER ? `${c.label}: needs a whole number of at least ${c.min}` : problem.message;
      this.markInvalid(key, message);
      return false;
    }
    const text = buildOptions(values, parsed.rest);
    // a combination the text cannot hold: marked at the control, never written (written, its
    // error would disable every control, this one included)
    const combined = parseOptions(text).errors[0];
    if (combined) {
      this.markInvalid(key, combined);
      return false;
    }
    this.store.update('options', { text, error: '', errorKey: '' });
    return true;
  }

  /** Set every algorithm control back to automatic (the solver configures itself). */
  useAutomaticAlgorithm() {
    const parsed = parseOptions(this.options.text);
    if (parsed.errors.length) return;
    this.store.update('options', { text: buildOptions(automaticValues(parsed.values), parsed.rest), error: '', errorKey: '' });
  }

  /** A control holds something that is not a value (e.g. '1.5' in a whole-number box). */
  markInvalid(key, message) {
    this.store.update('options', { error: message, errorKey: key });
  }

  /** The control's raw input became valid again without changing the options (e.g. emptied back). */
  clearInvalid(key) {
    if (this.options.errorKey === key) this.store.update('options', { error: '', errorKey: '' });
  }
}
