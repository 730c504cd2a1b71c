// The definition text (the reference solver's format): type or paste a puzzle, load it, and see
// the engine's error where the text is, with a button that selects the offending line.
import { byId } from './dom.js';

export function mountDefinitionPanel(store, actions, editor) {
  const el = {
    box: byId('custom'), text: byId('def-text'), load: byId('def-load'), revert: byId('def-reset'),
    error: byId('def-error'), errorText: byId('def-error-text'), gotoLine: byId('def-goto'),
  };

  // (while the editor is open the text is its puzzle's: loaded as that puzzle, not as a new one)
  const load = () => (store.get().editor.active ? editor.load() : actions.loadDefinition(el.text.value));
  el.load.addEventListener('click', load);
  el.revert.addEventListener('click', () => store.update('definition', { text: store.get().source.text, error: '' }));
  // While the editor is open it follows the text as it is typed; otherwise the text loads on request.
  el.text.addEventListener('input', () => {
    if (store.get().editor.active) editor.followText(el.text.value);
    else store.update('definition', { text: el.text.value });
  });
  el.text.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      load();
    }
  });
  el.gotoLine.addEventListener('click', () => selectLine(Number(el.gotoLine.dataset.line)));
  el.box.addEventListener('toggle', () => {
    if (el.box.open !== store.get().definition.open) store.update('definition', { open: el.box.open });
  });

  // The box's open state is drawn only when the state's changes: the browser's 'toggle' event
  // comes a task after a click, and an unrelated update in between (typing into the box at once)
  // would otherwise close the box the person had just opened.
  let drawnOpen = null;
  store.subscribe(['definition'], (s) => {
    const d = s.definition;
    if (el.text.value !== d.text) el.text.value = d.text;
    if (d.open !== drawnOpen) {
      drawnOpen = d.open;
      el.box.open = d.open;
    }
    el.error.hidden = !d.error;
    el.errorText.textContent = d.error;
    const m = /^[^\n]*?:(\d+):/.exec(d.error);
    const line = m ? Number(m[1]) : 0;
    el.gotoLine.hidden = !(line > 0);
    el.gotoLine.dataset.line = String(line);
    el.gotoLine.textContent = `Select line ${line} in the text`;
  });

  function selectLine(line) {
    const text = el.text.value;
    let start = 0;
    for (let i = 1; i < line && start >= 0; i++) {
      const nl = text.indexOf('\n', start);
      start = nl < 0 ? -1 : nl + 1;
    }
    if (start < 0) return;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    el.text.focus();
    el.text.setSelectionRange(start, end);
    const lineHeight = parseFloat(getComputedStyle(el.text).lineHeight) || 16;
    el.text.scrollTop = Math.max(0, (line - 3) * lineHeight);
  }
}
