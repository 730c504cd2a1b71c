// Share and keep: copy a link to what is on screen; download the puzzle's definition; import a
// definition file or a checkpoint file (picker or drag-and-drop anywhere on the page); export the solutions found as
// the CLI's text or as JSON. Also shows the page's notices (a link that could not be read,
// storage refused).
import { solutionsToJson } from '../io/solutions-text.js';
import { LIMITS } from '../model/puzzle.js';
import { ENGINE_RULES } from '../generated/engine-rules.js';
import { definitionFileName, writeDefinition } from '../model/definition-writer.js';
import { PHASE } from '../app/state.js';
import { byId, setMessage, setProp, setText } from './dom.js';
import { downloadText } from './download.js';

export const MAX_IMPORT_BYTES = LIMITS.maxInputBytes; // the engine's input limit
const CHECKPOINT_MAGIC = ENGINE_RULES.files.checkpointMagic;

export function mountSharePanel(store, actions, editor, sync) {
  const el = {
    copy: byId('copy-link'), copied: byId('copy-status'), linkText: byId('link-text'),
    downloadDef: byId('download-def'), importFile: byId('import-file'), importBtn: byId('import-def'),
    exportText: byId('export-text'), exportJson: byId('export-json'), notice: byId('notice'), noticeText: byId('notice-text'),
    noticeClose: byId('notice-close'),
  };

  /**
   * Copy the link to what is on screen (Copy link here, Share on the stage's bar); resolves to
   * what happened, in words ('' when there is nothing to link to).
   * @param {boolean} selectByHand without clipboard permission, select the link in its box
   */
  async function copyLink(selectByHand = true) {
    const url = sync.currentUrl();
    if (!url) return '';
    el.linkText.value = url;
    el.linkText.hidden = false;
    // a puzzle being edited with a problem the format cannot carry (a name with ':') opens
    // with its text and the error, to be mended: said here rather than found there
    const problem = editor.formatProblem();
    const warning = problem ? ` It opens with an error until this is mended: ${problem}.` : '';
    try {
      await navigator.clipboard.writeText(url);
      el.copied.textContent = `Link copied (${url.length} characters).${warning}`;
    } catch {
      // no clipboard permission (e.g. an insecure origin): the link is selected to copy by hand
      if (selectByHand) {
        el.linkText.focus();
        el.linkText.select();
      }
      el.copied.textContent = `Copy the selected link (Ctrl+C).${warning}`;
    }
    return el.copied.textContent;
  }
  el.copy.addEventListener('click', () => copyLink());

  /** The definition text of what is on screen: the puzzle being edited, else the loaded one. */
  function definitionNow() {
    const s = store.get();
    if (s.editor.active && s.editor.puzzle) return { text: writeDefinition(s.editor.puzzle), name: definitionFileName(s.editor.puzzle) };
    const name = s.source.kind === 'library' ? s.source.file : definitionFileName({ title: s.source.title || (s.puzzles[0] && s.puzzles[0].title) || '' });
    return { text: s.source.text, name };
  }
  el.downloadDef.addEventListener('click', () => {
    const { text, name } = definitionNow();
    if (text) downloadText(text, name);
  });

  el.importBtn.addEventListener('click', () => el.importFile.click());
  el.importFile.addEventListener('change', () => {
    const file = el.importFile.files && el.importFile.files[0];
    el.importFile.value = '';
    if (file) importFile(file);
  });
  // drag-and-drop anywhere on the page
  document.addEventListener('dragover', (e) => {
    if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) {
      e.preventDefault();
      document.body.classList.add('dropping');
    }
  });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) document.body.classList.remove('dropping'); });
  document.addEventListener('drop', (e) => {
    document.body.classList.remove('dropping');
    const file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!file) return;
    e.preventDefault();
    importFile(file);
  });

  // A definition file, or a checkpoint file (the command line's --checkpoint, a kept search
  // downloaded: its first word says so), each read only within its limit.
  async function importFile(file) {
    let text;
    try {
      const checkpoint = (await file.slice(0, 64).text()).startsWith(`${CHECKPOINT_MAGIC} `);
      const [limit, kind] = checkpoint ? [LIMITS.maxCheckpointBytes, 'checkpoint file'] : [MAX_IMPORT_BYTES, 'definition file'];
      if (file.size > limit) {
        store.update('notice', `${file.name} is ${(file.size / 1048576).toFixed(1)} MB; a ${kind} may have at most ${limit / 1048576} MB.`);
        return;
      }
      text = await file.text();
      if (store.get().editor.active) editor.close();
      store.update('notice', '');
      if (checkpoint) {
        await actions.openCheckpointFile(text, file.name);
        return;
      }
    } catch (err) {
      store.update('notice', `Could not read ${file.name}: ${err && err.message ? err.message : err}`);
      return;
    }
    await actions.loadDefinition(text, file.name);
  }

  function solutionsNow() {
    const s = store.get();
    const sol = s.solutions;
    const puzzle = s.puzzles[s.puzzleIndex];
    if (!sol.store || !puzzle) return null;
    const list = [];
    for (let k = 0; k < sol.store.stored; k++) list.push({ index: sol.linked || k + 1, grid: sol.store.get(k) });
    return { puzzle, list, base: (s.source.kind === 'library' ? s.source.file : definitionNow().name).replace(/\.txt$/, '') };
  }
  el.exportText.addEventListener('click', () => {
    const x = solutionsNow();
    if (!x) return;
    // the engine writes the text (the code the CLI prints with)
    actions.solutionsText(x.list).then(
      (text) => downloadText(text, `${x.base}-solutions.txt`),
      (err) => store.update('notice', `Could not write the solutions as text: ${err && err.message ? err.message : err}`),
    );
  });
  el.exportJson.addEventListener('click', () => {
    const x = solutionsNow();
    if (!x) return;
    const s = store.get();
    downloadText(solutionsToJson({ puzzle: x.puzzle, definition: s.source.text, options: s.run.options || s.options.text, solutions: x.list }), `${x.base}-solutions.json`, 'application/json');
  });
  el.noticeClose.addEventListener('click', () => store.update('notice', ''));

  let noticeShown = '';
  store.subscribe(['solutions', 'run', 'puzzles', 'notice', 'editor'], (s) => {
    const stored = s.solutions.store ? s.solutions.store.stored : 0;
    const running = s.run.phase === PHASE.RUNNING;
    setProp(el.exportText, 'disabled', stored === 0 || running);
    setProp(el.exportJson, 'disabled', stored === 0 || running);
    setProp(el.downloadDef, 'disabled', !(s.puzzles.length || (s.editor.active && s.editor.puzzle)));
    setProp(el.copy, 'disabled', el.downloadDef.disabled);
    setProp(el.notice, 'hidden', !s.notice);
    setMessage(el.noticeText, s.notice);
    // a new notice comes into sight (a link opened in this tab while the panel is scrolled
    // down to the editor would otherwise change nothing visible)
    if (s.notice && s.notice !== noticeShown && typeof el.notice.scrollIntoView === 'function') el.notice.scrollIntoView({ block: 'nearest' });
    noticeShown = s.notice;
  });
  return { copyLink };
}
