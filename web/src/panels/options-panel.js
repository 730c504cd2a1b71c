// Solver options: "count rotations as one" and the advanced text in the CLI's option language.
import { byId } from './dom.js';

export function mountOptionsPanel(store, actions) {
  const el = { r: byId('opt-r'), extra: byId('opt-extra') };
  const compose = () => [el.r.checked ? '-r' : '', el.extra.value.trim()].filter(Boolean).join(' ');
  el.r.addEventListener('change', () => actions.setOptionsText(compose()));
  el.extra.addEventListener('input', () => actions.setOptionsText(compose()));
  el.extra.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') actions.solve();
  });
  store.subscribe(['options'], (s) => {
    const words = s.options.text.trim().split(/\s+/).filter(Boolean);
    const hasR = words[0] === '-r';
    el.r.checked = hasR;
    const rest = (hasR ? words.slice(1) : words).join(' ');
    if (el.extra.value.trim() !== rest) el.extra.value = rest;
  });
}
