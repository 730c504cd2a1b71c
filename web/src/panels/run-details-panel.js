// What the options -i, -s and -t produce, shown under the counters once a search ends:
// the statistics (configuration, per-level placements tried and fitted), the
// Monte Carlo estimate, and the number of trace events recorded (replayed step by step by the
// watch panel, panels/watch-panel.js). The content comes from app/run-report.js runDetails(state.run).
import { PHASE } from '../app/state.js';
import { runDetails } from '../app/run-report.js';
import { big, num, plural, secs } from '../app/format.js';
import { byId, h, setProp } from './dom.js';

export function mountRunDetailsPanel(store) {
  const root = byId('run-details');

  store.subscribe(['run'], (s) => {
    const ended = s.run.phase === PHASE.DONE || s.run.phase === PHASE.CANCELLED;
    const d = ended ? runDetails(s.run) : null;
    setProp(root, 'hidden', !d);
    if (!d) {
      root.replaceChildren();
      return;
    }
    const parts = [];
    if (d.monteCarlo) {
      const m = d.monteCarlo;
      parts.push(h('section', { className: 'run-mc', id: 'run-monte-carlo', 'aria-label': 'Monte Carlo estimate' },
        h('h3', {}, 'Monte Carlo estimate'),
        h('p', {},
          `${num(m.trials)} of ${num(m.asked)} random trials run (each ends when a piece is taken back with ${num(m.remaining)} left): `,
          h('strong', {}, `${num(m.perTrial)} placements tried per trial`),
          ` on average, ${num(m.attempts)} in all; ${plural(m.solutions, 'solution')} met on the way.`),
        h('p', { className: 'hint' }, 'Compare the per-trial figure (or the table below) between option settings to see which search is smaller.')));
    }
    if (d.info) parts.push(statisticsSection(d.info));
    if (d.trace) {
      const t = d.trace;
      parts.push(h('section', { className: 'run-trace', id: 'run-trace', 'aria-label': 'Trace' },
        h('h3', {}, 'Trace'),
        h('p', {},
          h('strong', {}, `${num(t.events)} trace events recorded`),
          ` (each cell chosen, piece tried, placed or taken back, and each dead end, ${t.at >= 0 ? `while ${num(t.at)} or more pieces remain` : `with exactly ${num(-t.at)} pieces remaining`}). `,
          'To see them one by one, ',
          h('button', { type: 'button', className: 'link', id: 'run-trace-watch', onclick: () => byId('watch-card').scrollIntoView({ behavior: 'smooth', block: 'start' }) }, 'watch the search'),
          ' records it and replays it step by step.')));
    }
    root.replaceChildren(...parts);
  });
}

function statisticsSection(info) {
  const head = h('tr', {}, h('th', { scope: 'col' }, 'pieces left'), h('th', { scope: 'col' }, 'tried'), h('th', { scope: 'col' }, 'fitted'),
    ...info.columns.map((c) => h('th', { scope: 'col' }, c)));
  // the search's order: from all pieces left down to the last one
  const rows = [...info.rows].reverse().map((r) => h('tr', {},
    h('th', { scope: 'row' }, String(r.left)), h('td', {}, num(r.attempts)), h('td', {}, num(r.fits)),
    ...r.extra.map((x) => h('td', {}, num(x)))));
  const facts = [];
  if (info.configuration) facts.push(['Configuration', info.configuration]);
  if (info.redundancyFilter) facts.push(['Piece held still', info.redundancyFilter]);
  if (info.redundant) facts.push(['Dropped as rotations of others', num(info.redundant)]);
  if (info.setupSeconds !== null) facts.push(['Time', `${secs(info.setupSeconds)} setup, ${secs(info.searchSeconds)} search`]);
  const total = info.rows.reduce((a, r) => a + r.attempts, 0);
  return h('section', { className: 'run-info', id: 'run-statistics', 'aria-label': 'Statistics' },
    h('h3', {}, 'Statistics'),
    h('dl', { className: 'facts' }, ...facts.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v)))),
    h('p', { id: 'run-levels-caption' }, `Placements tried and fitted, by pieces left to place (${big(total)} tried in all):`),
    h('div', { className: 'table-wrap' },
      h('table', { className: 'levels', id: 'run-levels', 'aria-labelledby': 'run-levels-caption' },
        h('thead', {}, head), h('tbody', {}, ...rows))));
}
