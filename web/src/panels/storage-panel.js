// The damaged values of the browser's storage that the page set aside (app/storage-actions.js):
// one message each, naming the store and what was wrong, with its text to download or delete.
import { byId, h, setProp } from './dom.js';
import { downloadText } from './download.js';

export function mountStoragePanel(store, storage) {
  const el = { box: byId('storage-issues'), list: byId('storage-issue-list') };
  store.subscribe(['storageIssues'], (s) => {
    const issues = s.storageIssues;
    setProp(el.box, 'hidden', issues.length === 0);
    el.list.replaceChildren(...issues.map((issue) => h('li', { dataset: { key: issue.key } },
      h('p', {}, issue.message),
      h('span', { className: 'row' },
        h('button', { type: 'button', className: 'storage-download', onclick: () => downloadText(storage.text(issue.key), `${issue.key}.txt`) }, 'Download it'),
        issue.copy ? h('button', { type: 'button', className: 'storage-delete', onclick: () => storage.remove(issue.key) }, 'Delete the copy') : null,
        h('button', { type: 'button', className: 'quiet storage-dismiss', 'aria-label': 'Dismiss this message', onclick: () => storage.dismiss(issue.key) }, '✕'),
      ))));
  });
}
