// The damaged values of the browser's storage that the page set aside (storage-guard.js): listed
// for the person, each with what was wrong, to download (to mend by hand) or delete. Nothing is
// deleted unasked; a copy set aside at an earlier visit is listed again until it is.
//
//   const storage = new StorageActions(store, guard);
//   storage.refresh();              // state.storageIssues from the guard's reports and backups
//   storage.text(key); storage.remove(key); storage.dismiss(key);
export class StorageActions {
  /**
   * @param {import('./store.js').Store} store
   * @param {import('./storage-guard.js').StorageGuard} guard
   */
  constructor(store, guard) {
    this.store = store;
    this.guard = guard;
    this.dismissed = new Set(); // keys closed for this visit (listed again at the next)
    guard.onIssue = () => this.refresh(); // (a value damaged while the page is open: another tab)
  }

  /** state.storageIssues: [{key, name, message, size, copy}] (copy: a backup key to delete). */
  refresh() {
    const fresh = new Map(this.guard.issues.map((i) => [i.backupKey || i.key, i]));
    const list = [];
    for (const b of this.guard.backups()) {
      const issue = fresh.get(b.key);
      fresh.delete(b.key);
      const message = issue ? issue.message
        : `${b.name} ("${b.of}") was damaged at an earlier visit; its text (${b.size.toLocaleString('en-US')} characters) is kept as "${b.key}": download it to mend it, or delete it.`;
      list.push({ key: b.key, name: b.name, message, size: b.size, copy: true });
    }
    // damaged values that could not be copied aside (storage full): still where they were
    for (const [key, issue] of fresh) if (!issue.backupKey) list.push({ key, name: issue.name, message: issue.message, size: issue.size, copy: false });
    this.store.replace({ storageIssues: list.filter((i) => !this.dismissed.has(i.key)) });
  }

  /** The damaged text kept under `key` (a backup, or a value that could not be copied aside). */
  text(key) {
    const issue = this.guard.issues.find((i) => i.key === key && !i.backupKey);
    if (issue) return issue.raw;
    const backup = this.guard.backups().find((b) => b.key === key);
    return backup ? backup.raw : '';
  }

  /** Delete a backup (the person has it, or does not want it). */
  remove(key) {
    this.guard.removeBackup(key);
    this.refresh();
  }

  /** Close the message for this visit; the backup stays. */
  dismiss(key) {
    this.dismissed.add(key);
    this.refresh();
  }
}
