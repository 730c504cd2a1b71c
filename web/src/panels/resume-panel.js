// The unfinished search kept in the browser (app/saved-search.js): offered for
// resuming after a reload, a closed tab or a Cancel, with what it had found, and for download
// as a checkpoint file that the command line finishes (polycube --resume FILE).
import { PHASE } from '../app/state.js';
import { num, progressText, secs } from '../app/format.js';
import { byId, setProp } from './dom.js';
import { downloadText } from './download.js';

function ago(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 5) return 'just now';
  if (s < 90) return `${s} s ago`;
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 172800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

export function mountResumePanel(store, actions) {
  const el = {
    banner: byId('resume-banner'), text: byId('resume-text'), resume: byId('resume'), discard: byId('resume-discard'),
    download: byId('resume-download'), file: byId('resume-file'),
  };
  el.resume.addEventListener('click', () => actions.resumeSaved());
  // (Discard in a tab while another runs the search: that tab keeps it again at its next write)
  el.discard.addEventListener('click', () => actions.discardSaved());
  el.download.addEventListener('click', () => downloadText(actions.savedText(), 'kept-search.json', 'application/json'));
  // The command line's checkpoint file, written by the engine; the notice says how to finish it.
  el.file.addEventListener('click', async () => {
    const made = await actions.savedCheckpointFile();
    if (made.error) {
      store.update('notice', `The kept search could not be written as a checkpoint file: ${made.error}`);
      return;
    }
    downloadText(made.text, made.name);
    store.update('notice', `Downloaded ${made.name}. Finish the search on the command line with: ${made.command} `
      + '(add -q to print only the count, -j N to search on N threads), or open it here later (Open a file…).');
  });
  store.subscribe(['saved', 'run', 'solutions'], (s) => {
    const saved = s.saved;
    const busy = s.run.phase === PHASE.RUNNING || s.run.phase === PHASE.LOADING;
    setProp(el.banner, 'hidden', !saved || busy);
    if (!saved) return;
    setProp(el.resume, 'hidden', !!saved.refused);
    setProp(el.download, 'hidden', !saved.refused);
    setProp(el.file, 'hidden', !!saved.refused);
    if (saved.refused) {
      // never resumed, never deleted unasked: kept as it is until discarded
      el.text.textContent = `A search kept in the browser (${saved.title}${saved.options ? ` with ${saved.options}` : ''}) cannot be resumed: `
        + `${saved.refused}. It is kept as it was: download it to look into it, or discard it to keep the next long search instead.`;
      return;
    }
    const options = saved.options ? ` with ${saved.options}` : '';
    el.text.textContent = `An unfinished search of ${saved.title}${options} was kept ${ago(Date.now() - saved.savedAt)}: `
      + `${progressText(saved.fraction, 0)} done, ${num(saved.solutions)} ${saved.solutions === 1 ? 'solution' : 'solutions'}`
      // (a checkpoint file opened here does not say how long it was searched)
      + `${saved.elapsed > 0 ? `, ${secs(saved.elapsed)} of searching` : ''}.`
      // A checkpoint keeps what the parts of the search that had ended found (pool/pieces.js),
      // fewer than the counter above shows after a Cancel: the difference is explained
      + (s.run.phase === PHASE.CANCELLED && s.solutions.total > saved.solutions
        ? ` It goes on from a moment before the stop: the last ${num(s.solutions.total - saved.solutions)} found are found again.`
        : '');
  });
}
