// The pseudo-code on screen (lesson/pseudo-code.js): the algorithm's lines, numbered and
// indented, the line the step executes lit (the loop around it marked), and under them the
// variables' values and the step in words. Large monospace type and strong contrast, so that it
// reads when projected; text goes in with textContent only.
//
//   const view = new CodeView(container);
//   view.setCode(codeFor('dlx', { checks }));
//   view.show(explainStep('dlx', player, puzzle));   // lights its line, fills the variables
//   view.litLine();                                  // the id of the line lit ('' before show)
//   view.destroy();

const FONT = 'ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace';
const LIT = { background: 'rgba(255, 210, 63, 0.22)', border: '#ffd23f', color: '#fff6d6' };

export class CodeView {
  constructor(container) {
    const doc = container.ownerDocument;
    this.doc = doc;
    this.root = doc.createElement('figure');
    this.root.className = 'code-view';
    Object.assign(this.root.style, { margin: '0', display: 'flex', flexDirection: 'column', gap: '8px', minWidth: '0' });
    this.title = doc.createElement('figcaption');
    Object.assign(this.title.style, { font: '600 15px system-ui, sans-serif', color: '#9aa8c2' });
    this.list = doc.createElement('ol');
    this.list.className = 'code-lines';
    this.list.setAttribute('aria-live', 'off');
    Object.assign(this.list.style, { margin: '0', padding: '6px 0', listStyle: 'none', background: '#0f1626', borderRadius: '8px', overflowX: 'auto', counterReset: 'line' });
    this.words = doc.createElement('p');
    this.words.className = 'code-words';
    this.words.setAttribute('aria-live', 'polite');
    Object.assign(this.words.style, { margin: '0', font: '600 16px/1.4 system-ui, sans-serif', color: '#e7ecf5', minHeight: '1.4em' });
    this.vars = doc.createElement('dl');
    this.vars.className = 'code-vars';
    Object.assign(this.vars.style, { margin: '0', display: 'flex', flexWrap: 'wrap', gap: '6px 16px', font: `15px ${FONT}`, color: '#b5c1d9' });
    this.root.append(this.title, this.list, this.words, this.vars);
    container.append(this.root);
    this.items = new Map(); // line id -> <li>
    this.lit = '';
    this.loop = '';
  }

  /** Show an algorithm's code ({title, lines} of codeFor). */
  setCode(code) {
    this.code = code;
    this.title.textContent = code.title;
    this.items.clear();
    this.lit = '';
    this.loop = '';
    const doc = this.doc;
    this.list.replaceChildren(...code.lines.map((line, i) => {
      const li = doc.createElement('li');
      li.dataset.line = line.id;
      Object.assign(li.style, {
        display: 'flex', gap: '12px', alignItems: 'baseline', padding: '3px 12px 3px 8px', borderLeft: '4px solid transparent',
        font: `clamp(13px, 1.2vw + 9px, 16px)/1.45 ${FONT}`, color: '#c9d3e6', whiteSpace: 'pre-wrap',
      });
      const number = doc.createElement('span');
      number.textContent = String(i + 1);
      number.setAttribute('aria-hidden', 'true');
      Object.assign(number.style, { color: '#66749a', minWidth: '1.6em', textAlign: 'right', flex: 'none' });
      const text = doc.createElement('code');
      text.textContent = line.text;
      Object.assign(text.style, { font: 'inherit', paddingLeft: `${line.depth * 1.6}em` });
      li.append(number, text);
      this.items.set(line.id, li);
      return li;
    }));
  }

  /** Light the line of a step ({line, loop, vars, words} of explainStep). */
  show(at) {
    if (!this.code) return;
    if (this.lit !== at.line || this.loop !== (at.loop || '')) {
      for (const [id, li] of this.items) {
        const on = id === at.line, around = id === at.loop;
        li.style.background = on ? LIT.background : 'transparent';
        li.style.borderLeftColor = on ? LIT.border : around ? 'rgba(255, 210, 63, 0.55)' : 'transparent';
        li.style.color = on ? LIT.color : around ? '#e7ecf5' : '#c9d3e6';
        li.style.fontWeight = on ? '700' : '400';
        if (on) li.setAttribute('aria-current', 'step');
        else li.removeAttribute('aria-current');
      }
      this.lit = at.line;
      this.loop = at.loop || '';
    }
    this.words.textContent = at.words;
    const doc = this.doc;
    this.vars.replaceChildren(...at.vars.map((v) => {
      const box = doc.createElement('div');
      Object.assign(box.style, { display: 'flex', gap: '6px' });
      const dt = doc.createElement('dt');
      dt.textContent = `${v.name}:`;
      dt.style.color = '#8190b3';
      const dd = doc.createElement('dd');
      dd.textContent = v.value;
      Object.assign(dd.style, { margin: '0', color: '#ffe08a', fontWeight: '700' });
      box.append(dt, dd);
      return box;
    }));
  }

  litLine() {
    return this.lit;
  }

  destroy() {
    this.root.remove();
  }
}
